/**
 * Signed orders (issue "off-chain trading"): every sell, cancel, buy, transfer and cancel-all is an EIP-712
 * order that the backend rebuilds from its OWN records (core/orders.ts) and verifies with viem. The
 * client's typed data is never trusted; only its signature, nonce and expiry are taken.
 *
 * Whoever signed it, every order is verified the same way: a browser wallet signs in the browser, a managed
 * wallet's order is signed by the SSO, its custodian (POST /sso/signOrder); the market never holds a key.
 */
import { type Address, verifyTypedData, zeroAddress } from "viem";
import { orderTypedData, type OrderDomainInput, type OrderKind, type OrderMessages } from "~core/orders";
import { ApiError } from "../../http";
import type { BackendOptions } from "../../types";
import type { Sql } from "../shared/db";

export const ORDER_MSG = {
  wrongChain: "Wrong chain id",
  expired: "The order has expired. Please sign it again.",
  missing: "signature: required (sign the order with your wallet)",
  fields: "nonce and expiry: required with a signature",
  badSignature: "The signature is not valid for this order",
  replayed: "This order has already been used",
  sameAddress: "The address cannot be the same as the address of the sender",
} as const;

export function orderDomainOf(options: BackendOptions): OrderDomainInput {
  return { chainId: options.chainId, verifyingContract: options.assetManagerAddress ?? zeroAddress };
}

/** What the client sent besides the order's own fields. */
export interface OrderProof {
  signature?: `0x${string}`;
  nonce?: string;
  /** Unix seconds. */
  expiry?: number;
  /** The chain the wallet signed on; refused early with the product spec's "Wrong chain id" when it is not ours. */
  chainId?: number;
}

export interface SignedOrder {
  signature: `0x${string}`;
  nonce: bigint;
  expiry: bigint;
}

/** Verifies one order's signature. `build` makes the message from our records once the nonce and expiry are known. */
export async function authorize<K extends OrderKind>(
  options: BackendOptions,
  signer: Address,
  kind: K,
  proof: OrderProof,
  build: (fields: { nonce: bigint; expiry: bigint }) => OrderMessages[K],
  now: number,
): Promise<SignedOrder> {
  const domain = orderDomainOf(options);
  if (proof.chainId !== undefined && proof.chainId !== domain.chainId) throw new ApiError(400, ORDER_MSG.wrongChain);
  const nowSeconds = BigInt(Math.floor(now / 1000));
  if (!proof.signature) throw new ApiError(400, ORDER_MSG.missing);
  if (proof.nonce === undefined || proof.expiry === undefined) throw new ApiError(400, ORDER_MSG.fields);
  const nonce = BigInt(proof.nonce);
  const expiry = BigInt(proof.expiry);
  if (expiry <= nowSeconds) throw new ApiError(400, ORDER_MSG.expired);
  const typed = orderTypedData(domain, kind, build({ nonce, expiry })) as unknown as Parameters<typeof verifyTypedData>[0];
  // A malformed signature throws inside viem: that is a refusal too, never a 500.
  const valid = await verifyTypedData({ ...typed, address: signer, signature: proof.signature }).catch(() => false);
  if (!valid) throw new ApiError(403, ORDER_MSG.badSignature);
  return { signature: proof.signature, nonce, expiry };
}

/** Spends a nonce inside the order's transaction: a replay finds it taken. */
export async function spendNonce(db: Sql, signer: string, nonce: bigint, kind: string, now: number): Promise<void> {
  const inserted = await db.run(
    "insert into market_used_nonces (signer, nonce, kind, used_at) values (?, ?, ?, ?) on conflict do nothing",
    [signer.toLowerCase(), nonce.toString(), kind, now],
  );
  if (!inserted.changes) throw new ApiError(409, ORDER_MSG.replayed);
}

/** A wallet's cancel-all counters: its listings' (every sell order signs it) and its offers' (every offer signs it). */
export type CounterTable = "market_order_counters" | "market_offer_counters";

/** The wallet's cancel-all counter: part of every sell order (or, in market_offer_counters, offer) it signs. */
export async function orderCounter(db: Sql, address: string, table: CounterTable = "market_order_counters"): Promise<bigint> {
  const row = await db.get<{ counter: number }>(`select counter from ${table} where address = ?`, [address.toLowerCase()]);
  return BigInt(row?.counter ?? 0);
}

/**
 * The counter as it stands once this transaction holds its row (an upsert that changes nothing takes the row lock):
 * a sell checks the counter it signed against it, and a concurrent cancel-all waits or has already moved it.
 */
export async function lockOrderCounter(db: Sql, address: string, table: CounterTable = "market_order_counters"): Promise<bigint> {
  const row = await db.get<{ counter: number }>(
    `insert into ${table} (address, counter) values (?, 0)
     on conflict (address) do update set counter = ${table}.counter returning counter`,
    [address.toLowerCase()],
  );
  return BigInt(row!.counter);
}

/**
 * Moves the counter from `expected` to the next value; false when another cancel-all moved it first, or when it was
 * never `expected` (an address without a row stands at 0; a value past any count, which the column could not even
 * hold, never matches).
 */
export async function bumpOrderCounter(
  db: Sql,
  address: string,
  expected: bigint,
  table: CounterTable = "market_order_counters",
): Promise<boolean> {
  if (expected < 0n || expected > BigInt(Number.MAX_SAFE_INTEGER)) return false;
  const { changes } =
    expected === 0n
      ? await db.run(
          `insert into ${table} (address, counter) values (?, 1)
           on conflict (address) do update set counter = ${table}.counter + 1 where ${table}.counter = 0`,
          [address.toLowerCase()],
        )
      : await db.run(`update ${table} set counter = counter + 1 where address = ? and counter = ?`, [
          address.toLowerCase(),
          Number(expected),
        ]);
  return changes === 1;
}
