/**
 * Invites and rebates. A wallet's invite code is made on first request; an invited wallet accepts the code
 * once (the app calls acceptInvite after sign-up). From then on each trade the invitee makes earns the
 * inviter REBATE_BPS of the price, in the trade's currency, claimable as an award paid on chain (awards/awards.ts).
 */
import { randomInt } from "node:crypto";
import { isAddress, zeroAddress } from "viem";
import { ApiError } from "../../http";
import type { BackendOptions } from "../../types";
import type { Sql } from "../shared/db";
import { sameAddress } from "~core/address";
import type { InviteAccepted, RebateClaim, RebateInfo, RebateTotal } from "~core/api/market";
import { REBATE_BPS } from "../shared/activity";
import { balanceOf } from "../shared/ledger";
import { awardView, issueAward, settleExpiredAwards } from "../awards";
import type { ClaimIssuer } from "../claims";
import { CURRENCIES, type Currency, isCurrency } from "~core/money";
import { readWei } from "../shared/money";

const NOTHING_TO_CLAIM = "Nothing to claim";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** An invite code of 8 letters and digits (no 0, O, 1 or I) drawn with `random`: the seed's too (generate.ts). */
export function drawInviteCode(random: () => number): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[Math.floor(random() * CODE_ALPHABET.length)];
  return code;
}

/** The sign-on site's registration page takes the code (product §2: /login?act=reg&code=…). */
export function invitePath(code: string): string {
  return `/login?act=reg&code=${code}`;
}

/** The wallet's invite code, made on first use. Both columns are unique: a drawn code already taken is drawn again, and a concurrent first use that stored its code first gives that one. */
export async function inviteCode(db: Sql, address: string, now: number): Promise<string> {
  for (;;) {
    const existing = await db.get<{ code: string }>("select code from market_invite_codes where address = ?", [address]);
    if (existing) return existing.code;
    const code = drawInviteCode(() => randomInt(0, 1 << 30) / (1 << 30));
    const inserted = await db.run("insert into market_invite_codes (code, address, created_at) values (?, ?, ?) on conflict do nothing", [
      code,
      address,
      now,
    ]);
    if (inserted.changes) return code;
  }
}

export async function invitedCount(db: Sql, address: string): Promise<number> {
  return (await db.get<{ n: number }>("select count(*) as n from market_invites where inviter_address = ?", [address]))!.n;
}

/** Links `invitee` to the owner of `codeOrWallet` (an invite code, or the inviter's wallet), once. */
export async function acceptInvite(db: Sql, invitee: string, codeOrWallet: string, now: number): Promise<InviteAccepted> {
  const code = codeOrWallet.startsWith("0x") ? await inviteCode(db, codeOrWallet, now) : codeOrWallet;
  const owner = await db.get<{ address: string }>("select address from market_invite_codes where code = ?", [code]);
  if (!owner) throw new ApiError(404, "Unknown invite code");
  if (sameAddress(owner.address, invitee)) throw new ApiError(400, "code: you cannot use your own invite code");
  const inserted = await db.run(
    "insert into market_invites (invitee_address, inviter_address, code, created_at) values (?, ?, ?, ?) on conflict do nothing",
    [invitee, owner.address, code, now],
  );
  if (!inserted.changes) throw new ApiError(409, "Your wallet has already accepted an invite");
  return { inviterAddress: owner.address, code };
}

async function rebateRow(db: Sql, address: string, currency: Currency) {
  const row = await db.get<{ earned: string; claimed: string }>(
    "select earned, claimed from market_rebate_balances where address = ? and currency = ?",
    [address, currency],
  );
  const earned = row ? readWei(row.earned) : 0n;
  const claimed = row ? readWei(row.claimed) : 0n;
  /** `claimed` as stored, for a compare-and-set. */
  const claimedText = row?.claimed ?? null;
  return { earned, claimed, claimable: earned - claimed, claimedText };
}

export async function rebateTotal(db: Sql, address: string, currency: Currency): Promise<RebateTotal> {
  const { earned, claimed, claimable } = await rebateRow(db, address, currency);
  return { currency, earned: earned.toString(), claimed: claimed.toString(), claimable: claimable.toString() };
}

export async function rebateInfo(db: Sql, address: string, now: number): Promise<RebateInfo> {
  const recent = await db.all<{ invitee_address: string; currency: string; amount: string; created_at: number }>(
    "select invitee_address, currency, amount, created_at from market_rebates where address = ? order by created_at desc limit 20",
    [address],
  );
  // One statement at a time: inside a transaction they share one connection.
  const totals = [];
  for (const currency of CURRENCIES) totals.push(await rebateTotal(db, address, currency));
  return {
    inviteCode: await inviteCode(db, address, now),
    invitedCount: await invitedCount(db, address),
    rebateBps: Number(REBATE_BPS),
    totals,
    recent: recent.map((row) => ({
      inviteeAddress: row.invitee_address,
      currency: row.currency,
      amount: row.amount,
      at: new Date(row.created_at).toISOString(),
    })),
  };
}

/**
 * getRebate's erc20Addr: a currency symbol (FIRE, QUARK, USDT, BNB), FIRE's configured token address, or the
 * zero address for the native BNB.
 */
export function resolveCurrency(options: BackendOptions, erc20Addr: string): { currency: Currency; tokenAddress: string | null } {
  const symbol = erc20Addr.toUpperCase();
  if (isCurrency(symbol)) {
    const tokenAddress = symbol === "FIRE" ? (options.fireTokenAddress ?? null) : symbol === "BNB" ? zeroAddress : null;
    return { currency: symbol, tokenAddress };
  }
  if (isAddress(erc20Addr, { strict: false })) {
    if (sameAddress(erc20Addr, zeroAddress)) return { currency: "BNB", tokenAddress: zeroAddress };
    if (sameAddress(erc20Addr, options.fireTokenAddress)) return { currency: "FIRE", tokenAddress: options.fireTokenAddress! };
  }
  throw new ApiError(400, `erc20Addr: expected one of ${CURRENCIES.join(", ")} or a known token address`);
}

/**
 * Claims the whole claimable rebate of one currency as an award the reward manager pays on chain (awards/awards.ts): the
 * claim is a compare-and-set on the `claimed` amount that was read, in the award's transaction: of two claims racing
 * on the same rebate, one changes the row and the other finds it changed and is refused, so a rebate is never signed
 * twice (rebates earned meanwhile stay claimable). The game balance no longer changes; it is answered as before.
 */
export async function claimRebate(market: ClaimIssuer, address: string, currency: Currency, now: number): Promise<RebateClaim> {
  const { db, options } = market;
  await settleExpiredAwards(db, now, Boolean(options.chain));
  const { earned, claimable, claimedText } = await rebateRow(db, address, currency);
  if (claimable <= 0n) throw new ApiError(409, NOTHING_TO_CLAIM);
  const { award, claim } = await issueAward(
    market,
    { account: address, reason: "rebate", currency, amount: claimable },
    now,
    async (tx) => {
      const taken = await tx.run("update market_rebate_balances set claimed = ? where address = ? and currency = ? and claimed = ?", [
        earned.toString(),
        address,
        currency,
        claimedText,
      ]);
      if (!taken.changes) throw new ApiError(409, NOTHING_TO_CLAIM);
    },
  );
  const balance = await balanceOf(db, address, currency);
  return { currency, amount: claimable.toString(), balance: balance.toString(), award: awardView(award), claim };
}
