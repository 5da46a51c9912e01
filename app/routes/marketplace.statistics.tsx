import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { FilterNotices, MarketProblem } from "~/components/market/filter-notices";
import { Pagination } from "~/components/market/pagination";
import { TradeTable } from "~/components/market/trade-table";
import { TypeLinks } from "~/components/market/type-links";
import { VolumeChart } from "~/components/market/volume-chart";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";
import { NFT_TYPE_CODES, NFT_TYPE_LABELS, STATISTICS_PATH } from "~/domain/filters/shared";
import {
  PERIODS,
  STAT_ENUM_KEYS,
  STAT_LEVELS,
  parseStatsFilter,
  serializeStatsFilter,
  statEnum,
  statsHref,
  toStatsQuery,
  type StatsFilter,
} from "~/domain/filters/statistics";
import { CURRENCIES } from "~core/money";
import { type NftTypeCode, NFT_TYPE } from "~core/nft";
import type { TradeRowModel } from "~/domain/market-views";
import { backendProblem, publicApis } from "~/services/apis.server";
import { tradeView } from "~/services/market-views.server";
import { canonicalView } from "./marketplace.shared.server";

/** The chart needs a few days to be a chart: one day shows the last week, all time the last 90 days. */
const CHART_DAYS = { "1d": 7, "7d": 7, "30d": 30, "90d": 90, all: 90 } as const;
const TOP_SIZE = 10;

export async function loader({ request }: LoaderFunctionArgs) {
  const { filter, notices: parseNotices } = parseStatsFilter(new URL(request.url).searchParams);
  const search = serializeStatsFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: STATISTICS_PATH, canonical: search, parseNotices });
  const here = statsHref(filter);
  const api = publicApis().market;
  const days = CHART_DAYS[filter.period];
  try {
    const [top, activity, volume] = await Promise.all([
      api.topNft(toStatsQuery({ ...filter, page: 1 }, TOP_SIZE)),
      api.activity(toStatsQuery(filter)),
      api.volume(days, filter.nftType),
    ]);
    const currency = filter.currency ?? "FIRE";
    return json(
      {
        search,
        notices,
        problem: null,
        top: top.records.map((trade, i) => tradeView(trade, i, here)),
        activity: activity.records.map((trade, i) => tradeView(trade, i, here)),
        activityInfo: { page: filter.page, pageSize: activity.pageSize, total: activity.total, capped: activity.totalCapped },
        chart: {
          currency,
          days,
          points: volume.series.map((day) => ({ date: day.date, trades: day.trades, volume: day.volume[currency] })),
        },
      },
      { headers },
    );
  } catch (error) {
    const problem = backendProblem(error);
    const none: TradeRowModel[] = [];
    return json(
      { search, notices, problem: problem.message, top: none, activity: none, activityInfo: null, chart: null },
      { status: problem.status, headers },
    );
  }
}

export const meta: MetaFunction = () => [{ title: "Statistics | Spark Era" }];

function Select({ name, label, value, options }: { name: string; label: string; value: string; options: [string, string][] }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`stats-${name}`} className="text-sm font-semibold text-white">
        {label}
      </label>
      <select id={`stats-${name}`} name={name} defaultValue={value} className="field-input py-1.5">
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}

/** product §3 statistics filters as one GET form: All or a type, camp, rarity, PSE, EGSE, spaceship kind, level 1–9. */
function StatsForm({ filter, search }: { filter: StatsFilter; search: string }) {
  const any = (label: string): [string, string] => ["", label];
  return (
    <Form
      method="get"
      action={STATISTICS_PATH}
      key={search}
      aria-label="Statistics filters"
      className="grid grid-cols-2 items-end gap-3 sm:grid-cols-3 lg:grid-cols-5"
    >
      <Select
        name="nftType"
        label="Type"
        value={filter.nftType === undefined ? "" : String(filter.nftType)}
        options={[any("All"), ...NFT_TYPE_CODES.map((code): [string, string] => [String(code), NFT_TYPE_LABELS[code]])]}
      />
      {STAT_ENUM_KEYS.map((key) => {
        const spec = statEnum(key);
        return (
          <Select
            key={key}
            name={key}
            label={spec.label}
            value={filter[key] === undefined ? "" : String(filter[key])}
            options={[any("Any"), ...Object.entries(spec.options)]}
          />
        );
      })}
      <Select
        name="level"
        label="Level"
        value={filter.level === undefined ? "" : String(filter.level)}
        options={[any("Any"), ...STAT_LEVELS.map((level): [string, string] => [String(level), `Level ${level}`])]}
      />
      <Select name="period" label="Period" value={filter.period} options={Object.entries(PERIODS)} />
      <Select
        name="currency"
        label="Currency"
        value={filter.currency ?? ""}
        options={[any("Any"), ...CURRENCIES.map((c): [string, string] => [c, c])]}
      />
      <div className="flex items-center gap-3">
        <button type="submit" className="btn-primary">
          Apply
        </button>
        <Link to={STATISTICS_PATH} className="text-sm">
          Reset
        </Link>
      </div>
    </Form>
  );
}

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

export default function Statistics() {
  const { search, notices, problem, top, activity, activityInfo, chart } = useLoaderData<typeof loader>();
  const { filter } = parseStatsFilter(new URLSearchParams(search));
  const period = PERIODS[filter.period];
  return (
    <MarketPage title="Statistics" intro="Top NFTs and recent activity, by type, camp, rarity, PSE, EGSE, spaceship kind and level.">
      <FilterNotices notices={notices} />
      <TypeLinks
        label="Statistics by type"
        allLabel="All"
        current={filter.nftType}
        hrefFor={(nftType) => statsHref(forType(filter, nftType))}
      />
      <section aria-label="Filters" className="card">
        <StatsForm filter={filter} search={search} />
      </section>
      <MarketProblem message={problem} />
      {chart && (
        <Section title="Volume" id="volume">
          <VolumeChart points={chart.points} currency={chart.currency} period={`Last ${chart.days} days`} />
        </Section>
      )}
      <Section title="Top NFTs" id="top">
        <p className="muted mb-3 text-sm">
          The highest-priced sales, {period.toLowerCase()}.
          {!filter.currency && " Prices rank within one currency only: choose a currency for a fair list."}
        </p>
        <TradeTable trades={top} caption="Top NFTs" empty="No sales match these filters in this period." />
      </Section>
      <Section title="Activity" id="activity">
        <p className="muted mb-3 text-sm">Every sale, newest first, {period.toLowerCase()}.</p>
        <TradeTable trades={activity} caption="Recent sales" empty="No sales match these filters in this period." />
        {activityInfo && (
          <div className="mt-3">
            <Pagination info={activityInfo} hrefFor={(page) => `${statsHref({ ...filter, page })}#activity-title`} />
          </div>
        )}
      </Section>
    </MarketPage>
  );
}
