/**
 * The trading contract's signed listing (contracts/src/Trading.sol, docs/decisions/0015-trading-contract.md) in one
 * place for the market backend that stores listings, the executor and the wallet island that sign and fill them,
 * the pages that word its refusals, and the tests: the EIP-712 domain and types, the order hash, the fee.
 */
import { hashTypedData, isAddressEqual, zeroAddress, type Address, type Hex } from "viem";
import type { ChainOffer, ChainOrder } from "./api/market";
import { CURRENCIES, type Currency } from "./money";

// The refusals' words live apart, without viem, so a page or core/chain-errors.ts can take them alone.
export { TRADING_ERROR_MESSAGES, offerErrorMessage, tradingErrorMessage, type TradingErrorName } from "./trading-errors";

export const TRADING_DOMAIN_NAME = "Spark Era Trading";
export const TRADING_DOMAIN_VERSION = "1";

/** Listing.standard: the kind of collection the listed item is in. */
export const LISTING_STANDARD = { erc721: 0, erc1155: 1 } as const;
export type ListingStandard = (typeof LISTING_STANDARD)[keyof typeof LISTING_STANDARD];

/** Trading.orderStatus(orderHash): what was written for the hash, so an expired or counter-voided one reads open. */
export const ORDER_STATUS = { open: 0, filled: 1, cancelled: 2 } as const;

/** Trading.listingState(listing): the listing's effective state, expired and voided (an older counter) included. */
export const LISTING_STATE = { ...ORDER_STATUS, expired: 3, voided: 4 } as const;
export type ListingState = (typeof LISTING_STATE)[keyof typeof LISTING_STATE];

/** The fee the local deployment sets: 2.5 % of the price, to the deployer's treasury (issue 29 moves it). */
export const SEEDED_FEE_BPS = 250;
/** Trading.MAX_FEE_BPS: the owner can never set more than 10 %. */
export const MAX_FEE_BPS = 1000;

/** The furthest ahead a listing the market stores (or the SSO signs) may expire: a forgotten one should not stay fillable for years. */
export const MAX_LISTING_DAYS = 180;

export interface Listing {
  seller: Address;
  collection: Address;
  standard: ListingStandard;
  tokenId: bigint;
  /** 1 for ERC-721; for ERC-1155 the whole amount, sold in one fill. */
  amount: bigint;
  /** An allowed ERC-20 (FIRE, QUARK, USDT), or the zero address for BNB. */
  currency: Address;
  /** What the buyer pays in total, in wei. */
  price: bigint;
  /** Unix seconds; the listing cannot be filled after it. */
  expiry: bigint;
  /** Random: two otherwise equal listings get different hashes. */
  salt: bigint;
  /** The seller's Trading.counterOf when signed; incrementCounter cancels every listing signed under it. */
  counter: bigint;
}

/** viem typed-data types; the type string is Listing(address seller,...,uint256 counter). */
export const LISTING_TYPES = {
  Listing: [
    { name: "seller", type: "address" },
    { name: "collection", type: "address" },
    { name: "standard", type: "uint8" },
    { name: "tokenId", type: "uint256" },
    { name: "amount", type: "uint256" },
    { name: "currency", type: "address" },
    { name: "price", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
} as const;

export interface TradingDomain {
  name: typeof TRADING_DOMAIN_NAME;
  version: typeof TRADING_DOMAIN_VERSION;
  chainId: number;
  verifyingContract: Address;
}

export function tradingDomain(chainId: number, trading: Address): TradingDomain {
  return { name: TRADING_DOMAIN_NAME, version: TRADING_DOMAIN_VERSION, chainId, verifyingContract: trading };
}

/** What a seller signs: pass it to signTypedData (viem account or wallet client, or eth_signTypedData_v4). */
export function listingTypedData(listing: Listing, chainId: number, trading: Address) {
  return { domain: tradingDomain(chainId, trading), types: LISTING_TYPES, primaryType: "Listing" as const, message: listing };
}

/** The order hash: the EIP-712 digest signed, equal to Trading.hashListing and the key of orderStatus and Sale. */
export function listingHash(listing: Listing, chainId: number, trading: Address): Hex {
  return hashTypedData(listingTypedData(listing, chainId, trading));
}

/**
 * A buyer's signed offer (Trading.TradeOffer, decision 0024). dataMask 0: the one token tokenId. dataMask non-zero: a
 * collection offer for any ERC-721 token of the collection whose item data has (data & dataMask) == dataValue, and
 * tokenId 0. Currency: an allowed ERC-20 only (BNB cannot be pulled from the buyer).
 */
export interface TradeOffer {
  buyer: Address;
  collection: Address;
  standard: ListingStandard;
  tokenId: bigint;
  dataMask: bigint;
  dataValue: bigint;
  /** 1 for ERC-721; for ERC-1155 the whole amount, accepted in one fill. */
  amount: bigint;
  currency: Address;
  /** What the buyer pays in total, in wei; the holder receives price - fee. */
  price: bigint;
  expiry: bigint;
  salt: bigint;
  /** The buyer's Trading.counterOf when signed: the one counter for listings and offers, so cancel all ends both. */
  counter: bigint;
}

/** What a buyer chooses of a TradeOffer; whoever signs it adds the buyer, standard, amount, expiry, salt and counter. */
export type TradeOfferTerms = Pick<TradeOffer, "collection" | "tokenId" | "dataMask" | "dataValue" | "currency" | "price">;

/** viem typed-data types for Trading's TradeOffer (not "Offer": the market's ledger offer, core/orders.ts, has that name). */
export const OFFER_TYPES = {
  TradeOffer: [
    { name: "buyer", type: "address" },
    { name: "collection", type: "address" },
    { name: "standard", type: "uint8" },
    { name: "tokenId", type: "uint256" },
    { name: "dataMask", type: "uint96" },
    { name: "dataValue", type: "uint96" },
    { name: "amount", type: "uint256" },
    { name: "currency", type: "address" },
    { name: "price", type: "uint256" },
    { name: "expiry", type: "uint256" },
    { name: "salt", type: "uint256" },
    { name: "counter", type: "uint256" },
  ],
} as const;

/** What a buyer signs for an offer (viem account, wallet client or eth_signTypedData_v4). */
export function offerTypedData(offer: TradeOffer, chainId: number, trading: Address) {
  return { domain: tradingDomain(chainId, trading), types: OFFER_TYPES, primaryType: "TradeOffer" as const, message: offer };
}

/** The offer's order hash, equal to Trading.hashOffer and the key of orderStatus and OfferAccepted. */
export function offerHash(offer: TradeOffer, chainId: number, trading: Address): Hex {
  return hashTypedData(offerTypedData(offer, chainId, trading));
}

/** Item data bytes a chain collection offer can pin (core/item-data.ts): byte 0 nftType, byte 1 grade. */
const TYPE_MASK = 0xffn;
const GRADE_MASK = 0xff00n;

/** The dataMask/dataValue of a collection offer for any token of `nftType`, and of `grade` when given. */
export function offerCriteria(nftType: number, grade?: number): { dataMask: bigint; dataValue: bigint } {
  if (grade === undefined) return { dataMask: TYPE_MASK, dataValue: BigInt(nftType) };
  return { dataMask: TYPE_MASK | GRADE_MASK, dataValue: BigInt(nftType) | (BigInt(grade) << 8n) };
}

/** Whether a token's item data is one a (collection) offer was made for, as acceptOffer checks it. */
export function offerCovers(offer: Pick<TradeOffer, "tokenId" | "dataMask" | "dataValue">, tokenId: bigint, data: bigint): boolean {
  if (offer.dataMask === 0n) return tokenId === offer.tokenId;
  return offer.tokenId === 0n && (data & offer.dataMask) === offer.dataValue;
}

/** The contract's fee on a price: price * bps / 10 000, rounded down. The seller receives price - fee. */
export function tradingFee(price: bigint, feeBps: number): bigint {
  return (price * BigInt(feeBps)) / 10_000n;
}

/** The fields a stored listing and a stored offer share, as signed (the wire carries uint256 fields as decimal strings). */
function tradedOfOrder(order: ChainOrder | ChainOffer): Omit<Listing, "seller"> {
  return {
    collection: order.collection,
    standard: order.standard as ListingStandard,
    tokenId: BigInt(order.tokenId),
    amount: BigInt(order.amount),
    currency: order.currency,
    price: BigInt(order.price),
    expiry: BigInt(order.expiry),
    salt: BigInt(order.salt),
    counter: BigInt(order.counter),
  };
}

/** The Listing a stored chain order was signed as. */
export function listingOfOrder(order: ChainOrder): Listing {
  return { seller: order.seller, ...tradedOfOrder(order) };
}

/** The TradeOffer a stored chain offer was signed as. */
export function offerOfOrder(order: ChainOffer): TradeOffer {
  const { collection, standard, tokenId, ...terms } = tradedOfOrder(order);
  return {
    buyer: order.buyer,
    collection,
    standard,
    tokenId,
    dataMask: BigInt(order.dataMask),
    dataValue: BigInt(order.dataValue),
    ...terms,
  };
}

/** The token a listing names for each of the market's currencies: the ERC-20's address, the zero address for BNB. */
export function tradingCurrencies(tokens: { fire: Address; quark: Address; usdt: Address }): Record<Currency, Address> {
  return { FIRE: tokens.fire, QUARK: tokens.quark, USDT: tokens.usdt, BNB: zeroAddress };
}

/** The market's currency a listing's token address stands for; null for a token the market does not trade in. */
export function tradingCurrencyOf(tokens: { fire: Address; quark: Address; usdt: Address }, address: Address): Currency | null {
  const named = tradingCurrencies(tokens);
  return CURRENCIES.find((currency) => isAddressEqual(named[currency], address)) ?? null;
}
