/**
 * Loot box purchase and opening rules (product §5, §9), pure so the server, the island and the tests agree.
 * Money is wei in bigint throughout. No viem here: the always-loaded pages import this module.
 */
import type { PaymentCurrency } from "~core/boxes";
import { formatChainTime, INSUFFICIENT_BALANCE } from "~core/chain-text";
import { OPEN_BATCH_MAX, OPEN_BATCH_MIN } from "~core/constants";
import type { SaleOpening } from "~core/sale-terms";

export const INVALID_ERC721 = "Invalid erc721 contract address.";

export type PurchaseCheck = { ok: false; message: typeof INSUFFICIENT_BALANCE } | { ok: true; total: bigint; needsApproval: boolean };

/**
 * product §5: the balance must cover the price, then an ERC-20 allowance below it is raised first.
 * BNB is paid with the transaction, so it needs no allowance.
 */
export function checkPurchase({
  currency,
  unitPrice,
  quantity,
  balance,
  allowance,
}: {
  currency: PaymentCurrency;
  unitPrice: bigint;
  quantity: number;
  balance: bigint;
  allowance: bigint;
}): PurchaseCheck {
  const total = unitPrice * BigInt(quantity);
  if (balance < total) return { ok: false, message: INSUFFICIENT_BALANCE };
  return { ok: true, total, needsApproval: currency !== "BNB" && allowance < total };
}

export interface PurchaseLimits {
  /** Boxes left in the whole sale. */
  globalRemaining: bigint;
  /** Boxes the wallet may still buy in its current 24 h window; null when the type has no daily limit or no wallet is known. */
  remainingToday: number | null;
  /** When the current window ends (unix seconds), when one is open. */
  resetsAt: bigint | null;
  /** The most one purchase may ask for now: 0 when none may be bought. */
  maxQuantity: number;
  /** Not on sale before its start date: when it opens (core/sale-terms.ts saleOpening). */
  opening: SaleOpening;
}

/**
 * What a wallet may still buy. `window` is the sale's boughtInWindow(player, type), which already reads
 * 0 once the 24 h have passed, so no clock is needed here; nothing before the type's start date (`opening`).
 */
export function purchaseLimits({
  globalLimit,
  sold,
  limitPerAddress,
  window,
  opening = { open: true },
}: {
  globalLimit: bigint;
  sold: bigint;
  limitPerAddress: bigint;
  window: { bought: bigint; resetsAt: bigint } | null | undefined;
  opening?: SaleOpening;
}): PurchaseLimits {
  const globalRemaining = globalLimit > sold ? globalLimit - sold : 0n;
  const daily = limitPerAddress > 0n && window;
  const remainingToday = daily ? Number(window.bought < limitPerAddress ? limitPerAddress - window.bought : 0n) : null;
  const resetsAt = daily && window.resetsAt > 0n ? window.resetsAt : null;
  const caps = [BigInt(OPEN_BATCH_MAX), globalRemaining, ...(remainingToday === null ? [] : [BigInt(remainingToday)])];
  const maxQuantity = opening.open ? Number(caps.reduce((min, cap) => (cap < min ? cap : min))) : 0;
  return { globalRemaining, remainingToday, resetsAt, maxQuantity, opening };
}

/** Splits box ids into opener calls of at most 10 (product §9 batch sizes), in the given order. */
export function openBatches<T>(ids: readonly T[], size = OPEN_BATCH_MAX): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < ids.length; start += size) batches.push(ids.slice(start, start + size));
  return batches;
}

/** A requested "open x N" count, kept within 1-10 and the boxes owned; 0 when there is nothing to open. */
export function clampOpenCount(requested: number, owned: number): number {
  if (owned <= 0) return 0;
  const whole = Number.isFinite(requested) ? Math.trunc(requested) : OPEN_BATCH_MIN;
  return Math.min(Math.max(whole, OPEN_BATCH_MIN), OPEN_BATCH_MAX, owned);
}

/** Why nothing may be bought now, or null when something may. */
export function purchaseBlockedNote(limits: PurchaseLimits): string | null {
  if (limits.maxQuantity > 0) return null;
  if (!limits.opening.open) return `Not on sale yet: opens in ${limits.opening.countdown}, at ${limits.opening.opensAt}.`;
  if (limits.remainingToday === 0) {
    return `You have reached the 24-hour limit${limits.resetsAt ? `; you can buy again after ${formatChainTime(limits.resetsAt)}` : ""}.`;
  }
  return "Sold out.";
}
