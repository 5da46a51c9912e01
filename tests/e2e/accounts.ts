/**
 * The e2e `test`, extended with accounts of the test's own (issue 11): a test that changes an account (trades,
 * favorites, invites, logouts, chain purchases) creates a fresh one here, so the JS and no-JS projects run side
 * by side without sharing the demo accounts' items, balances or sessions. Tests about the demo data itself keep
 * to the demo accounts and only read them.
 *
 * An account is registered through the real SSO API (code from the dev outbox), gets its wallet through the
 * API too (a managed one, or a browser wallet bound with its signature), then is stocked: game balances and
 * items in the ledger (stock.ts, through the e2e server) and, when asked, coins, tokens and boxes on chain
 * (chain-funds.ts), for a managed wallet as for a browser wallet.
 * `signIn` puts a session cookie in the browser context, as the Epic Stack does, instead of filling the form.
 */
import { test as base, type BrowserContext, type Page } from "@playwright/test";
import { type Address, type Hex, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Envelope } from "~core/api/envelope";
import type { ManagedWalletCreated, SignIn } from "~core/api/sso";
import { bindWalletMessage } from "~core/bind-message";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { prehashPassword } from "~core/password-hash";
import { commitSession, sessionStorage } from "~/services/session.server";
import { type ChainFunds, fundOnChain } from "./chain-funds";
import { uniqueEmail } from "./fixtures";
import { chainReader } from "./managed-chain";
import { type Stock, type StockedItem, stockAccount } from "./stock";
import { installTestWallet, type TestWallet } from "./wallet";

export { expect } from "@playwright/test";

const ACCOUNT_PASSWORD = "Own-pass-1";

/** What an account with a wallet gets unless the test says otherwise. */
const STARTER_STOCK: Stock = {
  balances: { FIRE: 1_000, QUARK: 1_000, USDT: 1_000 },
  items: { 0: 2, 2: 1, 4: 1, 7: 1, 8: 1 },
};

export interface Credentials {
  email: string;
  password: string;
}

export interface Account extends Credentials {
  /** A live SSO token (the `authToken` header), for calls to the APIs. */
  token: string;
  wallet: Address | null;
  /** A browser wallet's key, fresh for this account (for the injected test wallet); null for the other kinds. */
  key: Hex | null;
  /** The items stocked for this account, in the order asked (by type, then one by one). */
  items: StockedItem[];
}

export interface AccountOptions {
  /** "managed" by default. */
  wallet?: "managed" | "browser" | "none";
  /** Game balances and items; STARTER_STOCK by default for an account with a wallet. */
  stock?: Stock;
  /** On-chain funds of the wallet (managed or browser); none by default, so a managed wallet starts without BNB for gas. */
  chain?: ChainFunds;
  /** Shown in the email, to tell accounts apart in a failure. */
  tag?: string;
}

async function api<T>(baseURL: string, path: string, init: { token?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(new URL(path, baseURL), {
    method: init.json === undefined ? "GET" : "POST",
    headers: {
      ...(init.token ? { [AUTH_TOKEN_HEADER]: init.token } : {}),
      ...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await response.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path}: ${response.status} ${body.msg}`);
  return body.data as T;
}

async function register(baseURL: string, tag: string): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(tag);
  await api(baseURL, "/basic/sendCode", { json: { Name: email } });
  const [mail] = await api<{ body: string }[]>(baseURL, `/dev/outbox.json?to=${encodeURIComponent(email)}`);
  const code = /verification code is (\d{6})/.exec(mail?.body ?? "")?.[1];
  if (!code) throw new Error(`No verification code in the outbox for ${email}`);
  const { token } = await api<SignIn>(baseURL, "/basic/userInfo", {
    json: { UserName: email, Passsword: prehashPassword(ACCOUNT_PASSWORD), Code: code },
  });
  return { email, token };
}

async function bindBrowserWallet(baseURL: string, email: string, token: string, key: Hex): Promise<Address> {
  const wallet = privateKeyToAccount(key);
  const issuedAt = new Date().toISOString();
  const signature = await wallet.signMessage({ message: bindWalletMessage({ userName: email, address: wallet.address, issuedAt }) });
  await api(baseURL, "/sso/bindWalletWithAccount", {
    token,
    json: { BindType: 1, Address: wallet.address, UserName: email, Signature: signature, IssuedAt: issuedAt },
  });
  return wallet.address;
}

async function createAccount(baseURL: string, options: AccountOptions = {}): Promise<Account> {
  const kind = options.wallet ?? "managed";
  const { email, token } = await register(baseURL, options.tag ?? kind);
  const key = kind === "browser" ? generatePrivateKey() : null;
  let wallet: Address | null = null;
  if (kind === "managed") wallet = getAddress((await api<ManagedWalletCreated>(baseURL, "/sso/createAddress", { token })).address);
  if (key) wallet = await bindBrowserWallet(baseURL, email, token, key);
  const items = wallet ? await stockAccount(wallet, options.stock ?? STARTER_STOCK, new URL(baseURL).port) : [];
  if (wallet && options.chain) await fundOnChain(wallet, options.chain, { impersonate: Boolean(key) });
  return { email, password: ACCOUNT_PASSWORD, token, wallet, key, items };
}

/** A new session for `account`, as the `__session=…` cookie pair the login form would have set. */
export async function sessionCookie(baseURL: string, account: Credentials): Promise<string> {
  const signIn = await api<SignIn>(baseURL, "/basic/login", {
    json: { UserName: account.email, Passsword: prehashPassword(account.password) },
  });
  const session = await sessionStorage().getSession();
  session.set("token", signIn.token);
  session.set("user", signIn.userInfo);
  return (await commitSession(session)).split(";", 1)[0];
}

export interface AccountFixtures {
  /** Registers a fresh account of the test's own (see AccountOptions). */
  createAccount(options?: AccountOptions): Promise<Account>;
  /** Signs the page's browser context in as `account` by cookie; the next navigation is signed in. */
  signIn(page: Page, account: Credentials): Promise<void>;
}

/** What tests with more than one player, or with chain reads, ask for besides. */
export interface PlayerFixtures {
  /** A fresh account (createAccount) signed in on the test's page. */
  player(options?: AccountOptions): Promise<Account>;
  /** A fresh browser-wallet account signed in on the test's page, its test wallet installed there first. */
  walletPlayer(options?: Omit<AccountOptions, "wallet">): Promise<{ account: Account; wallet: TestWallet }>;
  /** A second player's page: a browser context of its own (the project's JavaScript setting), signed in as `account`. */
  signedInPage(account: Credentials): Promise<Page>;
  /** The same for a browser-wallet account, its test wallet installed in the page before it signs in. */
  walletPage(account: Account): Promise<{ page: Page; wallet: TestWallet }>;
  /** Reads of the e2e server's chain (managed-chain.ts). */
  read: ReturnType<typeof chainReader>;
}

export const test = base.extend<AccountFixtures & PlayerFixtures>({
  // The second argument is Playwright's `use`, named so that the React hooks lint rule leaves it alone.
  createAccount: async ({ baseURL }, provide) => {
    await provide((options) => createAccount(baseURL!, options));
  },
  signIn: async ({ baseURL }, provide) => {
    await provide(async (page, account) => {
      const [name, value] = (await sessionCookie(baseURL!, account)).split(/=(.*)/s, 2);
      await page.context().addCookies([{ name, value, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
    });
  },
  player: async ({ page, createAccount, signIn }, provide) => {
    await provide(async (options) => {
      const account = await createAccount(options);
      await signIn(page, account);
      return account;
    });
  },
  walletPlayer: async ({ page, createAccount, signIn }, provide) => {
    await provide(async (options) => {
      const account = await createAccount({ ...options, wallet: "browser" });
      const wallet = await installTestWallet(page, { privateKey: account.key! });
      await signIn(page, account);
      return { account, wallet };
    });
  },
  signedInPage: async ({ browser, javaScriptEnabled, signIn }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (account) => {
      const context = await browser.newContext({ javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      await signIn(page, account);
      return page;
    });
    for (const context of contexts) await context.close();
  },
  walletPage: async ({ browser, signIn }, provide) => {
    const pages: Page[] = [];
    await provide(async (account) => {
      const page = await browser.newPage();
      pages.push(page);
      const wallet = await installTestWallet(page, { privateKey: account.key! });
      await signIn(page, account);
      return { page, wallet };
    });
    for (const page of pages) await page.context().close();
  },
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  read: async ({}, provide) => {
    await provide(chainReader());
  },
});
