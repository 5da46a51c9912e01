/**
 * What becomes of a signed claim (claims.ts issues them): paid on chain, as the indexer reads the asset manager's
 * events (indexer/bridge.ts), or lapsed past its deadline, when what it claimed comes back into the game, never twice
 * and, with a chain watched, only once the chain read past the deadline says it was not paid.
 */
import { zeroAddress } from "viem";
import { ApiError } from "../../http";
import type { MarketDb, Sql } from "../shared/db";
import { sameAddress } from "~core/address";
import { movesAsStack } from "~core/item-moves";
import { NFT_TYPE } from "~core/nft";
import type { ItemRow } from "../shared/items";
import { credit } from "../shared/ledger";
import { creditGameStack, takeFromStack } from "./stacks";
import { CLAIM_KIND, CLAIM_STATUS, type ClaimsTable, LOCATION } from "../shared/tables";
import type { Currency } from "~core/money";

/**
 * Without a chain to watch (a market backend with no indexer), a pending claim is given back to the game this long
 * after its deadline by the clock. With one, only the chain read past the deadline gives it back (settleExpiredClaims).
 */
export const CLAIM_EXPIRY_GRACE_SECONDS = 10 * 60;

/**
 * The asset manager's stream in market_chain_cursors: the indexer follows it (indexer/bridge.ts), and a claim's
 * expiry is judged by the chain time it has read.
 */
export const BRIDGE_STREAM = "asset-manager";

/**
 * A stack claim's amount back in the game (its claim expired unpaid): all of a stack that left whole is that stack
 * again; part of one goes back to the claimant's stack of that material (stacks.ts creditGameStack).
 */
async function returnStackClaim(tx: Sql, claim: ClaimsTable, now: number): Promise<void> {
  const item = await tx.get<ItemRow>("select * from market_items where id = ?", [claim.item_id]);
  if (!item || item.material === null) return;
  if (item.location === LOCATION.leaving && sameAddress(item.owner_address, claim.account)) {
    await tx.run("update market_items set location = ?, updated_at = ? where id = ?", [LOCATION.game, now, item.id]);
    return;
  }
  await creditGameStack(tx, claim.account, item.material, BigInt(claim.id_or_amount), `claim:${claim.id}`, now, item.id);
}

/**
 * The deadline (unix seconds) before which a signed claim or award of `stream` can no longer be paid: with a chain
 * watched, the time of the last block the stream applied (null before it applied one); without, the clock less
 * CLAIM_EXPIRY_GRACE_SECONDS.
 */
export async function expiryCutoff(db: MarketDb, stream: string, now: number, watched: boolean): Promise<number | null> {
  if (!watched) return Math.floor(now / 1000) - CLAIM_EXPIRY_GRACE_SECONDS;
  const cursor = await db.get<{ block_time: number | null }>("select block_time from market_chain_cursors where stream = ?", [stream]);
  return cursor?.block_time ?? null;
}

/**
 * Pending claims that can no longer be paid give their asset back to the game. Call while holding the connection.
 * With a chain watched (`watched`), a claim is given back only once the indexer has applied the asset manager's
 * events up to a block whose time is past the claim's deadline: a claim paid by then is marked claimed already, and
 * the contract refuses it in any later block. The clock alone would refund a claim paid on chain that the indexer
 * has not seen yet (a lagging or stalled indexer), and the asset would be paid twice. Without a chain, the clock
 * and a grace period decide.
 */
export async function settleExpiredClaims(db: MarketDb, now: number, watched: boolean): Promise<number> {
  const cutoff = await expiryCutoff(db, BRIDGE_STREAM, now, watched);
  if (cutoff === null) return 0;
  const expired = await db.all<ClaimsTable>("select * from market_claims where status = 0 and deadline < ?", [cutoff]);
  if (!expired.length) return 0;
  return db.write(async (tx) => {
    let settled = 0;
    for (const claim of expired) {
      // Only the writer that moves the claim from pending gives its asset back: never twice.
      const { changes } = await tx.run("update market_claims set status = ?, updated_at = ? where id = ? and status = 0", [
        CLAIM_STATUS.expired,
        now,
        claim.id,
      ]);
      if (changes !== 1) continue;
      settled++;
      if (claim.kind === CLAIM_KIND.token) await credit(tx, claim.account, claim.currency as Currency, BigInt(claim.id_or_amount));
      else if (claim.kind === CLAIM_KIND.item1155) await returnStackClaim(tx, claim, now);
      else await tx.run("update market_items set location = ?, updated_at = ? where id = ?", [LOCATION.game, now, claim.item_id]);
    }
    return settled;
  });
}

/** For the chain indexer: the asset manager executed claim `nonce`; an NFT is now on chain. */
export async function markClaimClaimed(db: Sql, nonce: number, now: number): Promise<void> {
  const claim = await db.get<ClaimsTable>("select * from market_claims where id = ?", [nonce]);
  if (!claim) throw new ApiError(404, "Claim not found");
  if (claim.status === CLAIM_STATUS.claimed) return;
  const { changes } = await db.run("update market_claims set status = ?, updated_at = ? where id = ? and status <> ?", [
    CLAIM_STATUS.claimed,
    now,
    nonce,
    CLAIM_STATUS.claimed,
  ]);
  if (changes === 1 && claim.kind === CLAIM_KIND.nft) {
    await db.run("update market_items set location = ?, updated_at = ? where id = ?", [LOCATION.chain, now, claim.item_id]);
  }
  if (changes === 1 && claim.kind === CLAIM_KIND.item1155) await stackClaimPaid(db, claim, now);
}

/**
 * A paid stack claim: a stack that left whole leaves storage (the amount now shows as the claimant's chain stack,
 * from the SparkItems stream), held by the zero address like a burnt token. Part of a stack left at signing.
 * Answers the stack's id when it moved it, for an undo.
 */
export async function stackClaimPaid(db: Sql, claim: ClaimsTable, now: number): Promise<number | null> {
  const { changes } = await db.run(
    "update market_items set owner_address = ?, location = ?, updated_at = ? where id = ? and location = ?",
    [zeroAddress, LOCATION.chain, now, claim.item_id, LOCATION.leaving],
  );
  return changes === 1 ? claim.item_id : null;
}

/**
 * A stack claim paid after it had expired (its transaction mined before the deadline, read late): its amount had
 * come back to the claimant's game stacks, so it leaves them again, from the stacks not on sale first. Answers what
 * was taken from which stack, for an undo.
 */
export async function retakeStackClaim(db: Sql, claim: ClaimsTable, now: number): Promise<{ itemId: number; amount: bigint }[]> {
  const item = await db.get<ItemRow>("select * from market_items where id = ?", [claim.item_id]);
  if (!item || item.material === null) return [];
  const stacks = await db.all<{ id: number; token_id: string }>(
    `select i.id, i.token_id from market_items i where i.owner_address = ? and i.nft_type = ? and i.material = ? and i.location = ?
     order by exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0), case when i.id = ? then 0 else 1 end, i.id`,
    [claim.account, NFT_TYPE.material, item.material, LOCATION.game, item.id],
  );
  const taken: { itemId: number; amount: bigint }[] = [];
  let left = BigInt(claim.id_or_amount);
  for (const stack of stacks) {
    if (left === 0n) break;
    if (!movesAsStack({ nftType: NFT_TYPE.material, tokenId: stack.token_id })) continue;
    const amount = await takeFromStack(db, stack.id, left, now);
    if (amount > 0n) taken.push({ itemId: stack.id, amount });
    left -= amount;
  }
  return taken;
}
