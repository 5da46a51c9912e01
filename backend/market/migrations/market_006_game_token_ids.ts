import { type Kysely, sql } from "kysely";
import { GAME_TOKEN_ID_BASE } from "~core/constants";

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

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of GAME_TOKEN_IDS) await sql.raw(statement).execute(db);
}
