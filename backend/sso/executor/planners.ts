/**
 * Every action's planner, and the gas rule of a plan the wallet pays for (docs/decisions/0005): a plan it cannot pay
 * the gas of is refused with the amount missing, and nothing is sent, unless the gas tank sponsors it (decision 0038).
 */
import type { ActionName, ActionParams } from "~core/api/actions";
import { notEnoughGasMessage } from "~core/chain-errors";
import { bridgeClaim, bridgeSwapItems, bridgeSwapNft, bridgeSwapToken } from "./bridge";
import { lootboxBuy } from "./lootbox-buy";
import { rewardClaim } from "./reward";
import { lootboxOpen } from "./lootbox-open";
import { type PlanContext, type PlannedStep, type Planner, Refusal } from "./plan";
import { bnbNeeded } from "./policy";
import {
  spaceshipExplore,
  spaceshipFit,
  spaceshipOpenSlot,
  spaceshipRecall,
  spaceshipRepair,
  spaceshipSendMaterials,
  spaceshipUnfit,
  spaceshipUpgrade,
} from "./spaceship";
import { stakingDeposit, stakingWithdraw } from "./staking";
import {
  tradeAcceptOffer,
  tradeApprove,
  tradeBuy,
  tradeCancel,
  tradeCancelAll,
  tradeCancelOffer,
  tradeOfferApprove,
  tradeSendNft,
  tradeTransferItems,
  tradeTransferNft,
} from "./trading";

const PLANNERS: { [A in ActionName]: Planner<A> } = {
  "lootbox.buy": lootboxBuy,
  "lootbox.open": lootboxOpen,
  "staking.deposit": stakingDeposit,
  "staking.withdraw": stakingWithdraw,
  "bridge.claim": bridgeClaim,
  "bridge.swapToken": bridgeSwapToken,
  "bridge.swapNft": bridgeSwapNft,
  "bridge.swapItems": bridgeSwapItems,
  "spaceship.explore": spaceshipExplore,
  "spaceship.recall": spaceshipRecall,
  "spaceship.repair": spaceshipRepair,
  "spaceship.upgrade": spaceshipUpgrade,
  "spaceship.openSlot": spaceshipOpenSlot,
  "spaceship.fit": spaceshipFit,
  "spaceship.unfit": spaceshipUnfit,
  "spaceship.sendMaterials": spaceshipSendMaterials,
  "trade.approve": tradeApprove,
  "trade.buy": tradeBuy,
  "trade.cancel": tradeCancel,
  "trade.cancelAll": tradeCancelAll,
  "trade.transferNft": tradeTransferNft,
  "trade.transferItems": tradeTransferItems,
  "trade.sendNft": tradeSendNft,
  "trade.offerApprove": tradeOfferApprove,
  "trade.acceptOffer": tradeAcceptOffer,
  "trade.cancelOffer": tradeCancelOffer,
  "reward.claim": rewardClaim,
};

export function plannerOf(action: ActionName): Planner<ActionName> {
  return PLANNERS[action] as Planner<ActionName>;
}

/** The action's steps now, once its pre-checks pass; else a Refusal. Reads the chain, sends nothing, checks no gas. */
export function planSteps(ctx: PlanContext, action: ActionName, params: ActionParams[ActionName]): Promise<PlannedStep[]> {
  return plannerOf(action).plan(ctx, params);
}

/** What paying the steps' gas from the wallet takes: null when it holds enough, else its balance, the need and the price. */
export async function gasShortfall(
  ctx: PlanContext,
  steps: readonly PlannedStep[],
): Promise<{ balance: bigint; needed: bigint; value: bigint; gasPrice: bigint } | null> {
  const [balance, gasPrice] = await Promise.all([ctx.client.getBalance({ address: ctx.wallet }), ctx.client.getGasPrice()]);
  const needed = bnbNeeded(steps, gasPrice, ctx.policy);
  if (balance >= needed) return null;
  return { balance, needed, value: steps.reduce((sum, step) => sum + step.value, 0n), gasPrice };
}

/** The action's steps now, once its pre-checks and the wallet's gas rule (decision 0005) pass; else a Refusal. */
export async function planAction(ctx: PlanContext, action: ActionName, params: ActionParams[ActionName]): Promise<PlannedStep[]> {
  const steps = await planSteps(ctx, action, params);
  const short = await gasShortfall(ctx, steps);
  if (short) throw new Refusal(notEnoughGasMessage({ wallet: ctx.wallet, ...short }));
  return steps;
}
