/**
 * Issue 13's rules for a deposit's amount, as typed in the field, before anything goes to the chain: a positive
 * FIRE decimal within the wallet's balance, reaching the pool's threshold where one applies, while the pool takes
 * deposits. Pure, so the browser-wallet island checks what the server would.
 */
import { revertMessage } from "~core/chain-errors";
import { formatPrice, parseTokenAmount } from "~core/money";

export interface StakeAmountInput {
  /** What the user typed. */
  text: string;
  /** The wallet's FIRE and its stake in the pool, in wei. */
  balance: bigint;
  stake: bigint;
  /** FIRE wei the stake must reach to earn a reward box; 0n when none applies. */
  threshold: bigint;
  /** The pool takes deposits now, by the chain's clock. */
  canDeposit: boolean;
}

export type StakeAmountCheck = { ok: true; amount: bigint } | { ok: false; message: string };

export function checkStakeAmount({ text, balance, stake, threshold, canDeposit }: StakeAmountInput): StakeAmountCheck {
  if (!canDeposit) return { ok: false, message: "This pool takes no deposits now." };
  const amount = parseTokenAmount(text);
  if (amount === undefined) return { ok: false, message: "Enter an amount of FIRE as a number, like 100 or 12.5." };
  if (amount === 0n) return { ok: false, message: revertMessage("ZeroAmount", []) };
  if (amount > balance) return { ok: false, message: `You have ${formatPrice(balance, "FIRE")}: enter at most that.` };
  if (stake + amount < threshold) {
    const short = formatPrice(threshold - stake, "FIRE");
    return {
      ok: false,
      message:
        stake > 0n
          ? `Your stake must reach the pool's threshold of ${formatPrice(threshold, "FIRE")}: add at least ${short}.`
          : `Stake at least the pool's threshold of ${short}.`,
    };
  }
  return { ok: true, amount };
}
