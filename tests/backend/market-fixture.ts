/** Shared by the market*.test.ts files: the embedded backends with the demo seed, and logged-in demo users. */
import { expect } from "vitest";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import type { BackendChain, BackendOptions } from "../../backend/types";
import { backendChainOf, type TestChain } from "../contracts/harness";
import type { ListingRecord, Page } from "~core/api/market";
import { privateKeyToAccount } from "viem/accounts";
import { getAddress } from "viem";
import type { OrderSignature } from "~core/api/sso";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { expiryIn, newOrderNonce, orderJson, orderLifetimeSeconds, orderTypedData, type OrderKind, type OrderMessages } from "~core/orders";
import { openDatabase } from "../../backend/schema";
import { MarketDb } from "../../backend/market/shared/db";
import { generateMarket } from "../../backend/market/generate";
import { demoMarketOptions } from "../../backend/market/seed";
import { startTestBackends } from "./harness";
import { freshDatabase } from "./engine";

export type Backend = Awaited<ReturnType<typeof startTestBackends>>;
export const API = "/api/v1";
export const BROWSER = DEMO_BROWSER_ACCOUNT;
export const MANAGED = DEMO_MANAGED_ACCOUNT;
export const BUYER = DEMO_BUYER_ACCOUNT;

export interface Market {
  t: Backend;
  /** authToken of each demo account. */
  tokens: { browser: string; managed: string; buyer: string };
  /** GET/POST under /api/v1 with query parameters; asserts nothing. */
  get<T = unknown>(path: string, query?: Query, token?: string): Promise<Answer<T>>;
  post<T = unknown>(path: string, query?: Query, body?: unknown, token?: string): Promise<Answer<T>>;
  /**
   * A managed wallet's order, posted the way the app's web path posts it: its typed data built from the body (and
   * the listing, for a buy), signed by the SSO (POST /sso/signOrder), then posted with the signature like a
   * browser wallet's. An order that cannot be built (no listing to buy) goes unsigned: the market's checks answer.
   * The SSO's refusal, if it refuses, is the answer.
   */
  custodial<T = unknown>(path: OrderPath, body: Record<string, unknown>, token: string): Promise<Answer<T>>;
  /** GET that must succeed. */
  ok<T = unknown>(path: string, query?: Query, token?: string): Promise<T>;
  page(path: string, query?: Query, token?: string): Promise<Page<ListingRecord>>;
  /** One value from the database. */
  scalar<T = number>(sql: string, ...params: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export interface Answer<T> {
  status: number;
  code: number;
  msg: string;
  data: T;
  success: boolean;
}

export type Query = Record<string, string | number | undefined>;

type OrderPath =
  | "/informationCenter/sellToken"
  | "/informationCenter/cancelSell"
  | "/informationCenter/buyToken"
  | "/informationCenter/transferToken"
  | "/informationCenter/cancelAllSell";

export function qs(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function login(t: Backend, email: string): Promise<string> {
  const answer = await t.call<{ token: string }>("POST", "/basic/login", { UserName: email, Passsword: prehashPassword(DEMO_PASSWORD) });
  expect(answer.status, answer.msg).toBe(200);
  return answer.data.token;
}

export async function startMarket(overrides: Partial<BackendOptions> = {}): Promise<Market> {
  const t = await startTestBackends(overrides);
  const [browser, managed, buyer] = await Promise.all([BROWSER, MANAGED, BUYER].map((account) => login(t, account.email)));
  const get = <T>(path: string, query?: Query, token?: string) => t.call<T>("GET", API + path + qs(query), undefined, token);
  const market: Market = {
    t,
    tokens: { browser, managed, buyer },
    get,
    post: <T>(path: string, query?: Query, body?: unknown, token?: string) => t.call<T>("POST", API + path + qs(query), body, token),
    async ok<T>(path: string, query?: Query, token?: string) {
      const answer = await get<T>(path, query, token);
      expect(answer.status, `${path}${qs(query)}: ${answer.msg}`).toBe(200);
      return answer.data;
    },
    page: (path, query, token) => market.ok<Page<ListingRecord>>(path, query, token),
    scalar: async <T>(sql: string, ...params: unknown[]) => Object.values((await t.store.sql.get(sql, [...params])) as object)[0] as T,
    async custodial<T>(path: OrderPath, body: Record<string, unknown>, token: string) {
      const signed = await custodialProof(market, path, body, token);
      if (signed && "status" in signed) return signed as Answer<T>;
      return market.post<T>(path, {}, { ...body, ...signed }, token);
    },
    close: () => t.close(),
  };
  return market;
}

/** The market with its indexer on a test chain, wired as server.ts wires it (at depth 0 unless `overrides` say). */
export function startMarketOnChain(chain: TestChain, overrides: Partial<BackendChain> = {}): Promise<Market> {
  const { contracts, chainId } = chain.deployment;
  return startMarket({
    chain: backendChainOf(chain, overrides),
    chainId,
    assetManagerAddress: contracts.assetManager,
    fireTokenAddress: contracts.fire,
  });
}

/** The order a web-path post makes (core/orders.ts), signed by the SSO; null when it cannot be built; or the SSO's refusal. */
async function custodialProof(m: Market, path: OrderPath, body: Record<string, unknown>, token: string) {
  const text = (name: string) => String(body[name] ?? "");
  const signer = getAddress(text("address"));
  const ctx = await m.ok<OrderContext & { domain: { name: string; version: string } }>("/marketplace/orderContext", { address: signer });
  const item = body.tokenId === undefined ? null : { tokenId: BigInt(text("tokenId")), nftType: Number(body.nftType) };
  let kind: OrderKind;
  let fields: Record<string, unknown>;
  if (path === "/informationCenter/sellToken") {
    kind = "Sell";
    const currency = (text("currency") || "FIRE").toUpperCase();
    fields = { ...item, seller: signer, price: BigInt(text("price")), currency, counter: BigInt(ctx.counter) };
  } else if (path === "/informationCenter/cancelSell") {
    kind = "Cancel";
    fields = { ...item, seller: signer };
  } else if (path === "/informationCenter/transferToken") {
    kind = "Transfer";
    fields = { ...item, from: signer, to: getAddress(text("to")) };
  } else if (path === "/informationCenter/cancelAllSell") {
    kind = "CancelAll";
    fields = { seller: signer, counter: BigInt(text("counter")) };
  } else {
    kind = "Buy";
    const listed = await m.get<{ listing: { sellerAddress: string; currency: string } | null }>("/informationCenter/tokenDetailByTokenId", {
      tokenId: text("tokenId"),
      nftType: text("nftType"),
    });
    const listing = listed.data?.listing;
    if (!listing) return null;
    fields = {
      ...item,
      listingId: BigInt(text("listingId")),
      seller: getAddress(listing.sellerAddress),
      buyer: signer,
      price: BigInt(text("price")),
      currency: listing.currency,
    };
  }
  const nonce = newOrderNonce();
  const expiry = body.expiry !== undefined ? BigInt(text("expiry")) : expiryIn(orderLifetimeSeconds(kind));
  const typed = orderTypedData(ctx.domain, kind, { ...fields, nonce, expiry } as never);
  const answer = await m.t.call<OrderSignature>("POST", "/sso/signOrder", { ...orderJson(typed), idempotencyKey: `order-${nonce}` }, token);
  if (answer.status !== 200) return answer;
  return { signature: answer.data.signature, nonce: nonce.toString(), expiry: Number(expiry) };
}

export interface OrderContext {
  domain: { chainId: number; verifyingContract: `0x${string}` };
  counter: string;
}

/**
 * Signs an order as a browser wallet would (the demo browser account's key by default) and returns the
 * fields the client sends with it. `message` gets the nonce and expiry; a function gets the order context too.
 */
export async function signOrder<K extends OrderKind>(
  m: Market,
  kind: K,
  message: Omit<OrderMessages[K], "nonce" | "expiry"> | ((ctx: OrderContext) => Omit<OrderMessages[K], "nonce" | "expiry">),
  { privateKey = BROWSER.privateKey as `0x${string}`, ttlSeconds = 600, nonce = newOrderNonce() } = {},
) {
  const account = privateKeyToAccount(privateKey);
  const ctx = await m.ok<OrderContext>("/marketplace/orderContext", { address: account.address });
  const expiry = expiryIn(ttlSeconds);
  const full = { ...(typeof message === "function" ? message(ctx) : message), nonce, expiry } as OrderMessages[K];
  const typed = orderTypedData(ctx.domain, kind, full) as unknown as Parameters<typeof account.signTypedData>[0];
  const signature = await account.signTypedData(typed);
  return { signature, nonce: nonce.toString(), expiry: Number(expiry) };
}

/** The demo browser player's ledger listing of its material stack `tokenId` for `price` FIRE (wei), signed by its key. */
export async function listBrowserStack(m: Market, tokenId: string, price: bigint) {
  const proof = await signOrder(m, "Sell", (ctx) => ({
    tokenId: BigInt(tokenId),
    nftType: 8,
    seller: BROWSER.wallet,
    price,
    currency: "FIRE",
    counter: BigInt(ctx.counter),
  }));
  const body = { tokenId, nftType: 8, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: price.toString(), ...proof };
  return m.post("/informationCenter/sellToken", {}, body, m.tokens.browser);
}

/** The newest game item of `nftType` that `owner` holds and has not listed. */
export async function heldItem(m: Market, owner: string, nftType: number): Promise<{ nftType: number; tokenId: string }> {
  const row = (await m.t.store.sql.get(
    `select nft_type as "nftType", token_id as "tokenId" from market_items i
       where owner_address = ? and location = 0 and nft_type = ?
         and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0)
       order by id desc limit 1`,
    [owner, nftType],
  )) as { nftType: number; tokenId: string } | undefined;
  if (!row) throw new Error(`no held item of ${owner}`);
  return row;
}

/** The browser player's signed claim taking `amount` FIRE (wei) out of the game; fails the test unless the market signs it. */
export async function takeOutFire(m: Market, amount: bigint): Promise<SignedClaim> {
  const answer = await m.post<SignedClaim>(
    "/gameRelate/takeOutTokenSign",
    { fire: amount.toString(), gameTag: 1 },
    undefined,
    m.tokens.browser,
  );
  expect(answer.status, answer.msg).toBe(200);
  return answer.data;
}

/** The browser player's request to take item `ref` out of the game (POST /gameRelate/takeOutSign), answered as is. */
export const askTakeOut = (m: Market, ref: { nftType: number; tokenId: string }) =>
  m.post<SignedClaim>("/gameRelate/takeOutSign", { takeOut: ref.tokenId, nftType: ref.nftType, gameTag: 1 }, undefined, m.tokens.browser);

/**
 * A fresh database (no backends) holding a generated market of `items` items, `activeListings` of them listed, with
 * no sales, cancels or invitees: handed to `test`, and closed after it.
 */
export async function withGeneratedMarket(sizes: { items: number; activeListings: number }, test: (db: MarketDb) => Promise<void>) {
  const store = await openDatabase(await freshDatabase());
  try {
    const db = new MarketDb(store);
    await generateMarket(db, { ...demoMarketOptions(Date.now()), ...sizes, sales: 0, cancels: 0, invitees: 0 });
    await test(db);
  } finally {
    await store.close();
  }
}
