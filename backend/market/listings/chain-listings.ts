/**
 * Chain listings (docs/api/market.md "Chain listings"): a seller's signed Trading listing (core/trading.ts) kept in
 * market_listings beside the ledger's (venue 1), so the market grid, the filters and the item page show both. The
 * backend never fills one: a buyer's wallet (or the executor) calls quickSale with the stored order, and the
 * indexer's trading stream closes it from the chain's events (indexer/trading.ts).
 */
import { type Address, createPublicClient, getAddress, type Hex, type PublicClient, verifyTypedData } from "viem";
import { sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../../contracts/generated/abi";
import { sameAddress } from "~core/address";
import type { ChainOrder } from "~core/api/market";
import type { ContractAddresses } from "~core/contracts";
import { chainStackOf, chainStackTokenId } from "~core/item-moves";
import { stackOfTokenId } from "~core/item-tokens";
import { readableChain } from "~core/chain-transport";
import { type Currency, isCurrency } from "~core/money";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import {
  LISTING_STANDARD,
  LISTING_STATE,
  type Listing,
  type ListingStandard,
  type ListingState,
  listingHash,
  listingOfOrder,
  listingTypedData,
  MAX_LISTING_DAYS,
  tradingCurrencies,
  tradingCurrencyOf,
} from "~core/trading";
import { backendTransport } from "../../chain-transport";
import { ApiError } from "../../http";
import type { BackendChain } from "../../types";
import { recordActivity } from "../shared/activity";
import type { ChainSellInput } from "./chain-listing-schemas";
import type { Sql } from "../shared/db";
import { type ItemRow, type ListingRow, MSG, activeListing, insertListing } from "../shared/items";
import { alertWatches } from "../watches";
import { ACTIVITY_KIND, LISTING_VENUE, LOCATION } from "../shared/tables";

/** How a refusal names the state Trading.listingState gave. */
const LISTING_STATE_WORDS: Record<ListingState, string> = {
  [LISTING_STATE.open]: "open",
  [LISTING_STATE.filled]: "filled",
  [LISTING_STATE.cancelled]: "cancelled",
  [LISTING_STATE.expired]: "expired",
  [LISTING_STATE.voided]: "voided by a cancel all",
};

export const CHAIN_LISTING_MSG = {
  noChain: "Chain listings are not available: this market follows no chain",
  notYourWallet: "seller: expected the wallet bound to your account",
  standard: "standard: expected 0 (ERC-721) for a card or loot box, 1 (ERC-1155) for a SparkItems stack",
  amount: "amount: expected 1 for an ERC-721 item",
  noAmount: "amount: expected at least 1 of the stack",
  moreThanHeld: (held: bigint) => `amount: more than you hold on chain (${held})`,
  collection: "collection: expected the card, loot box or SparkItems collection",
  currency: "currency: expected the token address of FIRE, QUARK or USDT, or the zero address for BNB",
  currencyNotAllowed: "currency: the trading contract does not accept this currency",
  expired: "expiry: the listing has already expired",
  tooFar: `expiry: at most ${MAX_LISTING_DAYS} days ahead`,
  badSignature: "signature: not the seller's signature of this listing for this chain and trading contract",
  notHeld: "The item is not held on chain by the seller",
  counter: (current: bigint) =>
    `counter: your listings were cancelled on chain (cancel all) since you signed; sign again under counter ${current}`,
  notApproved: "Approve the trading contract for this collection first (setApprovalForAll), then list again",
  notOpen: (state: ListingState) =>
    `This listing is ${LISTING_STATE_WORDS[state]} on chain: the trading contract no longer takes it; sign a new one`,
  chainDown: "The chain cannot be read right now; please try again shortly",
  onChainBuy: "This item is listed on chain: buy it with your wallet",
  onChainCancel: "This listing is on chain: cancel it with your wallet",
} as const;

/** The token address a Trading listing names for one of the market's currencies. */
function currencyAddress(contracts: ContractAddresses, currency: string): Address {
  if (!isCurrency(currency)) throw new Error(`no Trading currency for ${currency}`);
  return getAddress(tradingCurrencies(contracts)[currency]);
}

/** A stored chain listing as the wire carries it (what quickSale takes); null for a ledger listing. */
export function chainOrderOf(row: ListingRow, contracts: ContractAddresses | undefined): ChainOrder | null {
  if (row.venue !== LISTING_VENUE.chain || !contracts) return null;
  return {
    orderHash: row.order_hash as Hex,
    seller: getAddress(row.seller_address),
    collection: getAddress(row.collection!),
    standard: row.standard!,
    tokenId: listedTokenId(row.standard!, row.token_id),
    amount: row.amount!,
    currency: currencyAddress(contracts, row.currency),
    price: BigInt(row.price).toString(),
    expiry: String(row.expiry),
    salt: row.salt!,
    counter: row.counter!,
    signature: row.signature as Hex,
  };
}

/** How long an item page waits for the chain's word on its listing: a slow node must not stall the page. */
const LISTING_STATE_WAIT_MS = 2_000;

/**
 * Whether the chain still takes a stored chain listing (Trading.listingState open). The chain can be ahead of the
 * market: the indexer closes a listing from its events only once it reads their block, and the expiry sweep goes by our
 * clock, not the chain's. A listing the chain calls expired or voided (cancel all) is then no longer on sale. True
 * when the chain does not answer in time: quickSale itself still refuses what is not open.
 */
export async function chainTakesListing(chain: BackendChain, row: ListingRow): Promise<boolean> {
  const order = chainOrderOf(row, chain.contracts);
  if (!order) return true;
  let timer: NodeJS.Timeout | undefined;
  const state = await Promise.race([
    chainClientOf(chain)
      .readContract({ address: chain.contracts.trading, abi: tradingAbi, functionName: "listingState", args: [listingOfOrder(order)] })
      .catch(() => null),
    new Promise<null>((resolve) => (timer = setTimeout(resolve, LISTING_STATE_WAIT_MS, null))),
  ]);
  clearTimeout(timer);
  return state === null || state === LISTING_STATE.open;
}

/** The token id a listing names: the item's own, or for a chain stack (one item per holder) its SparkItems id. */
function listedTokenId(standard: number, itemTokenId: string): string {
  if (standard !== LISTING_STANDARD.erc1155) return itemTokenId;
  return chainStackOf(itemTokenId)!.id.toString();
}

/** The standard a collection's items are listed under, or null for a collection the market does not list. */
function standardOf(contracts: ContractAddresses, collection: Address): ListingStandard | null {
  if (sameAddress(collection, contracts.card) || sameAddress(collection, contracts.box)) return LISTING_STANDARD.erc721;
  if (sameAddress(collection, contracts.items)) return LISTING_STANDARD.erc1155;
  return null;
}

/**
 * The market item of a collection's token held by `holder`: a SparkCard id is unique across the card kinds (one
 * collection); a SparkItems id is one stack per holder (core/item-moves.ts chainStackTokenId).
 */
export async function itemOfToken(
  db: Sql,
  contracts: ContractAddresses,
  collection: Address,
  tokenId: string,
  holder: Address,
): Promise<ItemRow | undefined> {
  if (sameAddress(collection, contracts.items)) {
    const stack = stackOfTokenId(BigInt(tokenId));
    if (!stack) return undefined;
    return await db.get<ItemRow>("select * from market_items where nft_type = ? and token_id = ?", [
      stack.nftType,
      chainStackTokenId(BigInt(tokenId), holder),
    ]);
  }
  if (sameAddress(collection, contracts.card)) {
    return await db.get<ItemRow>(`select * from market_items where nft_type in (${CARD_COLLECTION_TYPES.join(", ")}) and token_id = ?`, [
      tokenId,
    ]);
  }
  if (sameAddress(collection, contracts.box)) {
    return await db.get<ItemRow>("select * from market_items where nft_type = ? and token_id = ?", [NFT_TYPE.lootbox, tokenId]);
  }
  return undefined;
}

const clients = new WeakMap<BackendChain, PublicClient>();

/** The market's reads of the chain for a listing or an offer: one client per chain, its reads batched. */
export function chainClientOf(chain: BackendChain): PublicClient {
  let client = clients.get(chain);
  if (!client) {
    client = createPublicClient({
      chain: readableChain(chain.chainId),
      // Concurrent reads (an item's offers' payability, listings' states): one Multicall3 call.
      batch: { multicall: true },
      // Reads are safe to repeat: a request that failed once (a busy node, a dropped answer) is asked twice more.
      transport: backendTransport(chain, "market", { batch: true, retryCount: 2, timeoutMs: 5_000 }),
    });
    clients.set(chain, client);
  }
  return client;
}

export interface CheckedChainListing {
  listing: Listing;
  signature: Hex;
  orderHash: Hex;
  currency: Currency;
}

/**
 * The checks of a chain listing before it is stored, cheapest first: its shape, the signature, the item's row
 * (held on chain by the seller, not on sale), then what only the chain knows (currency allowed, the seller's
 * counter, the approval quickSale needs). Every refusal is a 4xx in the product's words.
 */
export async function requireChainSellable(
  db: Sql,
  chain: BackendChain | undefined,
  wallet: string,
  input: ChainSellInput,
  now: number,
): Promise<CheckedChainListing> {
  if (!chain) throw new ApiError(400, CHAIN_LISTING_MSG.noChain);
  const { contracts } = chain;
  if (!sameAddress(input.seller, wallet)) throw new ApiError(403, CHAIN_LISTING_MSG.notYourWallet);
  const standard = standardOf(contracts, input.collection);
  if (standard === null) throw new ApiError(400, CHAIN_LISTING_MSG.collection);
  if (input.standard !== standard) throw new ApiError(400, CHAIN_LISTING_MSG.standard);
  const stack = standard === LISTING_STANDARD.erc1155;
  if (!stack && input.amount !== 1n) throw new ApiError(400, CHAIN_LISTING_MSG.amount);
  if (stack && input.amount === 0n) throw new ApiError(400, CHAIN_LISTING_MSG.noAmount);
  const currency = tradingCurrencyOf(contracts, getAddress(input.currency));
  if (!currency) throw new ApiError(400, CHAIN_LISTING_MSG.currency);
  const nowSeconds = BigInt(Math.floor(now / 1000));
  if (input.expiry <= nowSeconds) throw new ApiError(400, CHAIN_LISTING_MSG.expired);
  if (input.expiry > nowSeconds + BigInt(MAX_LISTING_DAYS * 86_400)) throw new ApiError(400, CHAIN_LISTING_MSG.tooFar);

  const listing: Listing = {
    seller: input.seller,
    collection: input.collection,
    standard,
    tokenId: BigInt(input.tokenId),
    amount: input.amount,
    currency: input.currency,
    price: input.price,
    expiry: input.expiry,
    salt: input.salt,
    counter: input.counter,
  };
  const typed = listingTypedData(listing, chain.chainId, contracts.trading);
  const valid = await verifyTypedData({ ...typed, address: input.seller, signature: input.signature }).catch(() => false);
  if (!valid) throw new ApiError(400, CHAIN_LISTING_MSG.badSignature);

  await requireListableItem(db, contracts, input.seller, input.collection, input.tokenId);

  const client = chainClientOf(chain);
  const trading = { address: contracts.trading, abi: tradingAbi } as const;
  const [allowed, counter, state, approved, held] = await Promise.all([
    client.readContract({ ...trading, functionName: "currencyAllowed", args: [input.currency] }),
    client.readContract({ ...trading, functionName: "counterOf", args: [input.seller] }),
    // Filled or cancelled already, or expired by the chain's clock: the signature alone cannot tell.
    client.readContract({ ...trading, functionName: "listingState", args: [listing] }),
    // isApprovedForAll has the same ABI on every collection.
    client.readContract({
      address: input.collection,
      abi: sparkCardAbi,
      functionName: "isApprovedForAll",
      args: [input.seller, contracts.trading],
    }),
    // What quickSale moves of a stack must still be the seller's; an ERC-721 item's holder is its row's (above).
    stack
      ? client.readContract({
          address: input.collection,
          abi: sparkItemsAbi,
          functionName: "balanceOf",
          args: [input.seller, listing.tokenId],
        })
      : input.amount,
  ]).catch((error: unknown) => {
    throw new ApiError(503, CHAIN_LISTING_MSG.chainDown, { cause: error });
  });
  if (!allowed) throw new ApiError(400, CHAIN_LISTING_MSG.currencyNotAllowed);
  if (counter !== input.counter) throw new ApiError(409, CHAIN_LISTING_MSG.counter(counter));
  if (state !== LISTING_STATE.open) throw new ApiError(409, CHAIN_LISTING_MSG.notOpen(state as ListingState));
  if (held < input.amount) throw new ApiError(409, CHAIN_LISTING_MSG.moreThanHeld(held));
  if (!approved) throw new ApiError(409, CHAIN_LISTING_MSG.notApproved);
  return { listing, signature: input.signature, orderHash: listingHash(listing, chain.chainId, contracts.trading), currency };
}

/** The seller's chain-held item with no active listing (either venue), or the reason it cannot be listed. */
async function requireListableItem(db: Sql, contracts: ContractAddresses, seller: Address, collection: Address, tokenId: string) {
  const item = await itemOfToken(db, contracts, collection, tokenId, seller);
  if (!item || item.location !== LOCATION.chain || !sameAddress(item.owner_address, seller)) {
    throw new ApiError(409, CHAIN_LISTING_MSG.notHeld);
  }
  if (await activeListing(db, item.id)) throw new ApiError(409, MSG.alreadyOnSale);
  return item;
}

/** Stores a checked chain listing as active, in the caller's transaction: checks the item again, then inserts. */
export async function chainSell(db: Sql, contracts: ContractAddresses, checked: CheckedChainListing, now: number) {
  const { listing } = checked;
  const item = await requireListableItem(db, contracts, listing.seller, listing.collection, listing.tokenId.toString());
  // A concurrent listing of the item (either venue) meets the one-active-listing key, the same order the order-hash key.
  const listingId = await insertListing(db, item, {
    seller: getAddress(listing.seller),
    price: listing.price,
    currency: checked.currency,
    listedAt: now,
    expiry: Number(listing.expiry),
    signature: checked.signature,
    chain: {
      collection: getAddress(listing.collection),
      standard: listing.standard,
      amount: listing.amount.toString(),
      salt: listing.salt.toString(),
      counter: listing.counter.toString(),
      orderHash: checked.orderHash,
    },
  });
  if (listingId === null) throw new ApiError(409, MSG.alreadyOnSale);
  await alertWatches(db, listingId, now);
  await recordActivity(db, {
    kind: ACTIVITY_KIND.list,
    item,
    listingId,
    from: getAddress(listing.seller),
    price: listing.price,
    currency: checked.currency,
    at: now,
  });
  return { listingId, item };
}
