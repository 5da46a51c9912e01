/**
 * Plain-HTTP helpers for tests that drive a running server without a browser: throwaway accounts registered
 * through the SSO API and the dev outbox, app sign-in by form post (a session cookie), hidden form fields read
 * from rendered HTML, and game balances. Shared by the fuzzer, the race test (R2) and the crash test (R3).
 */
import { prehashPassword } from "~core/password-hash";

export const THROWAWAY_PASSWORD = "Fuzz-pass-1";

export interface Account {
  email: string;
  password: string;
  /** A live SSO token (the `authToken` header). */
  token: string;
  wallet: `0x${string}`;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  success: boolean;
}

async function api<T>(baseUrl: string, path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(new URL(path, baseUrl), {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: {
      ...(init.token ? { authToken: init.token } : {}),
      ...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await response.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path}: ${response.status} ${body.msg}`);
  return body.data;
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 9)}@fuzz.test`;
}

/** Registers a new account with a managed wallet, as the register form would: send code, read it, register. */
export async function registerAccount(baseUrl: string, tag = "fz"): Promise<Account> {
  const email = uniqueEmail(tag);
  await api(baseUrl, "/basic/sendCode", { json: { Name: email } });
  const mails = await api<{ body: string }[]>(baseUrl, `/dev/outbox.json?to=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(mails[0]?.body ?? "")?.[1];
  if (!code) throw new Error(`No verification code in the outbox for ${email}`);
  const { token } = await api<{ token: string }>(baseUrl, "/basic/userInfo", {
    json: { UserName: email, Passsword: prehashPassword(THROWAWAY_PASSWORD), Code: code },
  });
  const { address } = await api<{ address: `0x${string}` }>(baseUrl, "/sso/createAddress", { token });
  return { email, password: THROWAWAY_PASSWORD, token, wallet: address };
}

/** A fresh SSO token for an account (a second session). */
export async function apiLogin(baseUrl: string, email: string, password: string): Promise<string> {
  const { token } = await api<{ token: string }>(baseUrl, "/basic/login", {
    json: { UserName: email, Passsword: prehashPassword(password) },
  });
  return token;
}

export async function apiLogout(baseUrl: string, token: string): Promise<void> {
  await api(baseUrl, "/sso/loginOut", { token });
}

/** The `name=value` of the session cookie a response sets, if any. */
export function sessionCookie(response: Response): string | null {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";", 1)[0];
    if (pair.startsWith("__session=")) return pair;
  }
  return null;
}

/** Signs in through the app's login form and returns its session cookie (`__session=…`). */
export async function appLogin(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(new URL("/login", baseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ email, password, redirectTo: "/home" }),
    redirect: "manual",
  });
  const cookie = sessionCookie(response);
  if (response.status !== 302 || !cookie) throw new Error(`App login of ${email} failed: ${response.status}`);
  return cookie;
}

/** Posts a form to the app as our own pages do (same-origin), with a session cookie; never follows redirects. */
export function postForm(baseUrl: string, path: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(path, baseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseUrl).origin, Cookie: cookie },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

export async function getPage(baseUrl: string, path: string, cookie: string): Promise<string> {
  const response = await fetch(new URL(path, baseUrl), { headers: { Cookie: cookie }, redirect: "manual" });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  return response.text();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]) : undefined;
}

/**
 * The rendered form whose hidden `intent` is `intent`: where it posts and every hidden field it sends, read from
 * the page's HTML as a browser without JavaScript would submit it.
 */
export function hiddenForm(html: string, intent: string): { action: string | undefined; fields: Record<string, string> } | null {
  for (const [form] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    const fields: Record<string, string> = {};
    for (const [input] of form.matchAll(/<input\b[^>]*>/g)) {
      if (attribute(input, "type") !== "hidden") continue;
      const name = attribute(input, "name");
      if (name) fields[name] = attribute(input, "value") ?? "";
    }
    if (fields.intent === intent) return { action: attribute(form.slice(0, form.indexOf(">") + 1), "action"), fields };
  }
  return null;
}

/** The account's game balances in wei, by currency. */
export async function gameBalances(baseUrl: string, token: string): Promise<Record<string, bigint>> {
  const { balances } = await api<{ balances: Record<string, string> }>(baseUrl, "/api/v1/gameRelate/getGameToken", { token });
  return Object.fromEntries(Object.entries(balances).map(([currency, wei]) => [currency, BigInt(wei)]));
}

export interface TokenDetail {
  tokenId: string;
  nftType: number;
  ownerAddress: string;
  listing: { id?: number; price: string; currency: string; sellerAddress: string } | null;
  history: { event: "list" | "sale" | "cancel" | string; fromAddress: string; toAddress: string | null; price: string; currency: string }[];
}

export function tokenDetail(baseUrl: string, ref: { tokenId: string; nftType: number | string }): Promise<TokenDetail> {
  return api<TokenDetail>(baseUrl, `/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${ref.tokenId}&nftType=${ref.nftType}`);
}

export interface OwnedItem {
  tokenId: string;
  nftType: number;
  location: "game" | "leaving" | "chain";
  isSelling: boolean;
}

/** The items of one type a wallet owns (up to 100), by the storage API. */
export async function ownedItems(baseUrl: string, wallet: string, nftType: number): Promise<OwnedItem[]> {
  const page = await api<{ records: OwnedItem[] }>(
    baseUrl,
    `/api/v1/informationCenter/myStorage?address=${wallet}&nftType=${nftType}&pageSize=100`,
  );
  return page.records;
}
