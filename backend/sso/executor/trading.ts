/**
 * Trading actions for managed wallets (issue 28, decision 0015): approve the trading contract for the card, loot box
 * and SparkItems collections, fill a stored chain listing with quickSale, cancel one listing, cancel all
 * (incrementCounter), give cards, loot boxes or amounts of stacks to another wallet, send a card into the game. A listing
 * is signed by the SSO (POST /sso/signOrder, primaryType Listing) and stored by the market (chainSell); the market's
 * indexer closes it from the chain's events. Refusals the chain would make are read through core/chain-errors.
 */
import {
  BaseError,
  type ContractFunctionArgs,
  ContractFunctionRevertedError,
  type ContractFunctionName,
  encodeFunctionData,
  type EncodeFunctionDataParameters,
  formatEther,
  getAddress,
  isAddressEqual,
  zeroAddress,
} from "viem";
import { blindBoxAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../../contracts/generated/abi";
import type { TradeOrderParams } from "~core/api/actions";
import { revertMessage } from "~core/chain-errors";
import type { ChainOffer } from "~core/api/market";
import { LISTING_STANDARD, type Listing, type TradeOffer, listingOfOrder, offerErrorMessage, offerOfOrder } from "~core/trading";
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

/**
 * What a Trading call would answer now, in the product's words (`words` for Trading's own refusals), or null when it
 * would pass. An allowance still short is the approval step's to fix: the plan sends it first.
 */
async function simulateTrade<F extends TradingFunction>(
  ctx: PlanContext,
  call: { functionName: F; args: ContractFunctionArgs<typeof tradingAbi, "nonpayable" | "payable", F> },
  value: bigint,
  words: (name: string) => string | null = () => null,
): Promise<string | null> {
  try {
    // Typed by the caller's `call`; viem's generics cannot follow one through a generic function name.
    const request = { account: ctx.wallet, ...trading(ctx), ...call, value };
    await ctx.client.simulateContract(request as unknown as Parameters<PlanContext["client"]["simulateContract"]>[0]);
    return null;
  } catch (error) {
    const revert = (error as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk?.(
      (e) => (e as { data?: { errorName?: string } }).data?.errorName !== undefined,
    ) as { data?: { errorName: string; args?: readonly unknown[] } } | undefined;
    if (revert?.data?.errorName === "InsufficientAllowance") return null;
    if (revert?.data) return words(revert.data.errorName) ?? revertMessage(revert.data.errorName, revert.data.args ?? []);
    throw error;
  }
}

const readAllowance = (ctx: PlanContext, currency: `0x${string}`) =>
  ctx.client.readContract({ address: currency, abi: gameTokenAbi, functionName: "allowance", args: [ctx.wallet, ctx.contracts.trading] });

/** The ERC-20 approval step that lifts the wallet's allowance for the trading contract to `amount`, or none when it is enough. */
async function allowanceSteps(ctx: PlanContext, currency: `0x${string}`, amount: bigint): Promise<PlannedStep[]> {
  if ((await readAllowance(ctx, currency)) >= amount) return [];
  return [approveStep(ctx, currency, amount)];
}

/**
 * A buy's approval: its price on top of what the wallet has already approved. That allowance is what the wallet's
 * chain offers count on (decision 0024); a buy that spent it would leave them unpayable.
 */
async function buyAllowanceSteps(ctx: PlanContext, currency: `0x${string}`, price: bigint): Promise<PlannedStep[]> {
  const allowance = await readAllowance(ctx, currency);
  if (allowance === 0n) return [approveStep(ctx, currency, price)];
  const label = `Approve ${formatEther(price)} more for the trading contract (${formatEther(allowance + price)} with what your offers keep)`;
  return [approveStep(ctx, currency, allowance + price, label)];
}

function approveStep(
  ctx: PlanContext,
  currency: `0x${string}`,
  amount: bigint,
  label = `Approve ${formatEther(amount)} for the trading contract`,
): PlannedStep {
  return {
    kind: "approve",
    label,
    to: currency,
    data: encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [ctx.contracts.trading, amount] }),
    value: 0n,
    gas: stepGasLimit("approve"),
  };
}

export const tradeBuy: Planner<"trade.buy"> = {
  async plan(ctx, params) {
    const listing = listingOf(ctx, params);
    if (isAddressEqual(listing.seller, ctx.wallet)) throw new Refusal("You cannot buy your own item");
    const native = isAddressEqual(listing.currency, zeroAddress);
    const steps = native ? [] : await buyAllowanceSteps(ctx, listing.currency, listing.price);
    const value = native ? listing.price : 0n;
    const refusal = await simulateTrade(ctx, { functionName: "quickSale", args: [listing, params.order.signature] }, value);
    if (refusal) throw new Refusal(refusal);
    steps.push(
      tradeStep(
        ctx,
        listing.standard === LISTING_STANDARD.erc1155
          ? `Buy ${listing.amount} of item #${listing.tokenId}`
          : `Buy item #${listing.tokenId}`,
        { functionName: "quickSale", args: [listing, params.order.signature] },
        value,
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

/** The offer as a TradeOffer, refused when it is not for a card, a loot box or a stack. */
function offerOf(ctx: PlanContext, order: ChainOffer): TradeOffer {
  const offer = offerOfOrder(order);
  if (!(["card", "box", "items"] as const).some((collection) => isAddressEqual(offer.collection, ctx.contracts[collection])))
    throw new Refusal("Only offers on cards, loot boxes and material stacks can be accepted here.");
  return offer;
}

/** The ERC-20s the market takes for offers (BNB cannot be pulled from a buyer's wallet). */
const OFFER_CURRENCIES = ["fire", "quark", "usdt"] as const;

export const tradeOfferApprove: Planner<"trade.offerApprove"> = {
  async plan(ctx, { currency, amount }) {
    if (!OFFER_CURRENCIES.some((key) => isAddressEqual(ctx.contracts[key], currency)))
      throw new Refusal("Offers on chain are paid in FIRE, QUARK or USDT.");
    return await allowanceSteps(ctx, currency, BigInt(amount));
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

/** The collection an offer names, as the approval it needs from the holder. */
function tradedCollection(ctx: PlanContext, collection: `0x${string}`): TradedCollection {
  return (["card", "items", "box"] as const).find((key) => isAddressEqual(ctx.contracts[key], collection))!;
}

/** Refuses unless the wallet holds `amount` of the token now (the collection's owner, or its stack balance). */
async function requireHeld(ctx: PlanContext, collection: TradedCollection, tokenId: bigint, amount: bigint): Promise<void> {
  const address = ctx.contracts[collection];
  if (collection === "items") {
    const held = await ctx.client.readContract({ address, abi: sparkItemsAbi, functionName: "balanceOf", args: [ctx.wallet, tokenId] });
    if (held < amount) throw new Refusal(`Your wallet holds ${held} of item #${tokenId}, less than the ${amount} this offer asks for.`);
    return;
  }
  // ownerOf has the same ABI on the card and loot box collections; it reverts for a token that does not exist.
  const owner = await ctx.client.readContract({ address, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] }).catch(() => null);
  if (!owner || !isAddressEqual(owner, ctx.wallet)) throw new Refusal(`Item #${tokenId} is not in your wallet.`);
}

export const tradeAcceptOffer: Planner<"trade.acceptOffer"> = {
  async plan(ctx, params) {
    const offer = offerOf(ctx, params.offer);
    if (isAddressEqual(offer.buyer, ctx.wallet)) throw new Refusal(offerErrorMessage("SelfPurchase")!);
    const tokenId = BigInt(params.tokenId);
    const collection = tradedCollection(ctx, offer.collection);
    // Before any step: an approval mined for an item the wallet does not hold would be gas spent for a failure.
    await requireHeld(ctx, collection, tokenId, offer.standard === LISTING_STANDARD.erc1155 ? offer.amount : 1n);
    const steps = await approvalSteps(ctx, collection);
    // Without the approval the simulation can only say so; the plan sends it first.
    if (!steps.length) {
      const call = { functionName: "acceptOffer", args: [offer, params.offer.signature, tokenId] } as const;
      const refusal = await simulateTrade(ctx, call, 0n, offerErrorMessage);
      if (refusal) throw new Refusal(refusal);
    }
    const what = offer.standard === LISTING_STANDARD.erc1155 ? `${offer.amount} of item #${tokenId}` : `item #${tokenId}`;
    steps.push(
      tradeStep(ctx, `Accept the offer for ${what}`, {
        functionName: "acceptOffer",
        args: [offer, params.offer.signature, tokenId],
      }),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeCancelOffer: Planner<"trade.cancelOffer"> = {
  async plan(ctx, params) {
    const offer = offerOf(ctx, params.offer);
    if (!isAddressEqual(offer.buyer, ctx.wallet)) throw new Refusal(offerErrorMessage("NotBuyer")!);
    return [tradeStep(ctx, "Withdraw your offer", { functionName: "cancelOffers", args: [[offer]] })];
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

/** A token the executor gives away: a card or a loot box, named as the wallet's pages name it. */
const GIVEN = {
  card: { abi: sparkCardAbi, one: "item", many: "items", Noun: "Item" },
  box: { abi: blindBoxAbi, one: "loot box", many: "loot boxes", Noun: "Loot box" },
} as const;

/** A loot box's holder now, or null when it does not exist (never forged, or opened). */
export async function boxOwnerOf(client: PlanContext["client"], box: `0x${string}`, tokenId: bigint) {
  try {
    return await client.readContract({ address: box, abi: blindBoxAbi, functionName: "ownerOf", args: [tokenId] });
  } catch (error) {
    if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError)) return null;
    throw error;
  }
}

/** The tokens named, each the wallet's now, and the approval step the trading contract needs to move them (when missing). */
async function heldTokens(ctx: PlanContext, collection: keyof typeof GIVEN, ids: readonly string[]): Promise<PlannedStep[]> {
  const token = { address: ctx.contracts[collection], abi: GIVEN[collection].abi } as const;
  for (const id of ids) {
    const owner = await ctx.client.readContract({ ...token, functionName: "ownerOf", args: [BigInt(id)] }).catch(() => null);
    if (!owner || !isAddressEqual(owner, ctx.wallet)) throw new Refusal(`${GIVEN[collection].Noun} #${id} is not in your wallet.`);
  }
  return await approvalSteps(ctx, collection);
}

/** A transfer's recipient: another wallet than the sender's, and not the zero address. */
function requireRecipient(ctx: PlanContext, to: `0x${string}`) {
  if (isAddressEqual(to, ctx.wallet)) throw new Refusal("Send to another wallet than your own.");
  if (isAddressEqual(to, zeroAddress)) throw new Refusal("The zero address cannot receive items.");
}

export const tradeTransferNft: Planner<"trade.transferNft"> = {
  async plan(ctx, { to, tokenIds, collection = "card" }) {
    requireRecipient(ctx, to);
    const steps = await heldTokens(ctx, collection, tokenIds);
    const { one, many } = GIVEN[collection];
    const what = tokenIds.length === 1 ? `${one} #${tokenIds[0]}` : `${tokenIds.length} ${many}`;
    steps.push(
      tradeStep(ctx, `Send ${what} to ${getAddress(to)}`, {
        functionName: "transferNft",
        args: [ctx.contracts[collection], to, tokenIds.map(BigInt)],
      }),
    );
    return steps;
  },
  collect: async (_ctx, _kind, _receipt, result) => result,
};

export const tradeSendNft: Planner<"trade.sendNft"> = {
  async plan(ctx, { tokenId, account }) {
    const steps = await heldTokens(ctx, "card", [tokenId]);
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
