import { type Kysely, sql } from "kysely";

/**
 * Watched searches and their alerts (issue 30, decision 0021). A watch keeps the market view it follows (`search`,
 * the view's canonical query, for its link) and the listing query it matches (`query`, JSON, with the watch's
 * currency and ceiling folded in). market_watch_keys indexes watches by the listing columns every match must equal
 * (nft type, currency, grade, level; -1 or '' for any), so a new listing reads only the watches it can match.
 */
export const WATCHES = [
  `create table market_watches (
    id integer primary key,
    user_name text not null,
    search text not null,
    query text not null,
    currency text,
    ceiling text,
    email_on integer not null default 1,
    seen_alert_id integer not null default 0,
    emailed_at integer,
    created_at integer not null
  )`,
  `create index market_watches_user on market_watches (user_name, id)`,
  `create table market_watch_keys (
    nft_type integer not null,
    currency text not null,
    grade integer not null,
    level integer not null,
    watch_id integer not null,
    primary key (nft_type, currency, grade, level, watch_id)
  )`,
  `create index market_watch_keys_watch on market_watch_keys (watch_id)`,
  `create table market_watch_alerts (
    id integer primary key,
    watch_id integer not null,
    user_name text not null,
    listing_id integer not null,
    nft_type integer not null,
    token_id text not null,
    name text not null,
    price text not null,
    currency text not null,
    created_at integer not null,
    read_at integer,
    emailed_at integer,
    unique (watch_id, listing_id)
  )`,
  `create index market_watch_alerts_user on market_watch_alerts (user_name, id)`,
  `create index market_watch_alerts_unread on market_watch_alerts (user_name) where read_at is null`,
  `create index market_watch_alerts_unsent on market_watch_alerts (id) where emailed_at is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of WATCHES) await sql.raw(statement).execute(db);
}
