/**
 * The executor's budget and gas rules (docs/api/sso.md "On-chain actions", docs/decisions/0005): how often an
 * account may act, how much one action may move, the gas limit of each kind of step, and what a wallet must
 * hold before anything is queued. Pure, so the rules are tested without a chain.
 */
import type { ExecutionStep } from "~core/api/actions";
import type { PaymentCurrency } from "~core/boxes";
import { BATCH_OPEN_GAS_LIMIT } from "~core/constants";
import { formatPrice, WEI_PER_TOKEN } from "~core/money";
import { FEE_TRANSFER_GAS, REFUND_GAS, TOPUP_GAS } from "./gas-tank";

const MINUTE = 60_000;

/** The currencies an action may move: the sale's, and FIRE for staking, repairs and the bridge. */
export type CappedCurrency = PaymentCurrency | "FIRE";

export interface ExecutorPolicy {
  /** Actions one account may request per window (idempotent replays of one request count once). */
  rate: { max: number; windowMs: number };
  /**
   * The most one action may pay (or stake, for FIRE), per currency, in wei: a catalogue purchase of 10 boxes fits
   * with room to spare, and so does the stake that earns the most reward boxes of any pool.
   */
  valueCaps: Record<CappedCurrency, bigint>;
  /** The gas price the pre-check assumes, as a percentage of the node's current one, for a price that moves. */
  gasPriceHeadroomPercent: bigint;
  /** When the node does not answer, a run is tried again after a growing pause of at most this long. */
  retryMaxMs: number;
}

export const DEFAULT_EXECUTOR_POLICY: ExecutorPolicy = {
  rate: { max: 30, windowMs: 10 * MINUTE },
  valueCaps: { USDT: 5_000n * WEI_PER_TOKEN, QUARK: 5_000n * WEI_PER_TOKEN, BNB: 10n * WEI_PER_TOKEN, FIRE: 100_000n * WEI_PER_TOKEN },
  gasPriceHeadroomPercent: 150n,
  retryMaxMs: 5_000,
};

/**
 * The most of each mined material (whole units) one action may move into the game: the strongest ship there can be
 * (a level-10 Legend, every attribute 255, four top pieces fitted) mines about 23,500 DarkIron in one full mission,
 * and an amount written in wei by mistake is far above it.
 */
export const MATERIALS_CAP_PER_ACTION = 1_000_000n;

/**
 * Gas limit of each step, signed into the transaction: the node charges only what is used, but the wallet must
 * hold limit × price up front, so the pre-check counts the same figures. Measured on the local chain: approve and
 * setApprovalForAll ~46k; a purchase ~150k + ~135k a box; opening uses product §9's limit per batch; a first
 * deposit ~160k; a withdrawal ~60k + ~162k a reward box forged (`boxes`, at most 10 per address); a claim and a
 * swap (which records the swap in five new slots, ~182k) stay under 80 % of their limits (sso-executor-bridge.test.ts),
 * and so does every StarshipManager call (31k-136k on anvil, contracts/README.md: the most is a fit that locks both
 * the equipment and the ship; sso-executor-spaceship.test.ts).
 */
export function stepGasLimit(kind: ExecutionStep["kind"], boxes = 1): bigint {
  switch (kind) {
    case "approve":
    case "approve-opener":
    case "approve-stake":
    case "approve-swap":
    case "approve-ship":
    case "approve-trade":
      return 100_000n;
    case "claim":
      return 250_000n;
    case "swap":
      return 300_000n;
    case "buy":
      return 200_000n + 150_000n * BigInt(boxes);
    case "open":
      return BATCH_OPEN_GAS_LIMIT;
    case "deposit":
      return 250_000n;
    case "withdraw":
      return 150_000n + 200_000n * BigInt(boxes);
    case "ship":
      return 200_000n;
    case "trade":
      return 300_000n;
    case "gas-topup":
      return TOPUP_GAS;
    case "gas-fee":
      return FEE_TRANSFER_GAS;
    case "gas-refund":
      return REFUND_GAS;
  }
}

/** The steps during which an execution is "approving" rather than "sending". */
export const isApprovalStep = (kind: ExecutionStep["kind"]): boolean =>
  kind === "approve" ||
  kind === "approve-opener" ||
  kind === "approve-stake" ||
  kind === "approve-swap" ||
  kind === "approve-ship" ||
  kind === "approve-trade";

/** BNB a plan needs: every step's gas limit at the node's gas price with headroom, plus the BNB it pays. */
export function bnbNeeded(steps: readonly { gas: bigint; value: bigint }[], gasPrice: bigint, policy: ExecutorPolicy): bigint {
  const gas = steps.reduce((sum, step) => sum + step.gas, 0n);
  const value = steps.reduce((sum, step) => sum + step.value, 0n);
  return (gas * gasPrice * policy.gasPriceHeadroomPercent) / 100n + value;
}

/** Over the per-action cap of its currency: the refusal, else null. */
export function valueCapRefusal(total: bigint, currency: PaymentCurrency, policy: ExecutorPolicy): string | null {
  const cap = policy.valueCaps[currency];
  if (total <= cap) return null;
  return `One action may pay at most ${formatPrice(cap, currency)}, and this one would pay ${formatPrice(total, currency)}. Buy fewer boxes at a time.`;
}

export function rateLimitMessage(retryInMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryInMs / MINUTE));
  return `Too many on-chain actions from this account, please try again in ${minutes} minute${minutes > 1 ? "s" : ""}`;
}
