/**
 * Off-chain marketplace orders as EIP-712 typed data (docs/architecture.md "Identity and sessions"), shared by the server,
 * the embedded market backend and the wallet island so all three hash exactly the same structure.
 * The backend never trusts typed data from a client: it rebuilds it from its own records with these
 * functions and checks the signature against that.
 */
import type { Address, TypedDataDomain } from "viem";

export const ORDER_DOMAIN_NAME = "Spark Era Market";
/** Bumped whenever an order type changes, so a signature over an older structure never verifies. 2: Buy names its listing. */
export const ORDER_DOMAIN_VERSION = "2";

/** A buy names its listing: when the item was relisted meanwhile (even at the same price), this is the answer. */
export const LISTING_CHANGED_MESSAGE = "This listing has changed. Please review the new price and try again.";

/** A signed buy, cancel or transfer is good for this long: long enough to confirm in a wallet, short enough to be useless later. */
export const ACTION_ORDER_TTL_SECONDS = 10 * 60;
/** Listing lifetimes offered when selling; the first is the default (a short one, so stale prices die). */
export const LISTING_DURATIONS = [
  { days: 3, label: "3 days" },
  { days: 1, label: "1 day" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
] as const;
export const DEFAULT_LISTING_DAYS = LISTING_DURATIONS[0].days;

/** The fields several order types share, in the order each type lists them (the order is part of the type's hash). */
const TOKEN = [
  { name: "tokenId", type: "uint256" },
  { name: "nftType", type: "uint8" },
] as const;
const PRICE = [
  { name: "price", type: "uint256" },
  { name: "currency", type: "string" },
] as const;
/** Every order ends so: a one-time nonce and an expiry (unix seconds). */
const ONCE = [
  { name: "nonce", type: "uint256" },
  { name: "expiry", type: "uint256" },
] as const;
/** Who sells to whom, for what: a buy's and an offer acceptance's tail. */
const SALE = [{ name: "seller", type: "address" }, { name: "buyer", type: "address" }, ...PRICE, ...ONCE] as const;
/** A seller's or buyer's cancel-all: every older order of theirs dies. */
const cancelAll = <P extends string>(party: P) =>
  [{ name: party, type: "address" }, { name: "counter", type: "uint256" }, ...ONCE] as const;

export const ORDER_TYPES = {
  Sell: [...TOKEN, { name: "seller", type: "address" }, ...PRICE, { name: "counter", type: "uint256" }, ...ONCE],
  Buy: [...TOKEN, { name: "listingId", type: "uint256" }, ...SALE],
  Cancel: [...TOKEN, { name: "seller", type: "address" }, ...ONCE],
  CancelAll: cancelAll("seller"),
  Transfer: [...TOKEN, { name: "from", type: "address" }, { name: "to", type: "address" }, ...ONCE],
  // Offers (issue 30, decision 0023). An item offer names its token and has an empty filter; a collection offer names
  // no token (0) and carries the market filter it covers, in the backend's canonical query form.
  Offer: [
    { name: "buyer", type: "address" },
    { name: "nftType", type: "uint8" },
    { name: "tokenId", type: "uint256" },
    { name: "filter", type: "string" },
    ...PRICE,
    { name: "counter", type: "uint256" },
    ...ONCE,
  ],
  OfferCancel: [{ name: "buyer", type: "address" }, { name: "offerId", type: "uint256" }, ...ONCE],
  OfferCancelAll: cancelAll("buyer"),
  /** The holder's consent: this offer, for this item, at this price (a changed offer is another order). */
  OfferAccept: [{ name: "offerId", type: "uint256" }, ...TOKEN, ...SALE],
} as const;

export type OrderKind = keyof typeof ORDER_TYPES;
export const ORDER_KINDS = Object.keys(ORDER_TYPES) as OrderKind[];

export interface OrderDomainInput {
  chainId: number;
  verifyingContract: Address;
}

/** Fields of several order messages (their types list them in their own order: ORDER_TYPES). */
interface TokenFields {
  tokenId: bigint;
  nftType: number;
}
interface PriceFields {
  price: bigint;
  currency: string;
}
interface OnceFields {
  nonce: bigint;
  expiry: bigint;
}
interface SaleFields extends PriceFields, OnceFields {
  seller: Address;
  buyer: Address;
}

export interface SellMessage extends TokenFields, PriceFields, OnceFields {
  seller: Address;
  /** The seller's cancel-all counter when signing: bumping it kills every older listing at once. */
  counter: bigint;
}
export interface BuyMessage extends TokenFields, SaleFields {
  /** The one listing this buy fills (listing ids are never reused): a relisting, even at the same price, is another order. */
  listingId: bigint;
}
export interface CancelMessage extends TokenFields, OnceFields {
  seller: Address;
}
export interface CancelAllMessage extends OnceFields {
  seller: Address;
  counter: bigint;
}
export interface TransferMessage extends TokenFields, OnceFields {
  from: Address;
  to: Address;
}

export interface OfferMessage extends PriceFields, OnceFields {
  buyer: Address;
  nftType: number;
  /** The item offered for; 0 on a collection offer. */
  tokenId: bigint;
  /** A collection offer's canonical market filter; "" on an item offer. */
  filter: string;
  /** The buyer's offer cancel-all counter when signing: bumping it kills every older offer at once. */
  counter: bigint;
}
export interface OfferCancelMessage extends OnceFields {
  buyer: Address;
  offerId: bigint;
}
export interface OfferCancelAllMessage extends OnceFields {
  buyer: Address;
  counter: bigint;
}
export interface OfferAcceptMessage extends TokenFields, SaleFields {
  offerId: bigint;
}

export interface OrderMessages {
  Sell: SellMessage;
  Buy: BuyMessage;
  Cancel: CancelMessage;
  CancelAll: CancelAllMessage;
  Transfer: TransferMessage;
  Offer: OfferMessage;
  OfferCancel: OfferCancelMessage;
  OfferCancelAll: OfferCancelAllMessage;
  OfferAccept: OfferAcceptMessage;
}

export function orderDomain({ chainId, verifyingContract }: OrderDomainInput): TypedDataDomain {
  return { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, chainId, verifyingContract };
}

/** The field naming the wallet that signs each kind of order: a custodian signs only for its caller's own wallet. */
export const ORDER_SIGNER_FIELD = {
  Sell: "seller",
  Buy: "buyer",
  Cancel: "seller",
  CancelAll: "seller",
  Transfer: "from",
  Offer: "buyer",
  OfferCancel: "buyer",
  OfferCancelAll: "buyer",
  OfferAccept: "seller",
} as const satisfies { [K in OrderKind]: keyof OrderMessages[K] };

/** The exact argument of viem's signTypedData / verifyTypedData for one order. */
export function orderTypedData<K extends OrderKind>(domain: OrderDomainInput, primaryType: K, message: OrderMessages[K]) {
  return {
    domain: orderDomain(domain),
    types: { [primaryType]: ORDER_TYPES[primaryType] } as Pick<typeof ORDER_TYPES, K>,
    primaryType,
    message,
  } as const;
}

/** An order's typed data as JSON carries it (POST /sso/signOrder): integers as decimal strings, nftType a number. */
export function orderJson<K extends OrderKind>(typed: ReturnType<typeof orderTypedData<K>>) {
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([name, value]) => [name, typeof value === "bigint" ? value.toString() : (value as string | number)]),
  );
  const { name, version, chainId, verifyingContract } = typed.domain;
  return {
    primaryType: typed.primaryType,
    domain: { name: name!, version: version!, chainId: Number(chainId), verifyingContract: verifyingContract! },
    message,
  };
}

/** A fresh 128-bit nonce from the platform's CSPRNG (browser or Node). */
export function newOrderNonce(): bigint {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}

/** Expiry (unix seconds) for an order signed now that lives `seconds`. */
/** How long an order lives unless its signer chose: a listing or an offer its default days, any other order ten minutes. */
export function orderLifetimeSeconds(kind: OrderKind): number {
  return kind === "Sell" || kind === "Offer" ? DEFAULT_LISTING_DAYS * 86_400 : ACTION_ORDER_TTL_SECONDS;
}

export function expiryIn(seconds: number, nowMs = Date.now()): bigint {
  return BigInt(Math.floor(nowMs / 1000) + seconds);
}
