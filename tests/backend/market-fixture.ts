/** Shared by the market*.test.ts files: the embedded backends with the demo seed, and logged-in demo users. */
import { expect } from "vitest";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import type { BackendOptions } from "../../backend/types";
import type { ListingRecord, Page } from "~core/api/market";
import { privateKeyToAccount } from "viem/accounts";
import { expiryIn, newOrderNonce, orderTypedData, type OrderKind, type OrderMessages } from "~core/orders";
import { startTestBackends } from "./harness";

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
  /** GET that must succeed. */
  ok<T = unknown>(path: string, query?: Query, token?: string): Promise<T>;
  page(path: string, query?: Query, token?: string): Promise<Page<ListingRecord>>;
  /** One value from the database. */
  scalar<T = number>(sql: string, ...params: unknown[]): T;
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
    scalar: <T>(sql: string, ...params: unknown[]) => Object.values(t.store.sqlite.prepare(sql).get(...params) as object)[0] as T,
    close: () => t.close(),
  };
  return market;
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
