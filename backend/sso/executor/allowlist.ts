/**
 * What a managed wallet may be made to sign (docs/decisions/0005): calls of our deployed contracts, function by
 * function, with the spenders an approval may name, the value only a BNB purchase may carry, and a token transfer only
 * as a sponsored action's fee to the gas tank's fee receiver (decision 0038). Every
 * transaction the runner signs passes guardTransaction first, whatever planned it. Adding an action means a planner
 * and rows here.
 */
import { type Abi, type Address, decodeFunctionData, encodeFunctionData, type Hex, isAddressEqual, zeroAddress } from "viem";
import {
  assetManagerAbi,
  blindBoxAbi,
  blindBoxOpenerAbi,
  blindBoxSaleAbi,
  fireStakingAbi,
  gameTokenAbi,
  rewardManagerAbi,
  sparkCardAbi,
  sparkErrorsAbi,
  sparkItemsAbi,
  starshipManagerAbi,
  tradingAbi,
} from "../../../contracts/generated/abi";
import { OPEN_BATCH_MAX, OPEN_BATCH_MIN } from "~core/constants";
import { stackOfTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { STAKE_POOLS } from "~core/pools";
import { SHIP_SLOT_COUNT } from "~core/spaceship";
import type { BackendChain } from "../../types";
import { type CappedCurrency, MATERIALS_CAP_PER_ACTION } from "./policy";

/** The game's tag in swaps: the one game this market serves. */
export const GAME_TAG = 1n;

export type Contracts = BackendChain["contracts"];
export type ContractKey = keyof Contracts;

/** A transaction as planned: the guard sees exactly what would be signed. */
export interface TxRequest {
  to: Address;
  data: Hex;
  value: bigint;
}

export interface GuardContext {
  contracts: Contracts;
  /** The managed wallet that would sign: a claim may pay only it. */
  wallet: Address;
  valueCaps: Record<CappedCurrency, bigint>;
  /** The sale's BNB price of one box of this type now (0 when not for BNB); only a native purchase asks. */
  nativePrice(boxType: bigint): Promise<bigint>;
  /** A SparkCard token's holder and NFT type now, or null when it does not exist; only spaceship calls ask. */
  card(tokenId: bigint): Promise<{ owner: Address; nftType: number } | null>;
  /** A loot box's holder now, or null when it does not exist; only a transfer of boxes asks. */
  boxOwner(tokenId: bigint): Promise<Address | null>;
  /** Where a sponsored action's fee in tokens goes (decision 0038); unset, no token may be transferred at all. */
  feeReceiver?: Address;
}

/** Why a call's arguments or value are refused, or null when they pass. */
type Rule = (args: readonly unknown[], value: bigint, ctx: GuardContext) => string | null | Promise<string | null>;

/** The allowlisted call a transaction decodes to, with the ABI (errors included) to simulate it. */
export interface AllowedCall {
  contract: ContractKey;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

export class GuardRefusal extends Error {}

/** Which of our contracts an ERC-20 approval may name as spender. The opener's approval is setApprovalForAll. */
export const APPROVE_SPENDERS: Readonly<Partial<Record<ContractKey, readonly ContractKey[]>>> = {
  usdt: ["boxSale", "trading"],
  quark: ["boxSale", "assetManager", "starship", "trading"],
  fire: ["staking", "assetManager", "starship", "trading"],
};

const noValue = (value: bigint) => (value === 0n ? null : "may not carry BNB");

const approve =
  (token: ContractKey, currency: CappedCurrency): Rule =>
  ([spender, amount], value, { contracts, valueCaps }) => {
    const allowed = (APPROVE_SPENDERS[token] ?? []).some((key) => isAddressEqual(contracts[key], spender as Address));
    if (!allowed) return `spender ${String(spender)} is not allowed`;
    // Exactly what an action needs, so never more than one action may pay.
    if ((amount as bigint) <= 0n || (amount as bigint) > valueCaps[currency]) return "amount is outside the per-action cap";
    return noValue(value);
  };

/** A sponsored action's fee (decision 0038): a token transfer to the gas tank's fee receiver only, within the per-action cap. */
const feeTransfer =
  (currency: CappedCurrency): Rule =>
  ([to, amount], value, { feeReceiver, valueCaps }) => {
    if (!feeReceiver || !isAddressEqual(to as Address, feeReceiver))
      return "a token may be transferred only to the gas tank's fee receiver";
    if ((amount as bigint) <= 0n || (amount as bigint) > valueCaps[currency]) return "amount is outside the per-action cap";
    return noValue(value);
  };

const quantityOk = (quantity: unknown) => (quantity as bigint) >= BigInt(OPEN_BATCH_MIN) && (quantity as bigint) <= BigInt(OPEN_BATCH_MAX);

const buyWithErc20: Rule = ([, quantity, token], value, { contracts }) => {
  if (!quantityOk(quantity)) return "quantity is outside 1-10";
  if (![contracts.usdt, contracts.quark].some((address) => isAddressEqual(address, token as Address))) return "token is not USDT or QUARK";
  return noValue(value);
};

const buyWithNativeToken: Rule = async ([boxType, quantity], value, { valueCaps, nativePrice }) => {
  if (!quantityOk(quantity)) return "quantity is outside 1-10";
  const price = await nativePrice(boxType as bigint);
  if (price === 0n || value !== price * (quantity as bigint)) return "value is not the price of the boxes";
  return value > valueCaps.BNB ? "value is above the per-action cap" : null;
};

/** A wallet's loot boxes may be approved for the opener (it burns what is opened) and the trading contract (it moves what is sold) only. */
const setApprovalForAll: Rule = ([operator, approved], value, { contracts }) => {
  const allowed = isAddressEqual(operator as Address, contracts.opener) || isAddressEqual(operator as Address, contracts.trading);
  if (!allowed || approved !== true) return "only the opener or the trading contract may be approved";
  return noValue(value);
};

const batchOpen: Rule = ([count], value) => (quantityOk(count) ? noValue(value) : "count is outside 1-10");
const batchOpenOfType: Rule = ([, count], value) => (quantityOk(count) ? noValue(value) : "count is outside 1-10");
const batchOpenWithIds: Rule = ([ids], value) =>
  quantityOk(BigInt((ids as readonly bigint[]).length)) ? noValue(value) : "1-10 boxes per call";

const knownPool = (poolId: unknown) => STAKE_POOLS.some((pool) => BigInt(pool.id) === poolId);

const deposit: Rule = ([poolId, amount], value, { valueCaps }) => {
  if (!knownPool(poolId)) return "not a pool of the catalogue";
  if ((amount as bigint) <= 0n || (amount as bigint) > valueCaps.FIRE) return "amount is outside the per-action cap";
  return noValue(value);
};

const withdrawAndClaim: Rule = ([poolId], value) => (knownPool(poolId) ? noValue(value) : "not a pool of the catalogue");

const claim: Rule = ([account], value, { wallet }) =>
  isAddressEqual(account as Address, wallet) ? noValue(value) : "a claim may pay only the signing wallet";

const swapToken: Rule = ([token, amount], value, { contracts, valueCaps }) => {
  const currency = isAddressEqual(token as Address, contracts.fire)
    ? "FIRE"
    : isAddressEqual(token as Address, contracts.quark)
      ? "QUARK"
      : null;
  if (!currency) return "token is not FIRE or QUARK";
  if ((amount as bigint) <= 0n || (amount as bigint) > valueCaps[currency]) return "amount is outside the per-action cap";
  return noValue(value);
};

const swapNft: Rule = ([nft], value, { contracts }) =>
  isAddressEqual(nft as Address, contracts.card) ? noValue(value) : "only the card collection moves into the game";

/** An amount of a SparkItems stack into the game: SparkItems only, an id that names a stack, this game's tag. */
const swapItems: Rule = ([items, id, amount, gameTag], value, { contracts }) => {
  if (!isAddressEqual(items as Address, contracts.items)) return "only SparkItems stacks move into the game this way";
  if (stackOfTokenId(id as bigint) === null) return `id ${String(id)} is no stack`;
  if ((amount as bigint) <= 0n || (amount as bigint) > MATERIALS_CAP_PER_ACTION) return "amount is outside the per-action cap";
  return gameTag === GAME_TAG ? noValue(value) : `game tag ${String(gameTag)} is not this game's`;
};

/**
 * A wallet's SparkItems may be approved for the asset manager (it burns what is swapped in) and the trading contract
 * (it moves what is sold or transferred) only.
 */
const approveItems: Rule = ([operator, approved], value, { contracts }) => {
  const allowed = isAddressEqual(operator as Address, contracts.assetManager) || isAddressEqual(operator as Address, contracts.trading);
  if (!allowed || approved !== true) return "only the asset manager or the trading contract may be approved";
  return noValue(value);
};

/** A card may be approved for the asset manager only, one token at a time (a swap into the game). */
const approveCard: Rule = ([spender], value, { contracts }) =>
  isAddressEqual(spender as Address, contracts.assetManager) ? noValue(value) : `spender ${String(spender)} is not allowed`;

/** Chain mints count up from 1 and game items keep their GAME_TOKEN_ID_BASE + n ids: anything above 2^64 is no token of ours. */
const TOKEN_ID_LIMIT = 2n ** 64n;

/** Why `id` may not be named as the signing wallet's token of `nftType`, or null. */
async function heldToken(id: unknown, nftType: number, what: string, { card, wallet }: GuardContext): Promise<string | null> {
  const tokenId = id as bigint;
  if (tokenId < 1n || tokenId >= TOKEN_ID_LIMIT) return `${what} id ${tokenId} is out of range`;
  const token = await card(tokenId);
  if (!token || token.nftType !== nftType || !isAddressEqual(token.owner, wallet))
    return `token ${tokenId} is not a ${what} of the signing wallet`;
  return null;
}

const slotOk = (slot: unknown) => Number(slot) >= 0 && Number(slot) < SHIP_SLOT_COUNT;

/** explore, recall, repair, upgrade, openSlot: a ship of the signing wallet. */
const shipCall: Rule = async ([shipId], value, ctx) => (await heldToken(shipId, NFT_TYPE.spaceship, "ship", ctx)) ?? noValue(value);

const fit: Rule = async ([shipId, slot, equipmentId], value, ctx) => {
  if (!slotOk(slot)) return `slot ${String(slot)} is outside 0-${SHIP_SLOT_COUNT - 1}`;
  return (
    (await heldToken(shipId, NFT_TYPE.spaceship, "ship", ctx)) ??
    (await heldToken(equipmentId, NFT_TYPE.equipment, "piece of equipment", ctx)) ??
    noValue(value)
  );
};

const unfit: Rule = async ([shipId, slot], value, ctx) => {
  if (!slotOk(slot)) return `slot ${String(slot)} is outside 0-${SHIP_SLOT_COUNT - 1}`;
  return (await heldToken(shipId, NFT_TYPE.spaceship, "ship", ctx)) ?? noValue(value);
};

const sendMaterialsToGame: Rule = ([amounts, gameTag], value) => {
  const sent = amounts as readonly bigint[];
  if (sent.every((amount) => amount === 0n)) return "sends nothing";
  if (sent.some((amount) => amount > MATERIALS_CAP_PER_ACTION)) return "an amount is above the per-action cap";
  return gameTag === GAME_TAG ? noValue(value) : `game tag ${String(gameTag)} is not this game's`;
};

/** The card collection may be approved for the trading contract only, whose listings sell the wallet's cards. */
const approveTrading: Rule = ([operator, approved], value, { contracts }) =>
  isAddressEqual(operator as Address, contracts.trading) && approved === true
    ? noValue(value)
    : "only the trading contract may be approved";

interface ListingArg {
  seller: Address;
  collection: Address;
  currency: Address;
  price: bigint;
}

/** A fill of a card or stack listing, paying exactly its price: BNB as the value, an ERC-20 pulled (value 0); within the caps. */
const quickSale: Rule = ([listing], value, { contracts, valueCaps }) => {
  const { collection, currency, price } = listing as ListingArg;
  if (!([contracts.card, contracts.box, contracts.items] as const).some((traded) => isAddressEqual(collection, traded)))
    return "only listings of the card, loot box or SparkItems collection";
  const named = (["usdt", "quark", "fire"] as const).find((key) => isAddressEqual(contracts[key], currency));
  if (isAddressEqual(currency, zeroAddress)) {
    if (value !== price) return "value is not the listing's price";
    return value > valueCaps.BNB ? "value is above the per-action cap" : null;
  }
  if (!named) return "currency is not FIRE, QUARK, USDT or BNB";
  const cap = valueCaps[named === "usdt" ? "USDT" : named === "quark" ? "QUARK" : "FIRE"];
  if (price > cap) return "price is above the per-action cap";
  return noValue(value);
};

/** A cancel of the signing wallet's own listings only. */
const cancelListings: Rule = ([listings], value, { wallet }) =>
  (listings as readonly ListingArg[]).every((listing) => isAddressEqual(listing.seller, wallet))
    ? noValue(value)
    : "a listing of another seller";

/** An offer on a card, loot box or stack, accepted by its holder (never the buyer): the holder pays nothing. */
const acceptOffer: Rule = ([offer], value, { contracts, wallet }) => {
  const { buyer, collection } = offer as { buyer: Address; collection: Address };
  if (!([contracts.card, contracts.box, contracts.items] as const).some((traded) => isAddressEqual(collection, traded)))
    return "only offers on the card, loot box or SparkItems collection";
  if (isAddressEqual(buyer, wallet)) return "an offer of the signing wallet's own";
  return noValue(value);
};

/** A withdrawal of the signing wallet's own offers only. */
const cancelOffers: Rule = ([offers], value, { wallet }) =>
  (offers as readonly { buyer: Address }[]).every((offer) => isAddressEqual(offer.buyer, wallet))
    ? noValue(value)
    : "an offer of another buyer";

/** Cards or loot boxes of the signing wallet, out of those two collections only: at most 10 to one other, non-zero wallet. */
const transferNft: Rule = async ([collection, to, ids], value, ctx) => {
  const boxes = isAddressEqual(collection as Address, ctx.contracts.box);
  if (!boxes && !isAddressEqual(collection as Address, ctx.contracts.card)) return "only the card or loot box collection";
  if (isAddressEqual(to as Address, zeroAddress) || isAddressEqual(to as Address, ctx.wallet))
    return "to is the zero address or the wallet";
  const tokenIds = ids as readonly bigint[];
  if (tokenIds.length < 1 || tokenIds.length > 10) return "1-10 tokens per call";
  for (const id of tokenIds) {
    const owner = boxes ? await ctx.boxOwner(id) : (await ctx.card(id))?.owner;
    if (!owner || !isAddressEqual(owner, ctx.wallet)) return `token ${id} is not the signing wallet's`;
  }
  return noValue(value);
};

/** Stacks of SparkItems only, 1-10 ids, each a stack and within the per-action cap, to one other, non-zero wallet. */
const transferItems: Rule = ([collection, to, ids, amounts], value, ctx) => {
  if (!isAddressEqual(collection as Address, ctx.contracts.items)) return "only SparkItems stacks";
  if (isAddressEqual(to as Address, zeroAddress) || isAddressEqual(to as Address, ctx.wallet))
    return "to is the zero address or the wallet";
  const [stackIds, sent] = [ids as readonly bigint[], amounts as readonly bigint[]];
  if (stackIds.length < 1 || stackIds.length > 10 || sent.length !== stackIds.length) return "1-10 stacks per call, an amount each";
  const notStack = stackIds.find((id) => stackOfTokenId(id) === null);
  if (notStack !== undefined) return `id ${notStack} is no stack`;
  if (sent.some((amount) => amount <= 0n || amount > MATERIALS_CAP_PER_ACTION)) return "an amount is outside the per-action cap";
  return noValue(value);
};

const sendNft: Rule = async ([collection, id], value, ctx) => {
  if (!isAddressEqual(collection as Address, ctx.contracts.card)) return "only the card collection";
  const token = await ctx.card(id as bigint);
  if (!token || !isAddressEqual(token.owner, ctx.wallet)) return `token ${String(id)} is not the signing wallet's`;
  return noValue(value);
};

/** The allowlist: contract of the deployment → function → rule. */
export const ALLOWLIST: Readonly<Partial<Record<ContractKey, { abi: Abi; functions: Readonly<Record<string, Rule>> }>>> = {
  usdt: { abi: [...gameTokenAbi, ...sparkErrorsAbi], functions: { approve: approve("usdt", "USDT"), transfer: feeTransfer("USDT") } },
  quark: { abi: [...gameTokenAbi, ...sparkErrorsAbi], functions: { approve: approve("quark", "QUARK"), transfer: feeTransfer("QUARK") } },
  fire: { abi: [...gameTokenAbi, ...sparkErrorsAbi], functions: { approve: approve("fire", "FIRE"), transfer: feeTransfer("FIRE") } },
  boxSale: { abi: [...blindBoxSaleAbi, ...sparkErrorsAbi], functions: { buyWithErc20, buyWithNativeToken } },
  box: { abi: [...blindBoxAbi, ...sparkErrorsAbi], functions: { setApprovalForAll } },
  opener: { abi: [...blindBoxOpenerAbi, ...sparkErrorsAbi], functions: { batchOpen, batchOpenOfType, batchOpenWithIds } },
  staking: { abi: [...fireStakingAbi, ...sparkErrorsAbi], functions: { deposit, withdrawAndClaim } },
  assetManager: {
    abi: [...assetManagerAbi, ...sparkErrorsAbi],
    functions: {
      claimToken: claim,
      claimNft: claim,
      claimItem1155: claim,
      swapTokenToGame: swapToken,
      swapNftToGame: swapNft,
      swapItem1155ToGame: swapItems,
    },
  },
  card: { abi: [...sparkCardAbi, ...sparkErrorsAbi], functions: { approve: approveCard, setApprovalForAll: approveTrading } },
  items: { abi: [...sparkItemsAbi, ...sparkErrorsAbi], functions: { setApprovalForAll: approveItems } },
  trading: {
    abi: [...tradingAbi, ...sparkErrorsAbi],
    functions: {
      quickSale,
      cancel: cancelListings,
      incrementCounter: (_args, value) => noValue(value),
      acceptOffer,
      cancelOffers,
      transferNft,
      transferItem1155: transferItems,
      sendNft,
    },
  },
  rewardManager: { abi: [...rewardManagerAbi, ...sparkErrorsAbi], functions: { awardClaim: claim } },
  starship: {
    abi: [...starshipManagerAbi, ...sparkErrorsAbi],
    functions: {
      explore: shipCall,
      recall: shipCall,
      repair: shipCall,
      upgrade: shipCall,
      openSlot: shipCall,
      fit,
      unfit,
      sendMaterialsToGame,
    },
  },
};

/** The allowlisted call `tx` makes, or a GuardRefusal saying why it may not be signed. */
export async function guardTransaction(tx: TxRequest, ctx: GuardContext): Promise<AllowedCall> {
  const contract = (Object.keys(ctx.contracts) as ContractKey[]).find((key) => isAddressEqual(ctx.contracts[key], tx.to));
  const entry = contract && ALLOWLIST[contract];
  if (!contract || !entry) throw new GuardRefusal(`${tx.to} is not a contract on the allowlist`);
  let call: { functionName: string; args: readonly unknown[] };
  try {
    const decoded = decodeFunctionData({ abi: entry.abi, data: tx.data });
    call = { functionName: decoded.functionName, args: decoded.args ?? [] };
  } catch {
    throw new GuardRefusal(`the calldata is no function of ${contract}`);
  }
  // Re-encoding must give the same bytes: nothing may ride along after the arguments.
  if (encodeFunctionData({ abi: entry.abi, functionName: call.functionName, args: call.args }) !== tx.data.toLowerCase()) {
    throw new GuardRefusal(`the calldata of ${contract}.${call.functionName} is not canonical`);
  }
  const rule = entry.functions[call.functionName];
  if (!rule) throw new GuardRefusal(`${contract}.${call.functionName} is not on the allowlist`);
  const why = await rule(call.args, tx.value, ctx);
  if (why) throw new GuardRefusal(`${contract}.${call.functionName}: ${why}`);
  return { contract, abi: entry.abi, ...call };
}
