/**
 * Awards the reward manager pays on chain (contracts/src/RewardManager.sol, decision 0017): a claimed referral rebate
 * becomes an award, signed for the inviter's wallet in the asset manager's claim format (core/claim.ts, kind 0, the
 * reward manager named as the contract). Its states: signed, sent (handed to a wallet to submit: the executor for a
 * managed wallet, the browser wallet's island), paid (the rewards stream saw AwardClaimed), or expired, when the chain
 * read past its deadline shows it unpaid, and its amount is then claimable again. The asset manager's rule
 * (claims/claim-settlement.ts settleExpiredClaims): never by the clock alone while a chain is watched, so nothing is
 * paid twice.
 */
import { type Hex, zeroAddress } from "viem";
import { ApiError } from "../../http";
import type { BackendOptions } from "../../types";
import type { MarketDb, Sql } from "../shared/db";
import { sameAddress } from "~core/address";
import type { AwardRecord, SignedClaimWire } from "~core/api/market";
import type { Currency } from "~core/money";
import { CLAIM_TTL_SECONDS, type ClaimIssuer, expiryCutoff, split } from "../claims";
import { CLAIM_KIND } from "~core/claim";
import { nextSequenceValue } from "../shared/sequences";
import { AWARD_STATUS, type AwardsTable } from "../shared/tables";
import { addToWei } from "../shared/wei-column";

/** The cursor of the reward manager's AwardClaimed stream (indexer/rewards.ts). */
export const REWARDS_STREAM = "reward-manager";

export const AWARD_STATUS_NAMES = ["signed", "sent", "paid", "expired"] as const;
export const AWARD_PAID = "This award has already been paid on the chain.";
export const AWARD_LAPSED = "This award has expired: its amount is claimable again.";

/** The token an award in `currency` is paid in: the ERC-20, or the zero address for BNB. */
export function awardToken(options: BackendOptions, currency: Currency): string {
  const contracts = options.chain?.contracts;
  if (currency === "FIRE") return contracts?.fire ?? options.fireTokenAddress ?? zeroAddress;
  if (currency === "QUARK") return contracts?.quark ?? zeroAddress;
  if (currency === "USDT") return contracts?.usdt ?? zeroAddress;
  return zeroAddress;
}

/** A rebate balance's `claimed` column: an award takes from what is claimable, an expired one gives it back. */
const rebateClaimed = (address: string, currency: string) =>
  ({ table: "market_rebate_balances", column: "claimed", key: { address, currency } }) as const;

/**
 * Signs an award of `amount` for `account` and stores it with `take` (which moves the amount out of what is
 * claimable) in one transaction: the nonce is taken and the claim signed first, so a refused `take` leaves a gap.
 */
export async function issueAward(
  { db, options, signer }: ClaimIssuer,
  award: { account: string; reason: string; currency: Currency; amount: bigint },
  now: number,
  take: (tx: Sql) => Promise<void>,
): Promise<{ award: AwardsTable; claim: SignedClaimWire }> {
  const nonce = await nextSequenceValue(db, "award_nonce");
  const deadline = Math.floor(now / 1000) + CLAIM_TTL_SECONDS;
  const token = awardToken(options, award.currency);
  const contract = options.chain?.contracts.rewardManager ?? zeroAddress;
  const { content, signature } = await signer.sign({
    account: award.account,
    kind: CLAIM_KIND.token,
    asset: token,
    idOrAmount: award.amount,
    data: 0n,
    nonce,
    deadline,
    contract,
  });
  const row: AwardsTable = {
    id: nonce,
    account: award.account,
    reason: award.reason,
    currency: award.currency,
    token,
    amount: award.amount.toString(),
    deadline,
    chain_id: options.chainId,
    reward_manager: contract,
    claim_content: content,
    signature,
    status: AWARD_STATUS.signed,
    created_at: now,
    updated_at: now,
  };
  await db.write(async (tx) => {
    await take(tx);
    const columns = Object.keys(row);
    await tx.run(`insert into market_awards (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`, Object.values(row));
  });
  return { award: row, claim: split(content, signature as Hex, nonce, deadline) };
}

/**
 * Unpaid awards past their deadline go back to the rebate balance they came from. With a chain watched, only once
 * the rewards stream has applied a block whose time is past the deadline (an award paid by then is marked paid, and
 * the contract refuses it in any later block); without one, the clock and CLAIM_EXPIRY_GRACE_SECONDS decide.
 */
export async function settleExpiredAwards(db: MarketDb, now: number, watched: boolean): Promise<number> {
  const cutoff = await expiryCutoff(db, REWARDS_STREAM, now, watched);
  if (cutoff === null) return 0;
  const expired = await db.all<AwardsTable>("select * from market_awards where status in (?, ?) and deadline < ?", [
    AWARD_STATUS.signed,
    AWARD_STATUS.sent,
    cutoff,
  ]);
  if (!expired.length) return 0;
  return db.write(async (tx) => {
    let settled = 0;
    for (const award of expired) {
      // Only the writer that moves it out of signed or sent gives the amount back: never twice.
      const { changes } = await tx.run("update market_awards set status = ?, updated_at = ? where id = ? and status in (?, ?)", [
        AWARD_STATUS.expired,
        now,
        award.id,
        AWARD_STATUS.signed,
        AWARD_STATUS.sent,
      ]);
      if (changes !== 1) continue;
      settled++;
      await addToWei(tx, rebateClaimed(award.account, award.currency), -BigInt(award.amount));
    }
    return settled;
  });
}

/**
 * For the rewards stream: award `nonce` of `account` was paid. One that had expired and gone back to the rebate balance
 * (its transaction mined before the deadline, read late) is taken from it again. Answers the status it had, for an
 * undo, or null when it is no award of this market's.
 */
export async function awardPaid(db: Sql, account: string, nonce: number, now: number): Promise<number | null> {
  const award = await db.get<AwardsTable>("select * from market_awards where id = ?", [nonce]);
  if (!award || !sameAddress(award.account, account)) return null;
  if (award.status === AWARD_STATUS.paid) return AWARD_STATUS.paid;
  if (award.status === AWARD_STATUS.expired) await addToWei(db, rebateClaimed(award.account, award.currency), BigInt(award.amount));
  await db.run("update market_awards set status = ?, updated_at = ? where id = ?", [AWARD_STATUS.paid, now, award.id]);
  return award.status;
}

/** Takes back awardPaid after a reorg: the award has the status it had before, and an expired one's amount returns again. */
export async function undoAwardPaid(db: Sql, nonce: number, previous: number, now: number): Promise<void> {
  const award = await db.get<AwardsTable>("select * from market_awards where id = ?", [nonce]);
  if (!award || previous === AWARD_STATUS.paid) return;
  if (previous === AWARD_STATUS.expired) await addToWei(db, rebateClaimed(award.account, award.currency), -BigInt(award.amount));
  await db.run("update market_awards set status = ?, updated_at = ? where id = ?", [previous, now, award.id]);
}

/**
 * The caller's own unpaid award, handed out to be sent: it is marked sent (the executor or the wallet island submits
 * it). The same signed claim each time, so the contract still pays it at most once.
 */
export async function awardToSend(db: Sql, nonce: number, account: string, now: number): Promise<SignedClaimWire> {
  const award = await db.get<AwardsTable>("select * from market_awards where id = ?", [nonce]);
  // Another account's answers like an unknown one, so sequential ids cannot be probed.
  if (!award || !sameAddress(award.account, account)) throw new ApiError(404, "Award not found");
  if (award.status === AWARD_STATUS.paid) throw new ApiError(409, AWARD_PAID);
  if (award.status === AWARD_STATUS.expired || award.deadline * 1000 <= now) throw new ApiError(409, AWARD_LAPSED);
  await db.run("update market_awards set status = ?, updated_at = ? where id = ? and status = ?", [
    AWARD_STATUS.sent,
    now,
    award.id,
    AWARD_STATUS.signed,
  ]);
  return split(award.claim_content as Hex, award.signature as Hex, award.id, award.deadline);
}

/** The account's latest awards, newest first. */
export async function recentAwards(db: Sql, account: string, limit = 20): Promise<AwardsTable[]> {
  return await db.all<AwardsTable>("select * from market_awards where account = ? order by id desc limit ?", [account, limit]);
}

export function awardView(award: AwardsTable): AwardRecord {
  return {
    txId: String(award.id),
    status: award.status,
    statusName: AWARD_STATUS_NAMES[award.status]!,
    account: award.account,
    reason: award.reason,
    currency: award.currency,
    token: award.token,
    amount: award.amount,
    deadline: award.deadline,
    chainId: award.chain_id,
    rewardManager: award.reward_manager,
    createdAt: new Date(award.created_at).toISOString(),
  };
}
