import { type Kysely, sql } from "kysely";

/**
 * One alert per account and listing (issue 42): a listing that matches several of an account's watches is one alert
 * naming them all (market_watch_alert_watches), not one alert per watch. Existing alerts of one listing merge into
 * the oldest: read when all were read, pending mail when one was and none was mailed. Watches get the label the app
 * writes them with (its digest mail names a watch in words). SQLite rebuilds the table to drop `unique (watch_id,
 * listing_id)`; PostgreSQL (postgres.ts) alters it in place with the same statements around.
 */
const LINKS = [
  `create table market_watch_alert_watches (
    alert_id integer not null,
    watch_id integer not null,
    primary key (alert_id, watch_id)
  )`,
  `create index market_watch_alert_watches_watch on market_watch_alert_watches (watch_id, alert_id)`,
];

/** Each old alert's watch, linked to the oldest alert of its account and listing. */
export const LINK_OLD_ALERTS = `insert into market_watch_alert_watches (alert_id, watch_id)
  select (select min(b.id) from market_watch_alerts b where b.user_name = a.user_name and b.listing_id = a.listing_id), a.watch_id
  from market_watch_alerts a`;

/** The merged read and mail state of one account's alerts of one listing (grouped by user_name, listing_id). */
export const MERGED_STATE = `case when count(read_at) = count(*) then max(read_at) end as read_at,
  case when max(emailed_at) > 0 then max(emailed_at) when count(emailed_at) < count(*) then null else 0 end as emailed_at`;

export const WATCH_LABEL = (text: string) => `alter table market_watches add column label ${text} not null default ''`;

const INDEXES = [
  `create index market_watch_alerts_user on market_watch_alerts (user_name, id)`,
  `create index market_watch_alerts_unread on market_watch_alerts (user_name) where read_at is null`,
  `create index market_watch_alerts_unsent on market_watch_alerts (id) where emailed_at is null`,
];

const STATEMENTS = [
  ...LINKS,
  LINK_OLD_ALERTS,
  `create table market_watch_alerts_merged (
    id integer primary key,
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
    unique (user_name, listing_id)
  )`,
  `insert into market_watch_alerts_merged
    (id, user_name, listing_id, nft_type, token_id, name, price, currency, created_at, read_at, emailed_at)
    select min(id), user_name, listing_id, min(nft_type), min(token_id), min(name), min(price), min(currency), min(created_at),
      ${MERGED_STATE}
    from market_watch_alerts group by user_name, listing_id`,
  `drop table market_watch_alerts`,
  `alter table market_watch_alerts_merged rename to market_watch_alerts`,
  ...INDEXES,
  WATCH_LABEL("text"),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
