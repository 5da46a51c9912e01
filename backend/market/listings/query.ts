/**
 * The listing query behind myStorage, selling, myFavorite, tradingMarket and getGameNft.
 *
 * Parameterised SQL built from whitelisted column names only, in two shapes:
 * - the market (tradingMarket) walks active listings, whose filter and sort columns are copies of the item's,
 *   along one access-path index in sort order and stops after one page (see accessPath and migrations/market_001_core.ts);
 * - wallet scopes (storage, game inventory, favorites, a seller's listings) start from the wallet's index,
 *   a small set, and sort it.
 * `total` is a count bounded by RESULT_WINDOW, so a broad filter over a million listings costs the same as
 * over ten thousand; deeper pages are refused by the schema.
 */
import type { Sql } from "../shared/db";
import type { Engine } from "../../db/sql";
import { LOCATION_NAMES, type Page, type ListingRecord } from "~core/api/market";
import { type ItemListingRow, toRecord } from "./records";
import { type ListingQuery } from "../shared/listing-schemas";
import { filterTerms } from "../shared/filter-terms";
import { RESULT_WINDOW } from "../shared/params";
import { NFT_TYPE, NFT_TYPES } from "~core/nft";
import { GRADE_COLUMNS } from "../shared/catalog";
import { CURRENCIES } from "~core/money";
import { LISTING_STANDARD } from "~core/trading";
import { byGeneration } from "../shared/generation-cache";

export type ListingScope =
  | { kind: "market"; seller?: string }
  | { kind: "owned"; owner: string; gameOnly: boolean }
  | { kind: "favorites"; address: string };

function inList(sql: Conditions, column: string, values: readonly unknown[]) {
  if (values.length === 1) {
    sql.where.push(`${column} = ?`);
  } else {
    sql.where.push(`${column} in (${values.map(() => "?").join(", ")})`);
  }
  sql.params.push(...values);
}

// A stack's chain listing sells part of it: its amount, apart from the item's own (i.amount).
const LISTING_COLUMNS = `l.id as listing_id, l.price, l.currency, l.listed_at, l.seller_address, l.venue,
  case when l.standard = ${LISTING_STANDARD.erc1155} then l.amount end as listed_amount`;

interface Conditions {
  where: string[];
  params: unknown[];
}

/**
 * The filter's terms (shared/filter-terms.ts) as SQL: attribute columns on alias `t`, price, currency and venue on the
 * listing alias `l`. Columns in `fixed` are left out: a market page walk already pins each of them to one of the
 * filter's values, and PostgreSQL would count the same restriction twice in its estimates.
 */
function addFilters(
  sql: Conditions,
  q: ListingQuery,
  t: string,
  useGrade: boolean,
  fixed: ReadonlySet<string> = new Set(),
): { usesListing: boolean } {
  let usesListing = false;
  for (const term of filterTerms(q, useGrade)) {
    if (term.listing) usesListing = true;
    if (fixed.has(term.column)) continue;
    const column = `${term.listing ? "l" : t}.${term.column}`;
    if (term.op === "in") inList(sql, column, term.values);
    else {
      sql.where.push(`${column} ${term.op} ?`);
      sql.params.push(term.value);
    }
  }
  return { usesListing };
}

/**
 * Amounts in different tokens do not compare, so a price sort groups listings by currency, A to Z (the order
 * the price indexes hold) whichever the direction, then sorts by price within each (issue 23). The market
 * page states this rule next to its sort control (PRICE_SORT_NOTE). The ORDER BY's leading term, for `column`.
 */
function currencyGroup(q: ListingQuery, column: string): string {
  return q.sort === "price" ? `${column}, ` : "";
}

/** ORDER BY for a seller's listings (listing alias l) and for wallet scopes (small sets); the market walks indexes instead. */
function orderBy(q: ListingQuery, scope: ListingScope): string {
  const dir = q.order === "asc" ? "asc" : "desc";
  const group = currencyGroup(q, "l.currency nulls last");
  if (scope.kind === "market") {
    const column = { price: "l.price", listed: "l.listed_at", views: "l.views", favorites: "l.favorites", total: "l.total" }[q.sort];
    return `${group}${column} ${dir}, l.id ${dir}`;
  }
  // Unlisted items have no price or listing time: they come after the listed ones either way.
  const column = {
    price: "l.price",
    listed: "l.listed_at",
    views: "i.views",
    favorites: "i.favorites",
    total: "i.total",
  }[q.sort];
  return `${group}${column} ${dir} nulls last, i.id ${dir}`;
}

function whereClause(sql: Conditions): string {
  return sql.where.length ? `where ${sql.where.join(" and ")}` : "";
}

export interface ListingSql {
  /** One page of rows (item columns plus the active listing's). */
  page: string;
  pageParams: unknown[];
  /** How many rows match, counting at most RESULT_WINDOW + 1. */
  count: string;
  countParams: unknown[];
}

const ALL_TYPES = Object.keys(NFT_TYPES).map(Number);

/** An index walked in sort order: one walk per combination of prefix values. */
interface AccessPath {
  index: string;
  prefix: [column: string, values: readonly unknown[]][];
  sortColumn: string;
}

/** The grade values a query filters on, when it names the type and filters that type's grade attribute. */
function gradeValues(q: ListingQuery): readonly number[] | undefined {
  if (q.nftType === undefined) return undefined;
  return q[GRADE_COLUMNS[q.nftType].filter];
}

/**
 * Picks the access path for the market (see migrations/market_001_core.ts): grade before camp before type alone. Price walks
 * always have the currency in their prefix, one walk per currency, so the merge can group by currency.
 */
function accessPath(q: ListingQuery): AccessPath {
  const type = q.nftType;
  const grades = gradeValues(q);
  const types = type === undefined ? ALL_TYPES : [type];
  const facet: [string, readonly unknown[]] | undefined =
    type === undefined ? undefined : grades ? ["grade", grades] : q.camp ? ["camp", q.camp] : undefined;
  if (q.sort === "price") {
    const currency: [string, readonly unknown[]] = ["currency", q.currency ? [q.currency] : CURRENCIES];
    if (facet)
      return { index: `market_listings_a_${facet[0]}_currency_price`, prefix: [["nft_type", types], facet, currency], sortColumn: "price" };
    return type === undefined
      ? { index: "market_listings_a_currency_price", prefix: [currency], sortColumn: "price" }
      : { index: "market_listings_a_type_price", prefix: [["nft_type", types], currency], sortColumn: "price" };
  }
  if (q.sort === "listed") {
    if (facet) return { index: `market_listings_a_${facet[0]}_listed`, prefix: [["nft_type", types], facet], sortColumn: "listed_at" };
    return type === undefined
      ? { index: "market_listings_a_listed", prefix: [], sortColumn: "listed_at" }
      : { index: "market_listings_a_type_listed", prefix: [["nft_type", types]], sortColumn: "listed_at" };
  }
  return { index: `market_listings_a_${q.sort}`, prefix: [["nft_type", types]], sortColumn: q.sort };
}

/** Every combination of the prefix values: [[col, value], …] per walk. */
function combinations(prefix: AccessPath["prefix"]): [string, unknown][][] {
  return prefix.reduce<[string, unknown][][]>(
    (acc, [column, values]) => acc.flatMap((combo) => values.map((value) => [...combo, [column, value] as [string, unknown]])),
    [[]],
  );
}

/**
 * Market page: each walk reads its index in order and stops once the merged page is full. SQLite merges the walks
 * of a UNION ALL under ORDER BY lazily; INDEXED BY pins the plan: the planner's statistics cannot see that price
 * follows grade, and a wrong guess costs a sort of every match. PostgreSQL does not merge walks whose order starts
 * with a column each walk pins (the currency of a price page), and would read and sort every match; there each walk
 * is cut to the rows a page could take from it (`limit offset + pageSize`, read in index order), and the few left
 * are sorted.
 */
function marketPageSql(q: ListingQuery, filters: Conditions, engine: Engine): { sql: string; params: unknown[] } {
  const path = accessPath(q);
  const dir = q.order === "asc" ? "asc" : "desc";
  const params: unknown[] = [];
  const rowsNeeded = q.pageNumber * q.pageSize;
  // A price page lists currency by currency: each walk has one currency, so the index answers this order too.
  const walks = combinations(path.prefix).map((combo) => {
    params.push(...combo.map(([, value]) => value), ...filters.params);
    const where = [...combo.map(([column]) => `l.${column} = ?`), ...filters.where];
    const walk = `select l.id as id, l.currency as currency, l.${path.sortColumn} as k from market_listings l ${indexHint(engine, path.index)} where ${where.join(" and ")}`;
    if (engine === "sqlite") return walk;
    params.push(rowsNeeded);
    return `(${walk} order by k ${dir}, id ${dir} limit ?)`;
  });
  params.push(q.pageSize, (q.pageNumber - 1) * q.pageSize);
  return {
    sql: `select i.*, ${LISTING_COLUMNS} from (select id, currency, k from (${walks.join(" union all ")}) w
      order by ${currencyGroup(q, "currency")}k ${dir}, id ${dir} limit ? offset ?) p
      join market_listings l on l.id = p.id join market_items i on i.id = l.item_id order by ${currencyGroup(q, "p.currency")}p.k ${dir}, p.id ${dir}`,
    params,
  };
}

/**
 * Pins the count of a typed market query to the covering facet index its filters lead into (see
 * migrations/market_001_core.ts); adds the every-grade list when the filters start after grade. Price ranges are left to
 * the planner: the price-led indexes cover them.
 */
function countIndex(q: ListingQuery, count: Conditions, engine: Engine): string {
  if (q.nftType === undefined || q.min.price !== undefined || q.max.price !== undefined) return "";
  if (gradeValues(q)) return indexHint(engine, "market_listings_a_facet_grade");
  if (q.camp) return indexHint(engine, "market_listings_a_facet_camp");
  if ((q.min.level ?? q.max.level ?? q.currency ?? q.min.total ?? q.max.total) !== undefined) {
    inList(count, "l.grade", GRADE_COLUMNS[q.nftType].codes);
    return indexHint(engine, "market_listings_a_facet_grade");
  }
  return "";
}

/**
 * SQLite's `indexed by`, which pins a plan its statistics would get wrong. PostgreSQL has no hints: its planner
 * keeps per-column statistics and chooses among the same indexes itself.
 */
function indexHint(engine: Engine, index: string): string {
  return engine === "sqlite" ? `indexed by ${index}` : "";
}

/** Sorting by stats only makes sense among the items that have them: spaceships. */
export function viewQuery(query: ListingQuery): ListingQuery {
  return query.sort === "total" && query.nftType === undefined ? { ...query, nftType: NFT_TYPE.spaceship } : query;
}

/**
 * A market view's filter on the listing alias `l`, whatever the listing's status: the numbers of a view
 * (stats/view-numbers.ts) read its sold listings through it, so a sale counts in exactly the views its listing was in.
 */
export function viewFilterSql(query: ListingQuery): { where: string[]; params: unknown[]; nftType: number | undefined } {
  const q = viewQuery(query);
  const sql: Conditions = { where: [], params: [] };
  addFilters(sql, q, "l", q.nftType !== undefined);
  return { ...sql, nftType: q.nftType };
}

/** A view's filter as values of the sale rollups' columns (shared/sale-days.ts); null when it filters on anything else. */
export type ViewFacets = Partial<Record<"nft_type" | "grade" | "camp" | "level", readonly number[]>> & { currency?: string };

export function viewFacets(query: ListingQuery): ViewFacets | null {
  const q = viewQuery(query);
  const facets: ViewFacets = {};
  for (const term of filterTerms(q, q.nftType !== undefined)) {
    if (term.op !== "in") return null;
    if (term.column === "currency") facets.currency = term.values[0] as string;
    else if (term.column === "nft_type" || term.column === "grade" || term.column === "camp" || term.column === "level") {
      facets[term.column] = term.values as number[];
    } else return null;
  }
  return facets;
}

/** The SQL of one listing query; exported so tests can check its plan. */
export function buildListingSql(scope: ListingScope, query: ListingQuery, engine: Engine = "sqlite"): ListingSql {
  const q = viewQuery(query);
  const sql: Conditions = { where: [], params: [] };
  if (scope.kind === "market") {
    sql.where.push("l.status = 0");
    if (scope.seller) {
      sql.where.push("l.seller_address = ?");
      sql.params.push(scope.seller);
    }
    addFilters(sql, q, "l", q.nftType !== undefined);
    const count: Conditions = { where: [...sql.where], params: [...sql.params] };
    const countSql = {
      count: `select count(*) as n from (select 1 from market_listings l ${countIndex(q, count, engine)} ${whereClause(count)} limit ?) counted`,
      countParams: [...count.params, RESULT_WINDOW + 1],
    };
    if (scope.seller) {
      // One wallet's listings: a small set behind the seller index.
      return {
        page: `select i.*, ${LISTING_COLUMNS} from market_listings l join market_items i on i.id = l.item_id ${whereClause(sql)}
          order by ${orderBy(q, scope)} limit ? offset ?`,
        pageParams: [...sql.params, q.pageSize, (q.pageNumber - 1) * q.pageSize],
        ...countSql,
      };
    }
    // The walks pin their access path's prefix columns; the page filters on the rest.
    const walkFilters: Conditions = { where: ["l.status = 0"], params: [] };
    addFilters(walkFilters, q, "l", q.nftType !== undefined, new Set(accessPath(q).prefix.map(([column]) => column)));
    const page = marketPageSql(q, walkFilters, engine);
    return { page: page.sql, pageParams: page.params, ...countSql };
  }

  if (scope.kind === "owned") {
    sql.where.push("i.owner_address = ?");
    sql.params.push(scope.owner);
    if (scope.gameOnly) sql.where.push("i.location = 0");
    else if (q.location) {
      sql.where.push("i.location = ?");
      sql.params.push(LOCATION_NAMES.indexOf(q.location));
    }
  } else {
    sql.where.push("f.address = ?");
    sql.params.push(scope.address);
  }
  const { usesListing } = addFilters(sql, q, "i", false);
  const favorites = scope.kind === "favorites" ? "market_favorites f join market_items i on i.id = f.item_id " : "market_items i ";
  const from = `${favorites}left join market_listings l on l.item_id = i.id and l.status = 0`;
  const where = whereClause(sql);
  return {
    page: `select i.*, ${LISTING_COLUMNS} from ${from} ${where} order by ${orderBy(q, scope)} limit ? offset ?`,
    pageParams: [...sql.params, q.pageSize, (q.pageNumber - 1) * q.pageSize],
    count: `select count(*) as n from (select 1 from ${usesListing ? from : favorites} ${where} limit ?) counted`,
    countParams: [...sql.params, RESULT_WINDOW + 1],
  };
}

/** A market count (it reads active listings only), kept while the market stands still (shared/generation-cache.ts). */
async function marketCount(db: Sql, sql: string, params: unknown[]): Promise<number> {
  return await byGeneration(db, `count\u0000${sql}\u0000${JSON.stringify(params)}`, 0, async () => ({
    value: (await db.get<{ n: number }>(sql, params))!.n,
  }));
}

export async function queryListings(db: Sql, scope: ListingScope, q: ListingQuery): Promise<Page<ListingRecord>> {
  const sql = buildListingSql(scope, q, db.engine);
  const rows = await db.all<ItemListingRow>(sql.page, sql.pageParams);
  const counted =
    scope.kind === "market"
      ? await marketCount(db, sql.count, sql.countParams)
      : (await db.get<{ n: number }>(sql.count, sql.countParams))!.n;
  const favoriteOf = scope.kind === "favorites" ? scope.address : q.address;
  const favorites = favoriteOf
    ? await favoriteSet(
        db,
        favoriteOf,
        rows.map((row) => row.id),
      )
    : undefined;
  return {
    records: rows.map((row) => toRecord(row, favorites ? favorites.has(row.id) : undefined)),
    total: Math.min(counted, RESULT_WINDOW),
    totalCapped: counted > RESULT_WINDOW,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
  };
}

/** Which of these items `address` has favorited. */
export async function favoriteSet(db: Sql, address: string, itemIds: readonly number[]): Promise<Set<number>> {
  if (!itemIds.length) return new Set();
  // One statement text per page size (bounded by the page size limit), the same on both engines.
  const rows = await db.all<{ item_id: number }>(
    `select item_id from market_favorites where address = ? and item_id in (${itemIds.map(() => "?").join(", ")})`,
    [address, ...itemIds],
  );
  return new Set(rows.map((row) => row.item_id));
}

/** One item with its active listing joined in. */
export async function itemWithListing(db: Sql, itemId: number): Promise<ItemListingRow | undefined> {
  return await db.get<ItemListingRow>(
    `select i.*, ${LISTING_COLUMNS} from market_items i
     left join market_listings l on l.item_id = i.id and l.status = 0 where i.id = ?`,
    [itemId],
  );
}

/**
 * Listings whose signed expiry has passed leave the market, so the market query never has to test expiry
 * row by row (that would defeat the index-only count). Cheap when there is nothing to do: one probe of a
 * partial index.
 */
export async function hasExpiredListings(db: Sql, nowSeconds: number): Promise<boolean> {
  return !!(await db.get("select 1 from market_listings where status = 0 and expiry is not null and expiry <= ? limit 1", [nowSeconds]));
}

/**
 * In-game items of `owner` (or, without one, the one item `itemId`) that pass a listing filter's item conditions: the
 * market's own filter rule (addFilters), which a collection offer (offers/offer-terms.ts) covers. Price, currency and
 * venue are listing conditions, never part of such a filter.
 */
export async function itemsMatching(
  db: Sql,
  q: ListingQuery,
  where: { itemId: number } | { owner: string },
  limit: number,
  location = 0,
): Promise<ItemListingRow[]> {
  const sql: Conditions = { where: ["i.location = ?"], params: [location] };
  if ("itemId" in where) {
    sql.where.push("i.id = ?");
    sql.params.push(where.itemId);
  } else {
    sql.where.push("i.owner_address = ?");
    sql.params.push(where.owner);
  }
  addFilters(sql, q, "i", false);
  return await db.all<ItemListingRow>(
    `select i.*, ${LISTING_COLUMNS} from market_items i left join market_listings l on l.item_id = i.id and l.status = 0
     ${whereClause(sql)} order by i.id limit ?`,
    [...sql.params, limit],
  );
}
