/**
 * Trading actions for managed wallets (issue 28, decision 0015): approve the trading contract for the card, loot box
 * and SparkItems collections, fill a stored chain listing with quickSale, cancel one listing, cancel all
 * (incrementCounter), give cards or amounts of stacks to another wallet, send a card into the game. A listing
 * is signed by the SSO (POST /sso/signOrder, primaryType Listing) and stored by the market (chainSell); the market's
 * indexer closes it from the chain's events. Refusals the chain would make are read through core/chain-errors.
 */
import {
  type ContractFunctionArgs,
  type ContractFunctionName,
  encodeFunctionData,
  type EncodeFunctionDataParameters,
  formatEther,
  getAddress,
  isAddressEqual,
  zeroAddress,
} from "viem";
import { gameTokenAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../../contracts/generated/abi";
import type { TradeOrderParams } from "~core/api/actions";
import { revertMessage } from "~core/chain-errors";
import { LISTING_STANDARD, type Listing, listingOfOrder } from "~core/trading";
import { type PlanContext, type PlannedStep, type Planner, Refusal } from "./plan";
import { stepGasLimit } from "./policy";

const trading = (ctx: PlanContext) => ({ address: ctx.contracts.trading, abi: [...tradingAbi, ...sparkErrorsAbi] }) as const;

type TradingFunction = ContractFunctionName<typeof tradingAbi, "nonpayable" | "payable">;

/** One call of the trading contract as a plan's step. */
function tradeStep<F extends TradingFunction>(
  ctx: PlanContext,
  label: string,
  call: { functionName: F; args?: ContractFunctionArgs<typeof tradingAbi, "nonpayable" | "payable", F> },
  value = 0n,
): PlannedStep {
  const data = encodeFunctionData({ abi: tradingAbi, ...call } as EncodeFunctionDataParameters<typeof tradingAbi>);
  return { kind: "trade", label, to: ctx.contracts.trading, data, value, gas: stepGasLimit("trade") };
}

/** The collections whose items the market lists on chain and the trading contract transfers. */
type TradedCollection = "card" | "items" | "box";

const APPROVAL_LABELS: Record<TradedCollection, string> = {
  card: "Let the trading contract move your cards when they sell",
  items: "Let the trading contract move your material stacks when they sell",
  box: "Let the trading contract move your loot boxes when they sell",
};

/** The collection's approval of the trading contract as a step, or none when the wallet has given it already. */
async function approvalSteps(ctx: PlanContext, collection: TradedCollection): Promise<PlannedStep[]> {
  // isApprovedForAll and setApprovalForAll have the same ABI on every collection.
  const address = ctx.contracts[collection];
  const args = [ctx.wallet, ctx.contracts.trading] as const;
  if (await ctx.client.readContract({ address, abi: sparkCardAbi, functionName: "isApprovedForAll", args })) return [];
  return [
    {
      kind: "approve-trade",
      label: APPROVAL_LABELS[collection],
      to: address,
      data: encodeFunctionData({ abi: sparkCardAbi, functionName: "setApprovalForAll", args: [ctx.contracts.trading, true] }),
      value: 0n,
      gas: stepGasLimit("approve-trade"),
    },
  ];
}

export const tradeApprove: Planner<"trade.approve"> = {
  async plan(ctx) {
    return [...(await approvalSteps(ctx, "card")), ...(await approvalSteps(ctx, "items")), ...(await approvalSteps(ctx, "box"))];
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

/** The order as a Listing, refused when it is not a card's, a loot box's or a stack's listing. */
function listingOf(ctx: PlanContext, params: TradeOrderParams): Listing {
  const listing = listingOfOrder(params.order);
  if (!(["card", "box", "items"] as const).some((collection) => isAddressEqual(listing.collection, ctx.contracts[collection])))
    throw new Refusal("Only listings of cards, loot boxes and material stacks can be filled here.");
  return listing;
}

/** What quickSale would answer now, in the product's words, or null when it would fill. */
async function simulateFill(ctx: PlanContext, listing: Listing, signature: `0x${string}`, value: bigint): Promise<string | null> {
  try {
    await ctx.client.simulateContract({
      account: ctx.wallet,
      ...trading(ctx),
      functionName: "quickSale",
      args: [listing, signature],
      value,
    });
    return null;
  } catch (error) {
    const revert = (error as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk?.(
      (e) => (e as { data?: { errorName?: string } }).data?.errorName !== undefined,
    ) as { data?: { errorName: string; args?: readonly unknown[] } } | undefined;
    // An allowance still short is the approval step's to fix: the plan sends it first.
    if (revert?.data?.errorName === "InsufficientAllowance") return null;
    if (revert?.data) return revertMessage(revert.data.errorName, revert.data.args ?? []);
    throw error;
  }
}

export const tradeBuy: Planner<"trade.buy"> = {
  async plan(ctx, params) {
    const listing = listingOf(ctx, params);
    if (isAddressEqual(listing.seller, ctx.wallet)) throw new Refusal("You cannot buy your own item");
    const native = isAddressEqual(listing.currency, zeroAddress);
    const steps: PlannedStep[] = [];
    if (!native) {
      const token = { address: listing.currency, abi: gameTokenAbi } as const;
      const allowance = await ctx.client.readContract({ ...token, functionName: "allowance", args: [ctx.wallet, ctx.contracts.trading] });
      if (allowance < listing.price) {
        steps.push({
          kind: "approve",
          label: `Approve ${formatEther(listing.price)} for the trading contract`,
          to: listing.currency,
          data: encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [ctx.contracts.trading, listing.price] }),
          value: 0n,
          gas: stepGasLimit("approve"),
        });
      }
    }
    const refusal = await simulateFill(ctx, listing, params.order.signature, native ? listing.price : 0n);
    if (refusal) throw new Refusal(refusal);
    steps.push(
      tradeStep(
        ctx,
        listing.standard === LISTING_STANDARD.erc1155
          ? `Buy ${listing.amount} of item #${listing.tokenId}`
          : `Buy item #${listing.tokenId}`,
        { functionName: "quickSale", args: [listing, params.order.signature] },
        native ? listing.price : 0n,
      ),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeCancel: Planner<"trade.cancel"> = {
  async plan(ctx, params) {
    const listing = listingOf(ctx, params);
    if (!isAddressEqual(listing.seller, ctx.wallet)) throw new Refusal("Only the seller can cancel this sale");
    return [tradeStep(ctx, `Cancel the listing of item #${listing.tokenId}`, { functionName: "cancel", args: [[listing]] })];
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeCancelAll: Planner<"trade.cancelAll"> = {
  async plan(ctx) {
    return [tradeStep(ctx, "Cancel all your chain listings", { functionName: "incrementCounter" })];
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

/** The cards named, each the wallet's now, and the approval step the trading contract needs to move them (when missing). */
async function heldCards(ctx: PlanContext, ids: readonly string[]): Promise<PlannedStep[]> {
  const card = { address: ctx.contracts.card, abi: sparkCardAbi } as const;
  for (const id of ids) {
    const owner = await ctx.client.readContract({ ...card, functionName: "ownerOf", args: [BigInt(id)] }).catch(() => null);
    if (!owner || !isAddressEqual(owner, ctx.wallet)) throw new Refusal(`Item #${id} is not in your wallet.`);
  }
  return await approvalSteps(ctx, "card");
}

/** A transfer's recipient: another wallet than the sender's, and not the zero address. */
function requireRecipient(ctx: PlanContext, to: `0x${string}`) {
  if (isAddressEqual(to, ctx.wallet)) throw new Refusal("Send to another wallet than your own.");
  if (isAddressEqual(to, zeroAddress)) throw new Refusal("The zero address cannot receive items.");
}

export const tradeTransferNft: Planner<"trade.transferNft"> = {
  async plan(ctx, { to, tokenIds }) {
    requireRecipient(ctx, to);
    const steps = await heldCards(ctx, tokenIds);
    const what = tokenIds.length === 1 ? `item #${tokenIds[0]}` : `${tokenIds.length} items`;
    steps.push(
      tradeStep(ctx, `Send ${what} to ${getAddress(to)}`, {
        functionName: "transferNft",
        args: [ctx.contracts.card, to, tokenIds.map(BigInt)],
      }),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeSendNft: Planner<"trade.sendNft"> = {
  async plan(ctx, { tokenId, account }) {
    const steps = await heldCards(ctx, [tokenId]);
    steps.push(
      tradeStep(ctx, `Send item #${tokenId} to the game inventory of ${getAddress(account)}`, {
        functionName: "sendNft",
        args: [ctx.contracts.card, BigInt(tokenId), account],
      }),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeTransferItems: Planner<"trade.transferItems"> = {
  async plan(ctx, { to, items }) {
    requireRecipient(ctx, to);
    const ids = items.map((item) => BigInt(item.id));
    const amounts = items.map((item) => BigInt(item.amount));
    const held = await ctx.client.readContract({
      address: ctx.contracts.items,
      abi: sparkItemsAbi,
      functionName: "balanceOfBatch",
      args: [ids.map(() => ctx.wallet), ids],
    });
    ids.forEach((id, i) => {
      if (held[i] < amounts[i]) throw new Refusal(`You hold ${held[i]} of item #${id}, fewer than ${amounts[i]}.`);
    });
    const steps = await approvalSteps(ctx, "items");
    const what = items.length === 1 ? `${amounts[0]} of item #${ids[0]}` : `${items.length} kinds of items`;
    steps.push(
      tradeStep(ctx, `Send ${what} to ${getAddress(to)}`, {
        functionName: "transferItem1155",
        args: [ctx.contracts.items, to, ids, amounts],
      }),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};
