/**
 * Watched searches and their alerts (issue 30 part 1, decision 0021; docs/api/market.md "Watched searches").
 *
 * A watch is a market view (its listing query) with an optional currency and price ceiling folded in as the
 * filter's own `currency` and `max[price]`. When a listing is written (trades/trades.ts sell, listings/chain-listings.ts chainSell),
 * `alertWatches` reads the watches that could match through market_watch_keys (nft type, currency, grade and level,
 * each exact or "any"), then tests each with the market's own filter terms (shared/filter-terms.ts), and stores one alert per
 * account with a matching watch, linked to each of its watches that matched (issue 42). Price changes are new listings
 * here (a listing's price is signed; re-pricing is cancel and list again), so a price falling under a ceiling is a
 * new listing that matches.
 */
import { CEILING_CURRENCY_MESSAGE } from "~core/api/watches";
import { ApiError } from "../../http";
import { NFT_TYPE } from "~core/nft";
import type { Sql } from "../shared/db";
import { type FilterTerm, filterTerms, matchesTerms } from "../shared/filter-terms";
import { listingQuerySchema } from "../shared/listing-schemas";
import type { ListingRow } from "../shared/items";

/** Watches one account may keep: bounds what one listing can cost to match. */
export const MAX_WATCHES = 50;
/** Alerts the inbox shows, newest first. */
export const INBOX_SIZE = 50;

export const WATCH_MSG = {
  tooMany: `You can watch at most ${MAX_WATCHES} searches. Remove one to watch another.`,
  already: "You already watch this search",
  notFound: "Watch not found",
  badLink: "This unsubscribe link is not valid. Use the link in the email as it came, or sign in to manage your watched searches.",
  currencyClash: (currency: string) => `This view shows ${currency} listings only: choose ${currency} or any currency`,
  ceilingCurrency: CEILING_CURRENCY_MESSAGE,
  ceilingBelowView: "The ceiling is under this view's lowest price",
} as const;

export interface WatchInput {
  search: string;
  /** The view in words (the app's search label), for the digest mail. */
  label: string;
  query: Record<string, unknown>;
  currency?: string;
  ceiling?: bigint;
}

export interface WatchRow {
  id: number;
  user_name: string;
  search: string;
  label: string;
  query: string;
  currency: string | null;
  ceiling: string | null;
  email_on: number;
  seen_alert_id: number;
  emailed_at: number | null;
  created_at: number;
}

export interface AlertRow {
  id: number;
  user_name: string;
  listing_id: number;
  nft_type: number;
  token_id: string;
  name: string;
  price: string;
  currency: string;
  created_at: number;
  read_at: number | null;
  emailed_at: number | null;
}

/** A watch an alert matched, as the inbox names it. */
export type AlertWatch = Pick<WatchRow, "id" | "search" | "label" | "currency" | "ceiling">;

/** The view's parameters that filter (paging, sort and the caller's own address do not). */
const IGNORED = new Set(["pageNumber", "pageSize", "sort", "order", "address", "location"]);

/**
 * The listing query a watch matches, as JSON text tradingMarket's schema reads: the view's filter with the watch's
 * currency and ceiling folded in. Throws a 400 naming the field when they contradict the view.
 */
export function watchQuery(input: Omit<WatchInput, "label">): string {
  // A list may come as an array (a JSON body) or as the comma text of the market's query string: the query keeps the text.
  const raw: Record<string, unknown> = Object.fromEntries(
    Object.entries(input.query)
      .filter(([key]) => !IGNORED.has(key))
      .map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : value]),
  );
  // The market shows stat sorts among spaceships only (listings/query.ts): such a view is a spaceship view.
  if (input.query.sort === "total" && raw.nftType === undefined) raw.nftType = NFT_TYPE.spaceship;
  const view = listingQuerySchema.safeParse(raw);
  if (!view.success) {
    const issue = view.error.issues[0];
    throw new ApiError(400, `query.${issue.path.join(".")}: ${issue.message}`);
  }
  if (input.ceiling !== undefined && !input.currency) throw new ApiError(400, `currency: ${WATCH_MSG.ceilingCurrency}`);
  if (input.currency) {
    if (view.data.currency && view.data.currency !== input.currency) {
      throw new ApiError(400, `currency: ${WATCH_MSG.currencyClash(view.data.currency)}`);
    }
    raw.currency = input.currency;
  }
  if (input.ceiling !== undefined) {
    const { min, max } = view.data;
    if (min.price !== undefined && input.ceiling < min.price) throw new ApiError(400, `ceiling: ${WATCH_MSG.ceilingBelowView}`);
    const ceiling = max.price !== undefined && max.price < input.ceiling ? max.price : input.ceiling;
    raw.max = { ...(raw.max as Record<string, unknown> | undefined), price: ceiling.toString() };
  }
  return JSON.stringify(raw);
}

/** Parsed terms by query text: a watch never changes its query, so its text names its terms for good. */
const termsCache = new Map<string, FilterTerm[]>();
const TERMS_CACHE_MAX = 100_000;

/** A watch's filter terms, read as the market reads a listing query (grade-led when the type is named). */
export function watchTerms(query: string): FilterTerm[] {
  let terms = termsCache.get(query);
  if (!terms) {
    const q = listingQuerySchema.parse(JSON.parse(query));
    terms = filterTerms(q, q.nftType !== undefined);
    if (termsCache.size >= TERMS_CACHE_MAX) termsCache.clear();
    termsCache.set(query, terms);
  }
  return terms;
}

const ANY_NUMBER = -1;
const ANY_TEXT = "";

/**
 * The index keys of a watch: every (nft type, currency, grade, level) a listing it matches may have, "any" where
 * unpinned. A level range is pinned when the market reads it as a list of levels (shared/filter-terms.ts).
 */
export function watchKeys(terms: readonly FilterTerm[]): { nftType: number; currency: string; grade: number; level: number }[] {
  const valuesOf = (column: string) => {
    const term = terms.find((t) => t.column === column && t.op === "in");
    return term?.op === "in" ? term.values : undefined;
  };
  const nftTypes = (valuesOf("nft_type") as number[] | undefined) ?? [ANY_NUMBER];
  const currencies = (valuesOf("currency") as string[] | undefined) ?? [ANY_TEXT];
  const grades = (valuesOf("grade") as number[] | undefined) ?? [ANY_NUMBER];
  const levels = (valuesOf("level") as number[] | undefined) ?? [ANY_NUMBER];
  return nftTypes.flatMap((nftType) =>
    currencies.flatMap((currency) => grades.flatMap((grade) => levels.map((level) => ({ nftType, currency, grade, level })))),
  );
}

/**
 * Stores a watch, in the caller's write transaction: at most MAX_WATCHES per account, never the same one twice. Both
 * rules count or look before the insert, so the account is locked first (decision 0031): its adds run one after
 * another on every process, each counting the ones committed before it.
 */
export async function addWatch(db: Sql, userName: string, input: WatchInput, now: number): Promise<WatchRow> {
  const query = watchQuery(input);
  await db.lockSubject(`market_watches:${userName}`);
  const count = (await db.get<{ n: number }>("select count(*) as n from market_watches where user_name = ?", [userName]))!.n;
  if (count >= MAX_WATCHES) throw new ApiError(409, WATCH_MSG.tooMany);
  const ceiling = input.ceiling?.toString() ?? null;
  const currency = input.currency ?? null;
  const same = await db.get(
    `select 1 from market_watches where user_name = ? and search = ? and coalesce(currency, '') = ? and coalesce(ceiling, '') = ?`,
    [userName, input.search, currency ?? "", ceiling ?? ""],
  );
  if (same) throw new ApiError(409, WATCH_MSG.already);
  // Alerts before the watch existed are not new to it.
  const last = (await db.get<{ id: number | null }>("select max(id) as id from market_watch_alerts"))!.id ?? 0;
  const row = (await db.get<WatchRow>(
    `insert into market_watches (user_name, search, label, query, currency, ceiling, seen_alert_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?) returning *`,
    [userName, input.search, input.label, query, currency, ceiling, last, now],
  ))!;
  for (const key of watchKeys(watchTerms(query))) {
    await db.run("insert into market_watch_keys (nft_type, currency, grade, level, watch_id) values (?, ?, ?, ?, ?)", [
      key.nftType,
      key.currency,
      key.grade,
      key.level,
      row.id,
    ]);
  }
  return row;
}

async function ownWatch(db: Sql, userName: string, id: number): Promise<WatchRow> {
  const row = await db.get<WatchRow>("select * from market_watches where id = ?", [id]);
  if (!row || row.user_name !== userName) throw new ApiError(404, WATCH_MSG.notFound);
  return row;
}

export async function removeWatch(db: Sql, userName: string, id: number): Promise<void> {
  await ownWatch(db, userName, id);
  await db.run("delete from market_watch_keys where watch_id = ?", [id]);
  // An alert goes with the last of the watches it matched.
  await db.run(
    `delete from market_watch_alerts where id in (select alert_id from market_watch_alert_watches where watch_id = ?)
     and not exists (select 1 from market_watch_alert_watches l where l.alert_id = market_watch_alerts.id and l.watch_id <> ?)`,
    [id, id],
  );
  await db.run("delete from market_watch_alert_watches where watch_id = ?", [id]);
  await db.run("delete from market_watches where id = ?", [id]);
}

/** The account's watches, newest first, each with its alerts since the list was last opened. */
export async function listWatches(db: Sql, userName: string): Promise<(WatchRow & { fresh: number })[]> {
  return await db.all<WatchRow & { fresh: number }>(
    `select w.*, (select count(*) from market_watch_alert_watches l where l.watch_id = w.id and l.alert_id > w.seen_alert_id) as fresh
     from market_watches w where w.user_name = ? order by w.id desc`,
    [userName],
  );
}

/** Opening the list is looking: every watch's alerts so far stop being new. */
export async function markWatchesSeen(db: Sql, userName: string): Promise<void> {
  await db.run(
    `update market_watches set seen_alert_id = coalesce((select max(l.alert_id) from market_watch_alert_watches l where l.watch_id = market_watches.id), seen_alert_id)
     where user_name = ?`,
    [userName],
  );
}

/** The inbox, newest first: each alert with the watches it matched, oldest watch first. */
export async function listAlerts(db: Sql, userName: string): Promise<(AlertRow & { watches: AlertWatch[] })[]> {
  const alerts = await db.all<AlertRow>("select * from market_watch_alerts where user_name = ? order by id desc limit ?", [
    userName,
    INBOX_SIZE,
  ]);
  if (!alerts.length) return [];
  const links = await db.all<AlertWatch & { alert_id: number }>(
    `select l.alert_id, w.id, w.search, w.label, w.currency, w.ceiling from market_watch_alert_watches l
     join market_watches w on w.id = l.watch_id
     where l.alert_id in (${alerts.map(() => "?").join(", ")}) order by w.id`,
    alerts.map((alert) => alert.id),
  );
  return alerts.map((alert) => ({
    ...alert,
    watches: links.filter((link) => link.alert_id === alert.id).map(({ alert_id: _alert, ...watch }) => watch),
  }));
}

export async function unreadAlerts(db: Sql, userName: string): Promise<number> {
  return (await db.get<{ n: number }>("select count(*) as n from market_watch_alerts where user_name = ? and read_at is null", [userName]))!
    .n;
}

/** Opening the inbox reads it: the header's count goes back to 0. */
export async function markAlertsRead(db: Sql, userName: string, now: number): Promise<void> {
  await db.run("update market_watch_alerts set read_at = ? where user_name = ? and read_at is null", [now, userName]);
}

/**
 * Stops a watch's emails (the watch and its inbox alerts stay); its unsent alerts that no watch with emails on
 * matched will never be sent.
 */
export async function unsubscribeWatch(db: Sql, id: number): Promise<WatchRow> {
  const row = await db.get<WatchRow>("select * from market_watches where id = ?", [id]);
  if (!row) throw new ApiError(404, WATCH_MSG.notFound);
  await db.run("update market_watches set email_on = 0 where id = ?", [id]);
  await db.run(
    `update market_watch_alerts set emailed_at = 0 where emailed_at is null
     and id in (select alert_id from market_watch_alert_watches where watch_id = ?)
     and not exists (select 1 from market_watch_alert_watches l join market_watches w on w.id = l.watch_id
                     where l.alert_id = market_watch_alerts.id and w.email_on = 1)`,
    [id],
  );
  return { ...row, email_on: 0 };
}

type MatchedListing = ListingRow & { name: string };
type Candidate = Pick<WatchRow, "id" | "user_name" | "query" | "email_on">;

/**
 * The watches a new active listing matches, except the seller's own when the seller's account is known: the index
 * keys name the candidates, the market's filter terms decide.
 */
export async function matchWatches(
  db: Sql,
  listingId: number,
  sellerUser?: string,
): Promise<{ listing: MatchedListing; watches: Candidate[] } | null> {
  const listing = await db.get<MatchedListing>(
    "select l.*, i.name from market_listings l join market_items i on i.id = l.item_id where l.id = ? and l.status = 0",
    [listingId],
  );
  if (!listing) return null;
  const candidates = await db.all<Candidate>(
    `select w.id, w.user_name, w.query, w.email_on from market_watch_keys k join market_watches w on w.id = k.watch_id
     where k.nft_type in (?, ${ANY_NUMBER}) and k.currency in (?, '${ANY_TEXT}') and k.grade in (?, ${ANY_NUMBER})
       and k.level in (?, ${ANY_NUMBER})`,
    [listing.nft_type, listing.currency, listing.grade, listing.level ?? ANY_NUMBER],
  );
  return {
    listing,
    watches: candidates.filter((watch) => watch.user_name !== sellerUser && matchesTerms(watchTerms(watch.query), listing)),
  };
}

/** Accounts (one alert row each, nine parameters) per statement, well under either engine's limit. */
const ALERT_BATCH = 500;
/** Alert-watch links per statement (two parameters each). */
const LINK_BATCH = 5000;

/**
 * One alert per account a matched watch belongs to, linked to each of its matched watches; answers the accounts
 * alerted. An alert already there (the listing matched again) gains the new links: the insert is an upsert on
 * (user_name, listing_id), so concurrent writers on PostgreSQL meet on the unique key, never on a count.
 */
export async function storeAlerts(db: Sql, listing: MatchedListing, watches: readonly Candidate[], now: number): Promise<number> {
  const price = BigInt(listing.price).toString();
  const byUser = new Map<string, Candidate[]>();
  for (const watch of watches) {
    const matched = byUser.get(watch.user_name);
    if (matched) matched.push(watch);
    else byUser.set(watch.user_name, [watch]);
  }
  const users = [...byUser.entries()];
  let stored = 0;
  for (let i = 0; i < users.length; i += ALERT_BATCH) {
    const batch = users.slice(i, i + ALERT_BATCH);
    const alerts = await db.all<{ id: number; user_name: string }>(
      `insert into market_watch_alerts (user_name, listing_id, nft_type, token_id, name, price, currency, created_at, emailed_at)
       values ${batch.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}
       on conflict (user_name, listing_id) do update set user_name = excluded.user_name returning id, user_name`,
      batch.flatMap(([userName, matched]) => [
        userName,
        listing.id,
        listing.nft_type,
        listing.token_id,
        listing.name,
        price,
        listing.currency,
        now,
        // Mailed with the first of its watches that mails; never when none of them does.
        matched.some((watch) => watch.email_on) ? null : 0,
      ]),
    );
    const links = alerts.flatMap((alert) => byUser.get(alert.user_name)!.map((watch) => [alert.id, watch.id]));
    for (let j = 0; j < links.length; j += LINK_BATCH) {
      const chunk = links.slice(j, j + LINK_BATCH);
      await db.run(
        `insert into market_watch_alert_watches (alert_id, watch_id) values ${chunk.map(() => "(?, ?)").join(", ")} on conflict do nothing`,
        chunk.flat(),
      );
    }
    stored += alerts.length;
  }
  return stored;
}

/** Matches a new active listing against the watches and stores their alerts, in the caller's write transaction. */
export async function alertWatches(db: Sql, listingId: number, now: number, sellerUser?: string): Promise<number> {
  const matched = await matchWatches(db, listingId, sellerUser);
  return matched?.watches.length ? await storeAlerts(db, matched.listing, matched.watches, now) : 0;
}
