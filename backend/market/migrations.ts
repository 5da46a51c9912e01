import { sql } from "kysely";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import type { Migration } from "../db/migrate";

/** Filter columns shared by items and listings (see tables.ts). */
const ATTRIBUTE_COLUMNS = `
  camp integer, rarity integer, identity integer, profession integer, material integer, level integer,
  pse_type integer, egse_type integer, egg_type integer, spaceship_type integer,
  equipment_type integer, equipment_code integer, box_type integer,
  endurance integer, agility integer, pisonic integer, strength integer, crit integer, spirit integer,
  armor integer, total integer`;

/**
 * Index design of the market (docs/api/market.md, "Indexes"):
 * - Active listings are indexed by partial indexes (`where status = 0`), so sold and cancelled history never
 *   weighs on the market query.
 * - A market page is answered by walking one "access path" index in sort order: an equality prefix
 *   (nft_type, then the type's grade or the camp when filtered, or the currency for price) followed by the
 *   sort key. A multi-value prefix (rarity=2,3) becomes one walk per value, merged lazily by SQLite
 *   (UNION ALL … ORDER BY … LIMIT): each walk stops as soon as the page is full, whatever the table size.
 * - `grade` is a copy of the one attribute that ranks items of a type (rarity, rank, PSE/EGSE/egg/box type,
 *   equipment type, material; -1 when unset): price correlates with it, so it must lead the index rather
 *   than be filtered.
 * - Two covering facet indexes answer the bounded count of `total` without reading rows. A count that does
 *   not filter on grade lists every grade of the type, so the grade-led index still seeks straight to the
 *   level range (a skip-scan written out).
 * - Storage, favorites and game inventory are per wallet: one index on the owner bounds them.
 */
const CORE = [
  `create table market_items (
    id integer primary key,
    nft_type integer not null,
    token_id text not null,
    owner_address text not null,
    location integer not null default 0,
    name text not null,
    image text not null,
    amount integer not null default 1,
    ${ATTRIBUTE_COLUMNS},
    attributes text not null default '[]',
    views integer not null default 0,
    favorites integer not null default 0,
    created_at integer not null,
    updated_at integer not null
  )`,
  `create unique index market_items_type_token on market_items (nft_type, token_id)`,
  `create index market_items_owner on market_items (owner_address, location, nft_type)`,

  `create table market_listings (
    id integer primary key,
    item_id integer not null references market_items (id),
    nft_type integer not null,
    token_id text not null,
    seller_address text not null,
    buyer_address text,
    price text not null check (length(price) = 78),
    currency text not null,
    status integer not null default 0,
    listed_at integer not null,
    closed_at integer,
    nonce text,
    expiry integer,
    signature text,
    buy_signature text,
    cancel_signature text,
    ${ATTRIBUTE_COLUMNS},
    grade integer not null default -1,
    views integer not null default 0,
    favorites integer not null default 0
  )`,
  // One active listing per item: a double sell fails here even if a check upstream were wrong.
  `create unique index market_listings_one_active on market_listings (item_id) where status = 0`,
  `create index market_listings_item on market_listings (item_id)`,
  `create index market_listings_a_expiry on market_listings (expiry) where status = 0 and expiry is not null`,
  `create index market_listings_seller on market_listings (seller_address, status, listed_at)`,
  // Access paths over active listings: equality prefix, then the sort key (see above).
  `create index market_listings_a_listed on market_listings (listed_at) where status = 0`,
  `create index market_listings_a_type_listed on market_listings (nft_type, listed_at) where status = 0`,
  `create index market_listings_a_grade_listed on market_listings (nft_type, grade, listed_at) where status = 0`,
  `create index market_listings_a_camp_listed on market_listings (nft_type, camp, listed_at) where status = 0`,
  `create index market_listings_a_currency_price on market_listings (currency, price) where status = 0`,
  `create index market_listings_a_type_price on market_listings (nft_type, currency, price) where status = 0`,
  `create index market_listings_a_grade_price on market_listings (nft_type, grade, price) where status = 0`,
  `create index market_listings_a_camp_price on market_listings (nft_type, camp, price) where status = 0`,
  `create index market_listings_a_views on market_listings (nft_type, views) where status = 0`,
  `create index market_listings_a_favorites on market_listings (nft_type, favorites) where status = 0`,
  `create index market_listings_a_total on market_listings (nft_type, total) where status = 0`,
  // Covering indexes that count the common filters without reading rows: one led by grade, one by camp.
  `create index market_listings_a_facet_grade on market_listings (nft_type, grade, level, camp, currency, total) where status = 0`,
  `create index market_listings_a_facet_camp on market_listings (nft_type, camp, level, grade, currency) where status = 0`,

  `create table market_activity (
    id integer primary key,
    kind integer not null,
    item_id integer not null references market_items (id),
    listing_id integer references market_listings (id),
    nft_type integer not null,
    token_id text not null,
    from_address text not null,
    to_address text,
    price text not null check (length(price) = 78),
    currency text not null,
    at integer not null,
    camp integer, rarity integer, level integer, pse_type integer, egse_type integer, spaceship_type integer
  )`,
  `create index market_activity_kind_at on market_activity (kind, at)`,
  `create index market_activity_kind_type_at on market_activity (kind, nft_type, at)`,
  `create index market_activity_item on market_activity (item_id, at)`,

  `create table market_daily_volume (
    day text not null,
    nft_type integer not null,
    currency text not null,
    volume text not null,
    trades integer not null,
    primary key (day, nft_type, currency)
  ) without rowid`,

  `create table market_balances (
    address text not null,
    currency text not null,
    amount text not null,
    primary key (address, currency)
  ) without rowid`,

  `create table market_favorites (
    address text not null,
    item_id integer not null references market_items (id),
    created_at integer not null,
    primary key (address, item_id)
  ) without rowid`,
  `create index market_favorites_item on market_favorites (item_id)`,

  `create table market_views (
    item_id integer not null references market_items (id),
    visitor text not null,
    day text not null,
    primary key (item_id, visitor, day)
  ) without rowid`,

  `create table market_invite_codes (
    code text primary key,
    address text not null unique,
    created_at integer not null
  ) without rowid`,
  `create table market_invites (
    invitee_address text primary key,
    inviter_address text not null,
    code text not null references market_invite_codes (code),
    created_at integer not null
  ) without rowid`,
  `create index market_invites_inviter on market_invites (inviter_address)`,
  `create table market_rebates (
    id integer primary key,
    address text not null,
    invitee_address text not null,
    activity_id integer not null references market_activity (id),
    currency text not null,
    amount text not null,
    created_at integer not null
  )`,
  `create index market_rebates_address on market_rebates (address, created_at)`,
  `create table market_rebate_balances (
    address text not null,
    currency text not null,
    earned text not null,
    claimed text not null,
    primary key (address, currency)
  ) without rowid`,

  `create table market_claims (
    id integer primary key,
    account text not null,
    kind integer not null,
    asset text not null,
    currency text,
    item_id integer references market_items (id),
    id_or_amount text not null,
    deadline integer not null,
    chain_id integer not null,
    asset_manager text not null,
    claim_content text not null,
    signature text not null,
    status integer not null default 0,
    created_at integer not null,
    updated_at integer not null
  )`,
  `create index market_claims_account on market_claims (account, status)`,
];

/** Signed orders: each (signer, nonce) is spent once; a per-wallet counter cancels all older listings. */
const ORDERS = [
  `create table market_used_nonces (
    signer text not null,
    nonce text not null,
    kind text not null,
    used_at integer not null,
    primary key (signer, nonce)
  ) without rowid`,
  `create table market_order_counters (
    address text primary key,
    counter integer not null default 0
  ) without rowid`,
];

/** Columns a market count can depend on: everything but the views and favorites counters. */
const COUNTED_LISTING_COLUMNS = [
  "item_id",
  "nft_type",
  "status",
  "price",
  "currency",
  "grade",
  ...[...ATTRIBUTE_COLUMNS.matchAll(/(\w+) integer/g)].map((m) => m[1]),
];

/**
 * A generation number that every change to the set of active listings (or to what they are filtered by)
 * moves on, kept by triggers so that no writer can forget it: the market's count cache is valid while it
 * stands still (query.ts). View and favorite counters do not move it.
 */
const LISTING_GENERATION = [
  `create table market_listing_generation (id integer primary key check (id = 1), value integer not null)`,
  `insert into market_listing_generation (id, value) values (1, 0)`,
  ...[
    ["insert", "after insert on market_listings"],
    ["delete", "after delete on market_listings"],
    ["update", `after update of ${COUNTED_LISTING_COLUMNS.join(", ")} on market_listings`],
  ].map(
    ([name, when]) =>
      `create trigger market_listing_generation_${name} ${when} begin update market_listing_generation set value = value + 1 where id = 1; end`,
  ),
];

/** The chain indexer's cursors: per stream of followed events, the last block applied, moved with the writes it covers. */
const CHAIN_CURSORS = `create table market_chain_cursors (
  stream text primary key,
  block integer not null,
  updated_at integer not null
) without rowid`;

/**
 * The bridge stream (indexer/bridge.ts): every asset manager event applied to the game, with the block hash it was
 * applied at and what it did, so a reorg can take it back; and the hash of the block a cursor stands on.
 */
const BRIDGE_EVENTS = [
  `create table market_bridge_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    event text not null check (event in ('claimed', 'swapped')),
    account text not null,
    kind integer not null,
    asset text not null,
    id_or_amount text not null,
    ref text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_bridge_events_block on market_bridge_events (block_number)`,
  `alter table market_chain_cursors add column block_hash text`,
];

/**
 * Game-issued ids leave the chain's range for GAME_TOKEN_ID_BASE + the item's row id (one sequence over all types),
 * in the items' names ("… #<id>") and in the listing and activity copies too. Every item so far is game-issued:
 * nothing read the chain before. Signed claims keep the id they were signed for.
 */
const GAME_TOKEN_IDS = [
  `update market_items set
     name = case when substr(name, -length(token_id) - 1) = '#' || token_id
       then substr(name, 1, length(name) - length(token_id)) || (${GAME_TOKEN_ID_BASE} + id) else name end,
     token_id = cast(${GAME_TOKEN_ID_BASE} + id as text)
   where cast(token_id as integer) < ${GAME_TOKEN_ID_BASE}`,
  ...["market_listings", "market_activity"].map(
    (table) => `update ${table} set token_id = (select i.token_id from market_items i where i.id = ${table}.item_id)`,
  ),
];

/**
 * The materials stream (indexer/materials.ts): every StarshipManager MaterialsSentToGame event applied, with the
 * block hash it was applied at and the stacks it made, so a reorg can take them back. Amounts are whole units.
 */
const MATERIALS_EVENTS = [
  `create table market_materials_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    owner text not null,
    dark_iron text not null,
    silver text not null,
    gold text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_materials_events_block on market_materials_events (block_number)`,
];

/**
 * The transfers stream's fork check (indexer/indexer.ts): each item keeps the block of the transfer the stream last
 * applied to it, so after a reorg the items written in blocks that may have vanished are found and read again from
 * the chain. Null for an item the stream never wrote (game items, stacks) or wrote before this column.
 */
const ITEM_CHAIN_BLOCK = [
  `alter table market_items add column chain_block integer`,
  `create index market_items_chain_block on market_items (chain_block) where chain_block is not null`,
];

/**
 * The market pages' generation: moves on every change to what a market page shows of what is on sale. Unlike the
 * listing generation above it also moves with the view and favorite counters (the item cards show them) and with any
 * change to an item while it is listed. The app's page cache for visitors (server/page-cache.ts) keys market pages by
 * it, so a cached page is always the page the market would render now.
 */
const PAGE_GENERATION = [
  `create table market_page_generation (id integer primary key check (id = 1), value integer not null)`,
  `insert into market_page_generation (id, value) values (1, 0)`,
  ...[
    ["listing_insert", "after insert on market_listings"],
    ["listing_delete", "after delete on market_listings"],
    ["listing_update", "after update on market_listings"],
    ["item_update", "after update on market_items when exists (select 1 from market_listings where item_id = new.id and status = 0)"],
  ].map(
    ([name, when]) =>
      `create trigger market_page_generation_${name} ${when} begin update market_page_generation set value = value + 1 where id = 1; end`,
  ),
];

export const marketMigrations: Migration[] = [
  {
    name: "market_001_core",
    async up(db) {
      for (const statement of CORE) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_002_signed_orders",
    async up(db) {
      for (const statement of ORDERS) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_003_currency_price_paths",
    async up(db) {
      await sql
        .raw(`create index market_listings_a_grade_currency_price on market_listings (nft_type, grade, currency, price) where status = 0`)
        .execute(db);
      await sql
        .raw(`create index market_listings_a_camp_currency_price on market_listings (nft_type, camp, currency, price) where status = 0`)
        .execute(db);
    },
  },
  {
    name: "market_004_listing_generation",
    async up(db) {
      for (const statement of LISTING_GENERATION) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_005_chain_cursors",
    async up(db) {
      await sql.raw(CHAIN_CURSORS).execute(db);
    },
  },
  {
    name: "market_006_game_token_ids",
    async up(db) {
      for (const statement of GAME_TOKEN_IDS) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_007_bridge_events",
    async up(db) {
      for (const statement of BRIDGE_EVENTS) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_008_claim_request_keys",
    async up(db) {
      await sql`alter table market_claims add column request_key text`.execute(db);
      await sql`create unique index market_claims_request_key on market_claims (account, request_key) where request_key is not null`.execute(
        db,
      );
    },
  },
  {
    name: "market_009_materials_events",
    async up(db) {
      for (const statement of MATERIALS_EVENTS) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_010_item_chain_block",
    async up(db) {
      for (const statement of ITEM_CHAIN_BLOCK) await sql.raw(statement).execute(db);
    },
  },
  {
    name: "market_011_page_generation",
    async up(db) {
      for (const statement of PAGE_GENERATION) await sql.raw(statement).execute(db);
    },
  },
  {
    // The time of the cursor's block: a pending claim is given back only once the chain is read past its deadline.
    name: "market_012_cursor_block_time",
    async up(db) {
      await sql`alter table market_chain_cursors add column block_time integer`.execute(db);
    },
  },
  {
    // A price sort groups by currency (issue 23), so it walks the (…, currency, price) paths only.
    name: "market_013_drop_price_paths_without_currency",
    async up(db) {
      await sql`drop index market_listings_a_grade_price`.execute(db);
      await sql`drop index market_listings_a_camp_price`.execute(db);
    },
  },
];
