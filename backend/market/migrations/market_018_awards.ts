import { type Kysely, sql } from "kysely";

/**
 * Awards paid on chain by the reward manager (issue 29, decision 0017): a rebate claimed is an award signed for the
 * inviter's wallet, kept with its state (0 signed, 1 sent, 2 paid, 3 expired and returned). Its id is its nonce, from
 * its own sequence (the reward manager's nonces are apart from the asset manager's). The rewards stream
 * (indexer/rewards.ts) keeps every AwardClaimed it applied with its block hash and what it changed, for reorgs.
 */
const AWARDS = [
  `create table market_awards (
    id integer primary key,
    account text not null,
    reason text not null,
    currency text not null,
    token text not null,
    amount text not null,
    deadline integer not null,
    chain_id integer not null,
    reward_manager text not null,
    claim_content text not null,
    signature text not null,
    status integer not null default 0,
    created_at integer not null,
    updated_at integer not null
  )`,
  `create index market_awards_account on market_awards (account, status)`,
  `create table market_reward_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    event text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_reward_events_block on market_reward_events (block_number)`,
  `insert into market_sequences (name, value) values ('award_nonce', 0)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of AWARDS) await sql.raw(statement).execute(db);
}
