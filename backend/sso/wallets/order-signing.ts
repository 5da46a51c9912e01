/**
 * The SSO as the one custodian of managed wallets' keys, for market orders (docs/api/sso.md "Signed market
 * orders", docs/decisions/0008): it signs an order of core/orders.ts for the caller's own managed wallet and
 * nothing else. The types are core/orders.ts's, the domain is the market's as this backend's own options name it,
 * the order's signer is the caller's wallet, it lives no longer than the longest listing, it draws on the
 * custodial budget, and one idempotency key names one order forever.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { getAddress, isAddress, type LocalAccount, zeroAddress } from "viem";
import { z, type ZodTypeAny } from "zod";
import type { OrderSignature } from "~core/api/sso";
import { CURRENCIES, parseUint256 } from "~core/money";
import {
  LISTING_DURATIONS,
  ORDER_DOMAIN_NAME,
  ORDER_DOMAIN_VERSION,
  ORDER_KINDS,
  ORDER_SIGNER_FIELD,
  ORDER_TYPES,
  orderTypedData,
  type OrderKind,
  type OrderMessages,
} from "~core/orders";
import {
  LISTING_TYPES,
  MAX_LISTING_DAYS,
  OFFER_TYPES,
  TRADING_DOMAIN_NAME,
  TRADING_DOMAIN_VERSION,
  listingTypedData,
  offerTypedData,
  type Listing,
  type TradeOffer,
} from "~core/trading";
import { ApiError, parseInput } from "../../http";
import type { BackendOptions, Database } from "../../types";
import { takeCustodialRate } from "../shared/custodial-rate";
import { DEFAULT_EXECUTOR_POLICY, idempotencyKey } from "../executor";
import type { UserRow } from "../shared/tables";
import type { Wallets } from "./wallets";

export const ORDER_SIGNING_MSG = {
  managedOnly: "Orders are signed here only for a managed wallet: a browser wallet signs its own.",
  keyReused: "This idempotencyKey was already used for a different order; use a new key for a new order.",
  unavailable: "Your managed wallet is not available",
} as const;

/** A signature lives at most as long as the longest listing, with a few minutes for clocks and the round trip. */
const MAX_ORDER_LIFETIME_SECONDS = Math.max(...LISTING_DURATIONS.map((d) => d.days)) * 86_400 + 5 * 60;
/** The same for a Trading listing (core/trading.ts), which the market keeps up to MAX_LISTING_DAYS. */
const MAX_LISTING_LIFETIME_SECONDS = MAX_LISTING_DAYS * 86_400 + 5 * 60;
/** The Trading contract's signed listing (core/trading.ts), signed here beside the market's orders. */
const LISTING = "Listing" as const;
/** The Trading contract's signed offer (decision 0024), for a managed buyer's offer on a chain-held item. */
const TRADE_OFFER = "TradeOffer" as const;
const PRIMARY_TYPES = [...ORDER_KINDS, LISTING, TRADE_OFFER] as const;
type PrimaryType = (typeof PRIMARY_TYPES)[number];

const uint256 = z
  .string({ invalid_type_error: "must be decimal digits in a string" })
  .refine((value) => parseUint256(value) !== undefined, "must be an unsigned integer in decimal digits")
  .transform((value) => BigInt(value));
const FIELD_SCHEMAS: Record<string, ZodTypeAny> = {
  uint256,
  uint96: uint256.refine((value) => value < 1n << 96n, "must fit in 96 bits"),
  uint8: z.number({ invalid_type_error: "must be a number" }).int("must be a whole number").min(0).max(255),
  address: z
    .string({ invalid_type_error: "must be an address" })
    .refine((value) => isAddress(value, { strict: true }), "must be an address (with a valid checksum)")
    .transform((value) => getAddress(value)),
  // The only strings of any order are its currency and a collection offer's filter (FILTER_SCHEMA).
  string: z.enum(CURRENCIES, { errorMap: () => ({ message: `must be ${CURRENCIES.join(", ")}` }) }),
};
/** A collection offer's market filter (core/orders.ts Offer): a query string, which the market checks and matches. */
const FILTER_SCHEMA = z.string({ invalid_type_error: "must be a query string" }).max(1000, "must be at most 1000 characters");

/** Each order type's message, exactly its fields (from ORDER_TYPES, so no other structure can be signed). */
const MESSAGE_SCHEMAS = Object.fromEntries(
  [
    ...ORDER_KINDS.map((kind) => [kind, ORDER_TYPES[kind]] as const),
    [LISTING, LISTING_TYPES.Listing] as const,
    [TRADE_OFFER, OFFER_TYPES.TradeOffer] as const,
  ].map(([kind, fields]) => [
    kind,
    z
      .object(Object.fromEntries(fields.map((field) => [field.name, field.name === "filter" ? FILTER_SCHEMA : FIELD_SCHEMAS[field.type]])))
      .strict(`may hold only the fields of ${kind}: ${fields.map((field) => field.name).join(", ")}`),
  ]),
) as unknown as Record<PrimaryType, ZodTypeAny>;

export const signOrderInput = z
  .object({
    primaryType: z.enum(PRIMARY_TYPES as unknown as [PrimaryType, ...PrimaryType[]], {
      errorMap: () => ({ message: `must be one of ${PRIMARY_TYPES.join(", ")}` }),
    }),
    domain: z
      .object({ name: z.string(), version: z.string(), chainId: z.number(), verifyingContract: z.string() })
      .strict("may hold only name, version, chainId and verifyingContract"),
    message: z.record(z.unknown(), { invalid_type_error: "must be the order's fields" }),
    idempotencyKey,
  })
  .strict("may hold only primaryType, domain, message and idempotencyKey; the types are the market's own");

export type SignOrderInput = z.infer<typeof signOrderInput>;

/** Whether a request's signing domain is this one (the contract's address in either case). */
function isDomain(given: SignOrderInput["domain"], name: string, version: string, chainId: number, verifyingContract: string): boolean {
  return (
    given.name === name &&
    given.version === version &&
    given.chainId === chainId &&
    isAddress(given.verifyingContract, { strict: false }) &&
    given.verifyingContract.toLowerCase() === verifyingContract.toLowerCase()
  );
}

export function createOrderSigner(db: Kysely<Database>, wallets: Wallets, options: BackendOptions) {
  const domain = { chainId: options.chainId, verifyingContract: options.assetManagerAddress ?? zeroAddress };
  const domainText = `${ORDER_DOMAIN_NAME}, version ${ORDER_DOMAIN_VERSION}, chain ${domain.chainId}, contract ${domain.verifyingContract}`;
  const { max, windowMs } = DEFAULT_EXECUTOR_POLICY.rate;

  const trading = options.chain ? { chainId: options.chain.chainId, address: options.chain.contracts.trading } : null;
  const tradingText = trading
    ? `${TRADING_DOMAIN_NAME}, version ${TRADING_DOMAIN_VERSION}, chain ${trading.chainId}, contract ${trading.address}`
    : "";

  /** The expiry rule every order shares: in the future, and no further than the kind's longest lifetime. */
  function requireExpiry(expiry: bigint, nowMs: number, lifetimeSeconds: number) {
    const now = BigInt(Math.floor(nowMs / 1000));
    if (expiry <= now) throw new ApiError(400, "expiry: expected a time in the future");
    if (expiry > now + BigInt(lifetimeSeconds)) {
      throw new ApiError(400, `expiry: may be at most ${Math.floor(lifetimeSeconds / 86_400)} days away`);
    }
  }

  /** The deployment's Trading contract, when `input` names its domain; else a 400. */
  function requireTradingDomain(input: SignOrderInput) {
    if (!trading) throw new ApiError(400, `primaryType: ${input.primaryType} is signed only where the backend follows a chain`);
    const sameDomain = isDomain(input.domain, TRADING_DOMAIN_NAME, TRADING_DOMAIN_VERSION, trading.chainId, trading.address);
    const what = input.primaryType === LISTING ? "listing" : "offer";
    if (!sameDomain) throw new ApiError(400, `domain: must be the trading contract's ${what} domain (${tradingText})`);
    return trading;
  }

  /** A Trading listing for the caller's managed wallet, in the deployment's Trading domain, with the orders' checks. */
  function allowedListing(user: UserRow, input: SignOrderInput, nowMs: number) {
    const trading = requireTradingDomain(input);
    const listing = parseInput(MESSAGE_SCHEMAS[LISTING], input.message) as Listing;
    const wallet = getAddress(user.wallet_address!);
    if (listing.seller !== wallet) throw new ApiError(403, `seller: must be your managed wallet ${wallet}`);
    if (listing.price <= 0n) throw new ApiError(400, "price: expected more than 0");
    requireExpiry(listing.expiry, nowMs, MAX_LISTING_LIFETIME_SECONDS);
    return listingTypedData(listing, trading.chainId, trading.address);
  }

  /** A Trading offer of the caller's managed wallet: an allowed ERC-20 (never BNB), a price, an expiry as a listing's. */
  function allowedTradeOffer(user: UserRow, input: SignOrderInput, nowMs: number) {
    const trading = requireTradingDomain(input);
    const offer = parseInput(MESSAGE_SCHEMAS[TRADE_OFFER], input.message) as TradeOffer;
    const wallet = getAddress(user.wallet_address!);
    if (offer.buyer !== wallet) throw new ApiError(403, `buyer: must be your managed wallet ${wallet}`);
    if (offer.currency === zeroAddress) throw new ApiError(400, "currency: an offer is paid in an ERC-20 (FIRE, QUARK or USDT), not BNB");
    if (offer.price <= 0n) throw new ApiError(400, "price: expected more than 0");
    requireExpiry(offer.expiry, nowMs, MAX_LISTING_LIFETIME_SECONDS);
    return offerTypedData(offer, trading.chainId, trading.address);
  }

  /** The order as it will be signed, after every check that needs neither the database nor the key. */
  function allowed(user: UserRow, input: SignOrderInput, nowMs: number) {
    const kind = input.primaryType;
    if (kind === LISTING) return withHash(allowedListing(user, input, nowMs));
    if (kind === TRADE_OFFER) return withHash(allowedTradeOffer(user, input, nowMs));
    const sameDomain = isDomain(input.domain, ORDER_DOMAIN_NAME, ORDER_DOMAIN_VERSION, domain.chainId, domain.verifyingContract);
    if (!sameDomain) throw new ApiError(400, `domain: must be the market's order domain (${domainText})`);
    // The order's fields are named as the market names them ("expiry: ...", "seller: ...").
    const message = parseInput(MESSAGE_SCHEMAS[kind], input.message) as OrderMessages[OrderKind];
    const field = ORDER_SIGNER_FIELD[kind];
    const wallet = getAddress(user.wallet_address!);
    if ((message as unknown as Record<string, string>)[field] !== wallet) {
      throw new ApiError(403, `${field}: must be your managed wallet ${wallet}`);
    }
    requireExpiry(message.expiry, nowMs, MAX_ORDER_LIFETIME_SECONDS);
    return withHash(orderTypedData(domain, kind, message as never));
  }

  const stored = (userId: number, key: string) =>
    db
      .selectFrom("order_signatures")
      .select(["order_hash", "signature"])
      .where("user_id", "=", userId)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();

  /** The same key's signature for the same order; a refusal for another order. */
  function replay(row: { order_hash: string; signature: string }, hash: string): OrderSignature {
    if (row.order_hash !== hash) throw new ApiError(409, ORDER_SIGNING_MSG.keyReused);
    return { signature: row.signature as `0x${string}` };
  }

  return {
    /** Signs one order for `user`, a managed wallet's owner (the route checks the binding). */
    async sign(user: UserRow, input: SignOrderInput, nowMs = Date.now()): Promise<OrderSignature> {
      const { typed, hash } = allowed(user, input, nowMs);
      const existing = await stored(user.id, input.idempotencyKey);
      if (existing) return replay(existing, hash);
      const over = await takeCustodialRate(db, user.id, max, windowMs);
      if (over) throw new ApiError(429, rateMessage(over.retryInMs));
      const account = await wallets.managedAccount(user.id);
      if (!account) throw new ApiError(409, ORDER_SIGNING_MSG.unavailable);
      const signature = await account.signTypedData(typed as unknown as Parameters<LocalAccount["signTypedData"]>[0]);
      const inserted = await db
        .insertInto("order_signatures")
        .values({
          user_id: user.id,
          idempotency_key: input.idempotencyKey,
          order_hash: hash,
          signature,
          created_at: new Date(nowMs).toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      // A parallel post of the same key stored first: answer as its replay.
      if (inserted.numInsertedOrUpdatedRows === 0n) return replay((await stored(user.id, input.idempotencyKey))!, hash);
      return { signature };
    },
  };
}

export type OrderSigner = ReturnType<typeof createOrderSigner>;

/** The typed data and its hash, which one idempotency key is bound to. */
function withHash<T>(typed: T) {
  const hash = createHash("sha256")
    .update(JSON.stringify(typed, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)))
    .digest("hex");
  return { typed, hash };
}

function rateMessage(retryInMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryInMs / 60_000));
  return `Too many orders and on-chain actions from this account, please try again in ${minutes} minute${minutes > 1 ? "s" : ""}`;
}
