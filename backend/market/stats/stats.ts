/** Market statistics: top sales, the activity feed and daily volume per currency. */
import { NFT_TYPE } from "~core/nft";
import { tokenUriFor } from "../shared/catalog";
import type { Sql } from "../shared/db";
import { utcDay } from "../shared/sale-days";
import { CURRENCIES, type Currency } from "~core/money";
import { readWei } from "../shared/money";
import { ACTIVITY_EVENTS, type Page, type TradeRecord, type VolumeSeries } from "~core/api/market";
import { RESULT_WINDOW } from "../shared/params";
import { PERIODS, type StatisticsQuery } from "./stats-schemas";
import { ACTIVITY_KIND, type ActivityTable } from "../shared/tables";

const DAY = 86_400_000;

interface TradeRow extends ActivityTable {
  name: string;
  image: string;
  box_type: number | null;
}

function where(q: StatisticsQuery, kind: number, now: number) {
  const clauses = ["a.kind = ?"];
  const params: unknown[] = [kind];
  const days = PERIODS[q.period ?? "all"];
  if (days) {
    clauses.push("a.at >= ?");
    params.push(now - days * DAY);
  }
  const list = (column: string, values: readonly unknown[] | undefined) => {
    if (!values?.length) return;
    clauses.push(`${column} in (${values.map(() => "?").join(", ")})`);
    params.push(...values);
  };
  if (q.nftType !== undefined) list("a.nft_type", [q.nftType]);
  list("a.camp", q.camp);
  list("a.rarity", q.rarity);
  list("a.spaceship_type", q.rank);
  list("a.level", q.level);
  list(q.nftType === NFT_TYPE.egse ? "a.egse_type" : "a.pse_type", q.type);
  if (q.currency) list("a.currency", [q.currency]);
  return { sql: `where ${clauses.join(" and ")}`, params };
}

function toTrade(row: TradeRow): TradeRecord {
  return {
    event: ACTIVITY_EVENTS[row.kind],
    tokenId: row.token_id,
    nftType: row.nft_type,
    tokenURI: tokenUriFor(row.nft_type, row.token_id, row.box_type),
    name: row.name,
    image: row.image,
    price: readWei(row.price).toString(),
    currency: row.currency,
    sellerAddress: row.from_address,
    buyerAddress: row.to_address,
    at: new Date(row.at).toISOString(),
    camp: row.camp,
    rarity: row.rarity,
    level: row.level,
    pseType: row.pse_type,
    egseType: row.egse_type,
    rank: row.spaceship_type,
  };
}

async function page(db: Sql, q: StatisticsQuery, filter: { sql: string; params: unknown[] }, order: string): Promise<Page<TradeRecord>> {
  const rows = await db.all<TradeRow>(
    `select a.*, i.name, i.image, i.box_type from market_activity a join market_items i on i.id = a.item_id
     ${filter.sql} order by ${order} limit ? offset ?`,
    [...filter.params, q.pageSize, (q.pageNumber - 1) * q.pageSize],
  );
  const counted = (await db.get<{ n: number }>(
    `select count(*) as n from (select 1 from market_activity a ${filter.sql} limit ?) counted`,
    [...filter.params, RESULT_WINDOW + 1],
  ))!.n;
  return {
    records: rows.map(toTrade),
    total: Math.min(counted, RESULT_WINDOW),
    totalCapped: counted > RESULT_WINDOW,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
  };
}

/** The highest-priced sales of the period (default 7d), most expensive first; name a currency to compare like with like. */
export async function topNft(db: Sql, q: StatisticsQuery, now: number): Promise<Page<TradeRecord>> {
  return await page(
    db,
    { ...q, period: q.period ?? "7d" },
    where({ ...q, period: q.period ?? "7d" }, ACTIVITY_KIND.sale, now),
    "a.price desc, a.id desc",
  );
}

/** Recent sales (default period: all), newest first. */
export async function recentActivity(db: Sql, q: StatisticsQuery, now: number): Promise<Page<TradeRecord>> {
  return await page(db, q, where(q, ACTIVITY_KIND.sale, now), "a.at desc, a.id desc");
}

/** Daily sale volume per currency over the last `days` UTC days (today included), zero-filled. */
export async function volumeSeries(db: Sql, days: number, nftType: number | undefined, now: number): Promise<VolumeSeries> {
  const from = utcDay(now - (days - 1) * DAY);
  const rows = await db.all<{ day: string; currency: Currency; volume: string; trades: number }>(
    `select day, currency, volume, trades from market_daily_volume where day >= ? ${nftType === undefined ? "" : "and nft_type = ?"}`,
    nftType === undefined ? [from] : [from, nftType],
  );
  const zero = () => Object.fromEntries(CURRENCIES.map((c) => [c, 0n])) as Record<Currency, bigint>;
  const byDay = new Map<string, { trades: number; volume: Record<Currency, bigint> }>();
  for (let i = days - 1; i >= 0; i--) byDay.set(utcDay(now - i * DAY), { trades: 0, volume: zero() });
  const totals = { trades: 0, volume: zero() };
  for (const row of rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    day.trades += row.trades;
    day.volume[row.currency] += readWei(row.volume);
    totals.trades += row.trades;
    totals.volume[row.currency] += readWei(row.volume);
  }
  const strings = (volume: Record<Currency, bigint>) =>
    Object.fromEntries(CURRENCIES.map((c) => [c, volume[c].toString()])) as Record<Currency, string>;
  return {
    days,
    nftType: nftType ?? null,
    series: [...byDay].map(([date, day]) => ({ date, trades: day.trades, volume: strings(day.volume) })),
    totals: { trades: totals.trades, volume: strings(totals.volume) },
  };
}
