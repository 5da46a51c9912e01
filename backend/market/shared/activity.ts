/**
 * What a trade leaves behind: the activity log (lists, cancels, sales, transfers), the daily volume the chart
 * reads, and the rebates a sale earns the parties' inviters. Each runs inside the trade's transaction.
 */
import type { Currency } from "~core/money";
import type { Sql } from "./db";
import type { ItemRow } from "./items";
import { padWei } from "./money";
import type { ActivityKind } from "./tables";
import { addToWei, weiSumSql } from "./wei-column";
import { addSaleDay, type SaleFacets, utcDay } from "./sale-days";
import { shardOf } from "./shards";
import { ACTIVITY_KIND } from "./tables";

/** Each party's inviter earns this share of a trade as a rebate (basis points), paid by the platform. */
export const REBATE_BPS = 100n;

export interface NewActivity {
  kind: ActivityKind;
  item: ItemRow;
  listingId: number | null;
  from: string;
  to?: string | null;
  price: bigint;
  currency: Currency;
  at: number;
  /** A sale's listing's columns its rollup cells are kept by, when the caller has them (else addSaleDay reads them). */
  facets?: SaleFacets;
}

export async function recordActivity(db: Sql, a: NewActivity): Promise<number> {
  const { item } = a;
  const row = await db.get<{ id: number }>(
    `insert into market_activity (kind, item_id, listing_id, nft_type, token_id, from_address, to_address, price, currency, at,
       camp, rarity, level, pse_type, egse_type, spaceship_type)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [
      a.kind,
      item.id,
      a.listingId,
      item.nft_type,
      item.token_id,
      a.from,
      a.to ?? null,
      padWei(a.price),
      a.currency,
      a.at,
      item.camp,
      item.rarity,
      item.level,
      item.pse_type,
      item.egse_type,
      item.spaceship_type,
    ],
  );
  // A view's numbers read days of sales from the rollups, kept in the sale's own transaction.
  if (a.kind === ACTIVITY_KIND.sale && a.listingId !== null) await addSaleDay(db, a.listingId, a.price, a.at, a.facets);
  return row!.id;
}

/** The upsert moving a day's volume row by a sale, by engine: one statement, adding in SQL (weiSumSql). */
const volumeSql = (engine: Sql["engine"]) =>
  `insert into market_daily_volume (day, nft_type, currency, shard, trades, volume) values (?, ?, ?, ?, ?, ?)
   on conflict (day, nft_type, currency, shard) do update set trades = market_daily_volume.trades + ?,
     volume = ${weiSumSql(engine, "market_daily_volume.volume", "excluded.volume")}`;

/**
 * Moves the day's volume row of the sale's listing's shard (decision 0034) by `trades` and `delta` wei, in one
 * statement; a new row starts at `fresh` trades.
 */
async function moveDailyVolume(
  db: Sql,
  at: number,
  nftType: number,
  currency: Currency,
  listingId: number | null,
  move: {
    fresh: number;
    trades: number;
    delta: bigint;
  },
): Promise<void> {
  await db.run(volumeSql(db.engine), [utcDay(at), nftType, currency, shardOf(listingId), move.fresh, move.delta.toString(), move.trades]);
}

/** Rolls a sale into the daily volume, so the volume chart reads days, not trades. */
export async function addDailyVolume(
  db: Sql,
  at: number,
  nftType: number,
  currency: Currency,
  price: bigint,
  listingId: number | null,
): Promise<void> {
  // In the sold listing's shard (decision 0034): sales of listings of different shards write different rows.
  await moveDailyVolume(db, at, nftType, currency, listingId, { fresh: 1, trades: 1, delta: price });
}

/**
 * Takes a sale back out of the daily volume (the trading stream's undo after a reorg), from its listing's shard. A
 * sale counted before the shards (market_029 / pg_0019: in shard 0) leaves its shard below zero and shard 0 above;
 * the day's sum, the only figure read, is exact either way.
 */
export async function removeDailyVolume(
  db: Sql,
  at: number,
  nftType: number,
  currency: Currency,
  price: bigint,
  listingId: number | null,
): Promise<void> {
  await moveDailyVolume(db, at, nftType, currency, listingId, { fresh: 0, trades: -1, delta: -price });
}

export async function creditRebate(db: Sql, address: string, currency: Currency, amount: bigint): Promise<void> {
  await addToWei(db, { table: "market_rebate_balances", column: "earned", key: { address, currency }, fresh: { claimed: "0" } }, amount);
}

/** Each trading party's inviter earns REBATE_BPS of the price. */
export async function accrueRebates(
  db: Sql,
  activityId: number,
  parties: readonly string[],
  currency: Currency,
  price: bigint,
  at: number,
): Promise<void> {
  const amount = (price * REBATE_BPS) / 10_000n;
  if (amount === 0n) return;
  // Both parties' inviters in one read; credited in the parties' order (buyer's inviter first, decision 0034 §4).
  const rows = await db.all<{ invitee_address: string; inviter_address: string }>(
    `select invitee_address, inviter_address from market_invites where invitee_address in (${parties.map(() => "?").join(", ")})`,
    parties,
  );
  const inviters = new Map(rows.map((row) => [row.invitee_address, row.inviter_address]));
  for (const party of parties) {
    const inviter = inviters.get(party);
    if (!inviter) continue;
    await db.run(
      `insert into market_rebates (address, invitee_address, activity_id, currency, amount, created_at)
       values (?, ?, ?, ?, ?, ?)`,
      [inviter, party, activityId, currency, amount.toString(), at],
    );
    await creditRebate(db, inviter, currency, amount);
  }
}
