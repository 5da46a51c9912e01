/**
 * The gas tank's rules (decision 0038): when a managed wallet without the BNB for an action's gas may have it sent by
 * the site's tank, what the wallet pays for it in a token, and the budgets that keep sponsorship from being farmed.
 * Pure, so each rule is tested without a chain or a database; gas-sponsor.ts applies them.
 */
import type { FeeToken } from "~core/api/actions";
import { FEE_TOKENS } from "~core/api/actions";
import { formatPrice, WEI_PER_TOKEN } from "~core/money";

const MINUTE = 60_000;

export interface GasTankPolicy {
  /** Gas the tank sends one account per UTC day, in wei. */
  accountDayWei: bigint;
  /** Sponsored actions of one kind (lootbox.buy, staking.deposit…) per account and UTC day. */
  actionDayCount: number;
  /** Gas the tank sends the whole site per UTC day, in wei. */
  siteDayWei: bigint;
  /** Below this balance the tank is reported low (the log and `spark_gas_tank_low`). */
  lowBalanceWei: bigint;
  /** How long a reviewed fee holds: the rate and the gas price are fixed for that long. */
  quoteTtlMs: number;
}

/**
 * Sized for BSC's gas (0.05–1 gwei; an action's steps take 0.1–2.5M gas): an account's day covers dozens of actions,
 * and the site's day some thousands, a drop included; a scripted farm of accounts meets the site's cap, in BNB the
 * operator chose to risk, after paying every fee in tokens.
 */
export const DEFAULT_GAS_TANK_POLICY: GasTankPolicy = {
  accountDayWei: WEI_PER_TOKEN / 50n,
  actionDayCount: 20,
  siteDayWei: 5n * WEI_PER_TOKEN,
  lowBalanceWei: WEI_PER_TOKEN,
  quoteTtlMs: 10 * MINUTE,
};

/** Gas limits of the steps a sponsorship adds: the tank's BNB transfer, the fee's token transfer, the refund. */
export const TOPUP_GAS = 21_000n;
export const FEE_TRANSFER_GAS = 100_000n;
export const REFUND_GAS = 21_000n;

/** The BNB the tank sends: every gas limit the wallet signs (its steps, the fee's transfer, the refund) at the price with headroom. */
export function topUpWei(walletGas: readonly bigint[], gasPrice: bigint, headroomPercent: bigint): bigint {
  const gas = walletGas.reduce((sum, limit) => sum + limit, 0n) + FEE_TRANSFER_GAS + REFUND_GAS;
  return (gas * gasPrice * headroomPercent) / 100n;
}

/** The fee in wei of a token worth `tokenWeiPerBnb` wei a BNB, rounded up: the tank is never paid less than it sent. */
export function feeWei(gasWei: bigint, tokenWeiPerBnb: bigint): bigint {
  return (gasWei * tokenWeiPerBnb + WEI_PER_TOKEN - 1n) / WEI_PER_TOKEN;
}

/**
 * The token the fee is paid in: the one the action spends when the wallet holds enough of it for both, else the first
 * of FIRE, QUARK and USDT it holds enough of; null when none.
 */
export function chooseFeeToken(
  spent: FeeToken | null,
  balances: Readonly<Record<FeeToken, bigint>>,
  spends: Readonly<Partial<Record<FeeToken, bigint>>>,
  feeIn: (token: FeeToken) => bigint,
): FeeToken | null {
  const order = spent ? [spent, ...FEE_TOKENS.filter((token) => token !== spent)] : [...FEE_TOKENS];
  return order.find((token) => balances[token] >= (spends[token] ?? 0n) + feeIn(token)) ?? null;
}

/** What the tank has sent today: to the account, for the action's kind to the account, and to the whole site. */
export interface SponsoredToday {
  accountWei: bigint;
  actionCount: number;
  siteWei: bigint;
}

export const ACCOUNT_BUDGET_SPENT =
  "The site pays network fees for at most a few dozen actions a day per account, and yours are used up for today. Send BNB to your wallet to act now, or try again tomorrow (UTC).";
export const actionBudgetSpent = (count: number) =>
  `The site pays the network fee of at most ${count} actions of this kind a day per account, and yours are used up for today. Send BNB to your wallet to act now, or try again tomorrow (UTC).`;
export const SITE_BUDGET_SPENT =
  "The site has paid all the network fees it pays today. Send BNB to your wallet to act now, or try again tomorrow (UTC).";

/** The budget this sponsorship would pass, in words; null when it fits. */
export function budgetRefusal(today: SponsoredToday, gasWei: bigint, policy: GasTankPolicy): string | null {
  if (today.actionCount + 1 > policy.actionDayCount) return actionBudgetSpent(policy.actionDayCount);
  if (today.accountWei + gasWei > policy.accountDayWei) return ACCOUNT_BUDGET_SPENT;
  if (today.siteWei + gasWei > policy.siteDayWei) return SITE_BUDGET_SPENT;
  return null;
}

/** The tank cannot send the gas now: said before anything is queued, with the amount. */
export const tankDry = (gasWei: bigint) =>
  `The site cannot pay this action's network fee right now (it needs ${formatPrice(gasWei, "BNB")}), so nothing was sent. Please try again later, or send BNB to your wallet to pay it yourself.`;

export const noTokenForFee = (fees: readonly { token: FeeToken; fee: bigint }[]) =>
  `Your wallet holds no BNB for this action's network fee, and not enough of any token to pay it instead (${fees
    .map(({ token, fee }) => formatPrice(fee, token))
    .join(", or ")}, besides what the action spends). Send BNB or one of these tokens to your wallet first.`;

export const quoteExpired = (ttlMs: number) =>
  `This network fee was quoted more than ${Math.round(ttlMs / MINUTE)} minutes ago. Review the fee as it is now and confirm again.`;
export const QUOTE_UNKNOWN = "No such fee to confirm.";

/** The UTC day a sponsorship counts against. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
