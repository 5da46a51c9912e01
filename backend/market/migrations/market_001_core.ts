import { type Kysely, sql } from "kysely";

/** Filter columns shared by items and listings (see tables.ts). */
export const ATTRIBUTE_COLUMNS = `
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

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of CORE) await sql.raw(statement).execute(db);
}
