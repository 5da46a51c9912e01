/**
 * The market, server side: the listings from the market API, and everything the page shows of its filter (chips,
 * form values, type and page links), so routes/marketplace.market/route.tsx carries no filter codec.
 */
import { json } from "@remix-run/node";
import { filterChips, marketFormValues } from "~/features/market/filters/chips";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery, withPage, withType } from "~/features/market/filters/market";
import { MARKET_PATH, NFT_TYPE_LABELS, typeHrefs } from "~/features/market/filters/shared";
import type { ItemCardModel, PageInfo } from "~/features/market/market-views";
import { pageHrefs } from "~/features/market/paging";
import { backendProblem, publicApis } from "~/services/apis.server";
import { cardView } from "~/features/market/market-views.server";
import { canonicalView } from "~/features/market/market-urls.server";
import { collectionTerms } from "~/features/offers/collection-filter.server";

/**
 * A visitor's page (no cookie) is cached by its URL and the market's page generation (server/page-cache.ts, server.ts):
 * what this route renders for a visitor may depend on nothing else, and a page that sets a cookie is never kept.
 */
export async function marketPage(request: Request) {
  const { filter, notices: parseNotices } = parseMarketFilter(new URL(request.url).searchParams);
  const search = serializeMarketFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: MARKET_PATH, canonical: search, parseNotices });
  const here = marketHref(filter);
  let items: ItemCardModel[] = [];
  let problem: { message: string; status: number } | null = null;
  let info: PageInfo = { page: filter.page, pageSize: filter.pageSize, total: 0, capped: false };
  try {
    // The market is public: no token, so an expired session never gets in the way of browsing.
    const page = await publicApis().market.tradingMarket(toMarketQuery(filter));
    items = page.records.map((record) => cardView(record, here));
    info = { ...info, total: page.total, capped: page.totalCapped };
  } catch (error) {
    problem = backendProblem(error);
  }
  return json(
    {
      search,
      title: filter.nftType === undefined ? "Market" : `${NFT_TYPE_LABELS[filter.nftType]} · Market`,
      notices,
      items,
      info,
      problem: problem?.message ?? null,
      form: marketFormValues(filter),
      chips: filterChips(filter),
      typeHrefs: typeHrefs((nftType) => marketHref(withType(filter, nftType))),
      pageHrefs: pageHrefs(info, (page) => marketHref(withPage(filter, page))),
      // Issue 30: a view of one type takes a collection offer (the form is on the offers page; a plain link here).
      offerHref: collectionTerms(filter)?.offerHref ?? null,
    },
    { status: problem?.status ?? 200, headers },
  );
}
