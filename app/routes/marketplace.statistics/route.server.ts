/**
 * Statistics, server side: top NFTs, activity and volume from the market API, and the filter's links, so
 * routes/marketplace.statistics/route.tsx carries no filter codec.
 */
import { json } from "@remix-run/node";
import { STATISTICS_PATH, typeLinks } from "~/features/market/filters/shared";
import { parseStatsFilter, serializeStatsFilter, statsHref, toStatsQuery, type StatsFilter } from "~/features/market/filters/statistics";
import type { TradeRowModel } from "~/features/market/market-views";
import { pageHrefs } from "~/features/market/paging";
import { backendProblem, publicApis } from "~/services/apis.server";
import { tradeView } from "~/features/market/market-views.server";
import { type NftTypeCode, NFT_TYPE } from "~core/nft";
import { canonicalView } from "~/features/market/market-urls.server";
import { shareFor } from "~/services/share-tags.server";
import { volumeChartHtml } from "~/features/market/volume-chart.server";
import { serverMarkup } from "~/services/server-html.server";

const STATISTICS_DESCRIPTION = "Spark Era marketplace statistics: top sales, recent activity and trading volume.";

/** The statistics filter for another type: the type-specific filters are kept only where they still fit. */
function forType(filter: StatsFilter, nftType: NftTypeCode | undefined): StatsFilter {
  return {
    ...filter,
    nftType,
    pse: nftType === NFT_TYPE.pse ? filter.pse : undefined,
    egse: nftType === NFT_TYPE.egse ? filter.egse : undefined,
    rank: nftType === NFT_TYPE.spaceship ? filter.rank : undefined,
    page: 1,
  };
}

/** The chart needs a few days to be a chart: one day shows the last week, all time the last 90 days. */
const CHART_DAYS = { "1d": 7, "7d": 7, "30d": 30, "90d": 90, all: 90 } as const;
const TOP_SIZE = 10;

export async function statisticsPage(request: Request) {
  const { filter, notices: parseNotices } = parseStatsFilter(new URL(request.url).searchParams);
  const search = serializeStatsFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: STATISTICS_PATH, canonical: search, parseNotices });
  const here = statsHref(filter);
  const view = {
    search,
    // Issue 42: a view's canonical URL is its canonical filter's.
    share: shareFor(request, { title: "Statistics", description: STATISTICS_DESCRIPTION, canonicalSearch: search }),
    filter,
    notices,
    typeLinks: typeLinks(filter.nftType, (nftType) => statsHref(forType(filter, nftType)), "All"),
  };
  const api = publicApis().market;
  const days = CHART_DAYS[filter.period];
  try {
    const [top, activity, volume] = await Promise.all([
      api.topNft(toStatsQuery({ ...filter, page: 1 }, TOP_SIZE)),
      api.activity(toStatsQuery(filter)),
      api.volume(days, filter.nftType),
    ]);
    const currency = filter.currency ?? "FIRE";
    const activityInfo = { page: filter.page, pageSize: activity.pageSize, total: activity.total, capped: activity.totalCapped };
    return json(
      {
        ...view,
        problem: null,
        top: top.records.map((trade, i) => tradeView(trade, i, here)),
        activity: activity.records.map((trade, i) => tradeView(trade, i, here)),
        activityInfo,
        activityHrefs: pageHrefs(activityInfo, (page) => `${statsHref({ ...filter, page })}#activity-title`),
        chart: serverMarkup(
          volumeChartHtml({
            currency,
            period: `Last ${days} days`,
            points: volume.series.map((day) => ({ date: day.date, trades: day.trades, volume: day.volume[currency] })),
          }),
        ),
      },
      { headers },
    );
  } catch (error) {
    const problem = backendProblem(error);
    const none: TradeRowModel[] = [];
    return json(
      { ...view, problem: problem.message, top: none, activity: none, activityInfo: null, activityHrefs: {}, chart: null },
      { status: problem.status, headers },
    );
  }
}
