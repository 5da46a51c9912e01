import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { FilterNotices, MarketProblem } from "~/features/market/filter-notices";
import { Pagination } from "~/features/market/pagination";
import { TradeTable } from "~/features/market/trade-table";
import { TypeLinks } from "~/features/market/type-links";
import { ServerHtml } from "~/components/server-html";
import { MarketPage } from "~/features/market/market-page";
import { Section } from "~/components/page";
import { NFT_TYPE_CODES, NFT_TYPE_LABELS, STATISTICS_PATH } from "~/features/market/filters/shared";
import { PERIODS, STAT_ENUM_KEYS, STAT_LEVELS, statEnum, type StatsFilter } from "~/features/market/filters/statistics";
import { CURRENCIES } from "~core/money";
import { statisticsPage } from "~/routes/marketplace.statistics/route.server";

export const loader = ({ request }: LoaderFunctionArgs) => statisticsPage(request);

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

export default function Statistics() {
  const { search, filter, notices, typeLinks, problem, top, activity, activityInfo, activityHrefs, chart } = useLoaderData<typeof loader>();
  const period = PERIODS[filter.period];
  return (
    <MarketPage title="Statistics" intro="Top NFTs and recent activity, by type, camp, rarity, PSE, EGSE, spaceship kind and level.">
      <FilterNotices notices={notices} />
      <TypeLinks label="Statistics by type" links={typeLinks} />
      <section aria-label="Filters" className="card">
        <StatsForm filter={filter} search={search} />
      </section>
      <MarketProblem message={problem} />
      {chart && (
        <Section title="Volume" id="volume">
          <ServerHtml markup={chart} />
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
            <Pagination info={activityInfo} hrefs={activityHrefs} />
          </div>
        )}
      </Section>
    </MarketPage>
  );
}
