/**
 * What the fuzzer attacks, read from the code rather than copied: the app's routes from the files in
 * app/routes (Remix's flat-routes naming), the backends' endpoints from their Express routers, and the
 * backends' field names from their Zod schemas. Only what each app route reads (query keys, form fields) is
 * written here, and `missingKnowledge()` fails the suite when a route file has no entry.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Router } from "express";
import { z } from "zod";
import { API_PATHS } from "../../backend";
import { openDatabase } from "../../backend/schema";
import { createSsoService } from "../../backend/sso/service";
import { createMarketService } from "../../backend/market/service";
import * as marketParams from "../../backend/market/shared/params";
import * as listingSchemas from "../../backend/market/shared/listing-schemas";
import * as orderSchemas from "../../backend/market/trades/order-schemas";
import * as chainListingSchemas from "../../backend/market/listings/chain-listing-schemas";
import * as gameSchemas from "../../backend/market/claims/game-schemas";
import * as statsSchemas from "../../backend/market/stats/stats-schemas";
import * as inviteSchemas from "../../backend/market/invites/invite-schemas";
import * as ssoSchemas from "../../backend/sso/shared/schemas";
import * as watchSchemas from "../../backend/market/watches/watch-schemas";
import { LIST_FILTERS, PAGE_SIZES, RANGE_FILTERS, SORT_OPTIONS } from "../../app/features/market/filters/market-options";
import { PERIODS, STAT_ENUM_KEYS, statEnum } from "../../app/features/market/filters/statistics";
import { STORAGE_TABS } from "../../app/features/market/filters/storage";
import { CHAIN_INTENTS } from "../../app/features/market/chain-trade";
import { chainStackTokenId } from "~core/item-moves";
import { HISTORY_PERIODS } from "~core/api/market";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT } from "~core/demo";
import {
  type Gen,
  address,
  amount,
  code6,
  currency,
  digits,
  displayName,
  email,
  garbage,
  hex,
  isoTime,
  mostly,
  nftType,
  oneOf,
  password,
  redirect,
  signInText,
  tokenId,
  wei,
} from "./rng";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface AppTarget {
  kind: "app";
  /** Remix route id, as `?_data=` names it. */
  id: string;
  /** URL pattern: `:name` parameters and a `*` splat. */
  path: string;
  loader: boolean;
  action: boolean;
  query: Record<string, Gen>;
  form: Record<string, Gen>;
  params: Record<string, Gen>;
  /** Signs the session out: never sent with the live session, so the rest of the run keeps it. */
  endsSession?: boolean;
}

export interface ApiTarget {
  kind: "api";
  id: string;
  method: string;
  path: string;
  params: Record<string, Gen>;
  endsSession?: boolean;
}

export type Target = AppTarget | ApiTarget;

// ---- app routes ------------------------------------------------------------------------------------------

/** remix.config.js's ignoredRouteFiles: server modules, tests and dotfiles are not routes. */
const IGNORED_ROUTE_FILE = /(^\.|\.server\.tsx?$|\.test\.tsx?$)/;

/** The route modules of app/routes (a flat file, or a folder's route or index module), sorted so a seed replays. */
export function routeFiles(): string[] {
  return fs
    .readdirSync(path.join(ROOT, "app/routes"), { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isFile()) return /\.(tsx?|jsx?)$/.test(entry.name) && !IGNORED_ROUTE_FILE.test(entry.name) ? [entry.name] : [];
      const inside = fs.readdirSync(path.join(ROOT, "app/routes", entry.name));
      const module = inside.find((file) => /^route\.(tsx?|jsx?)$/.test(file)) ?? inside.find((file) => /^index\.(tsx?|jsx?)$/.test(file));
      return module ? [`${entry.name}/${module}`] : [];
    })
    .sort();
}

/** Flat-routes naming: `a.b` nests, `_x` is pathless, `_index` is an index, `$x` a parameter, `$` a splat, `[.]` escapes. */
export function routeOfFile(file: string): { id: string; path: string } {
  // A folder's module is named by its folder: "game/route.tsx" is routes/game.
  const name = file.replace(/\/(route|index)\.(tsx?|jsx?)$/, "").replace(/\.(tsx?|jsx?)$/, "");
  const segments = name.match(/(?:\[[^\]]*\]|[^.])+/g) ?? [];
  const parts: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith("_")) continue;
    if (segment === "$") parts.push("*");
    else if (segment.startsWith("$")) parts.push(`:${segment.slice(1)}`);
    else parts.push(segment.replace(/\[([^\]]*)\]/g, "$1"));
  }
  return { id: `routes/${name}`, path: `/${parts.join("/")}` };
}

function exportsOf(file: string): { loader: boolean; action: boolean } {
  const source = fs.readFileSync(path.join(ROOT, "app/routes", file), "utf8");
  const has = (name: string) => new RegExp(`^export\\s+(?:async\\s+)?(?:function|const)\\s+${name}\\b`, "m").test(source);
  return { loader: has("loader"), action: has("action") };
}

const optionValues = (options: Record<number, string>) => [...Object.keys(options), ...Object.values(options)];

const marketQuery: Record<string, Gen> = {
  nftType,
  type: nftType,
  faction: mostly(oneOf("1", "2", "3")),
  currency,
  price: mostly((r) => `${amount(r)},${amount(r)}`),
  sort: mostly((r) => r.pick(SORT_OPTIONS).value),
  order: mostly(oneOf("asc", "desc", "ASC", "up")),
  pageSize: mostly((r) => String(r.pick(PAGE_SIZES))),
  page: mostly(digits(6)),
  pageNumber: mostly(digits(6)),
  // Issue 30: the price history's period.
  period: mostly(oneOf(...HISTORY_PERIODS, "1y", "ALL")),
  ...Object.fromEntries(
    Object.entries(LIST_FILTERS).map(([key, spec]) => [key, mostly((r) => r.sample(optionValues(spec.options), r.int(1, 3)).join(","))]),
  ),
  ...Object.fromEntries(
    Object.entries(RANGE_FILTERS).map(([key, spec]) => [
      key,
      mostly((r) => `${r.int(spec.min - 1, spec.max + 1)},${r.chance(0.3) ? "" : r.int(spec.min, spec.max)}`),
    ]),
  ),
};

const statsQuery: Record<string, Gen> = {
  nftType,
  level: mostly(digits(2)),
  period: mostly(oneOf(...Object.keys(PERIODS))),
  currency,
  page: mostly(digits(6)),
  ...Object.fromEntries(STAT_ENUM_KEYS.map((key) => [key, mostly((r) => r.pick(optionValues(statEnum(key).options)))])),
};

const storageQuery: Record<string, Gen> = { tab: mostly(oneOf(...Object.keys(STORAGE_TABS))), nftType, page: mostly(digits(6)) };

/** A material stack's amount as a move form posts it: whole units, or not. */
const stackAmount: Gen = mostly((r) => r.pick(["1", "40", "100", "0", "-1", "1.5", "", digits(16)(r), digits(30)(r)]));
/** An item's token id, or a chain stack's (a SparkItems id and a holder, core/item-moves.ts chainStackTokenId). */
const stackOrTokenId: Gen = mostly((r) =>
  r.chance(0.5) ? chainStackTokenId(BigInt(r.pick([8000, 8001, 8002, 7000, 1])), `0x${r.string(40, "0123456789abcdef")}`) : tokenId(r),
);

/** The spam trap's fields (remix-utils' defaults) on the forms that render it. */
const honeypot: Record<string, Gen> = { name__confirm: mostly(oneOf("")), from__confirm: mostly(digits(40)) };

/** Order proof fields a browser wallet adds to trade forms. */
const proof: Record<string, Gen> = {
  nonce: mostly(digits(78)),
  expiry: mostly(digits(13)),
  signature: hex(65),
  chainId: mostly(oneOf("31337", "56", "0")),
};

/** A chain listing's JSON as the buyer's confirmation posts it: the right shape with drawn fields, or its fields broken. */
const chainOrder: Gen = (r) =>
  JSON.stringify({
    orderHash: hex(32)(r),
    seller: address(r),
    collection: address(r),
    standard: r.pick([0, 1, 2, -1, "0"]),
    tokenId: mostly(digits(78))(r),
    amount: mostly(oneOf("1", "0", "2"))(r),
    currency: address(r),
    price: wei(r),
    expiry: mostly(digits(13))(r),
    salt: mostly(digits(78))(r),
    counter: mostly(digits(3))(r),
    signature: hex(65)(r),
    ...(r.chance(0.1) ? { extra: garbage(r) } : {}),
  });

const none = { query: {}, form: {}, params: {} };
const checkoutSession = mostly((r) =>
  r.pick(["cs_test_demo", `cs_test_${r.string(24)}`, `cs_${r.string(24)}`, "cs_", `cs_${"x".repeat(300)}`]),
);
const poolId = mostly((r) => String(r.int(-1, 5)));

const smallNumber = mostly((r) => r.pick([String(r.int(0, 300)), "-1", "1.5", "9".repeat(20), ""]));
/** Every input of the spaceship calculators (features/spaceship/spaceship-view.ts CALCULATOR_FIELDS). */
const calculatorQuery = Object.fromEntries(
  [
    "shipType",
    "level",
    "endurance",
    "agility",
    "pisonic",
    "strength",
    "crit",
    "spirit",
    "armor",
    "weaponGrade",
    "weaponLevel",
    "helmetGrade",
    "helmetLevel",
    "hours",
    "minutes",
    "leftHours",
    "leftMinutes",
  ].map((field) => [field, smallNumber]),
);
/** The spaceship pages' forms (features/spaceship/spaceship-actions.server.ts). */
const shipForm = {
  intent: mostly(oneOf("explore", "recall", "repair", "upgrade", "open-slot", "fit", "unfit", "send-materials")),
  tokenId,
  slot: mostly((r) => String(r.int(-1, 5))),
  equipmentId: tokenId,
  darkIron: smallNumber,
  silver: smallNumber,
  gold: smallNumber,
  idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
};

/** A metadata document's file name: a decimal id, the ERC-1155 64-hex-digit {id} form, or something near them. */
const metadataFile: Gen = mostly((r) =>
  r.pick([
    `${r.int(0, 40)}.json`,
    `${r.int(7998, 8004)}.json`,
    `${r.int(8000, 8002).toString(16).padStart(64, "0")}.json`,
    `${digits(78)(r)}.json`,
    `${r.string(64, "0123456789abcdefABCDEF")}.json`,
    `${r.int(0, 40)}`,
    "{id}.json",
    `-${r.int(0, 9)}.json`,
  ]),
);

/** What each route reads. A new route file without an entry fails `missingKnowledge()`. */
export const APP_KNOWLEDGE: Record<string, Partial<Pick<AppTarget, "query" | "form" | "params" | "endsSession">>> = {
  "routes/$": {
    params: { "*": (r) => r.pick(["x", "a/b/c", "%ff", "%2e%2e/%2e%2e/etc/passwd", "build/%ff", "images/%ff", ".env", "x".repeat(3000)]) },
  },
  "routes/_index": none,
  "routes/forgot-password": {
    query: { redirect },
    form: { step: mostly(oneOf("send", "verify", "reset")), email, code: code6, password, ...honeypot },
  },
  "routes/game": {
    form: {
      intent: mostly(oneOf("claim-token", "swap-token", "claim-item", "swap-item", "submit-claim")),
      currency: mostly(oneOf("FIRE", "QUARK", "USDT")),
      amount,
      nftType,
      tokenId,
      txId: tokenId,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/bridge": {
    form: {
      intent: mostly(oneOf("claim-item", "swap-item", "claim-token")),
      nftType,
      tokenId: stackOrTokenId,
      amount: stackAmount,
      back: redirect,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/resources.bridge-claim": {
    form: {
      intent: mostly(oneOf("claim-token", "claim-item", "submit-claim")),
      currency: mostly(oneOf("FIRE", "QUARK")),
      amount: mostly((r) => (r.chance(0.5) ? amount(r) : stackAmount(r))),
      nftType,
      tokenId: stackOrTokenId,
      txId: tokenId,
    },
  },
  "routes/home": none,
  "routes/invite.poster[.]svg": none,
  "routes/invite": {
    form: {
      intent: mostly(oneOf("claim", "submit-award")),
      currency,
      txId: tokenId,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/resources.award-claim": { form: { intent: mostly(oneOf("claim", "submit-award")), currency, txId: tokenId } },
  "routes/lite": { form: { mode: mostly(oneOf("on", "off", "yes")), redirectTo: redirect } },
  "routes/login": {
    query: { act: mostly(oneOf("reg", "connect", "login")), redirect, code: mostly((r) => r.string(8).toUpperCase()) },
    form: {
      email,
      password,
      redirectTo: redirect,
      intent: mostly(oneOf("send-code", "register", "create-managed", "bind-wallet", "wallet-sign-in")),
      code: code6,
      referral: mostly((r) => r.string(8).toUpperCase()),
      address,
      signature: hex(65),
      issuedAt: isoTime,
      message: signInText,
      ...honeypot,
    },
  },
  "routes/logout": { query: { redirect }, endsSession: true },
  "routes/actions.$id": { params: { id: mostly((r) => r.string(32, "0123456789abcdef")) }, query: { back: redirect } },
  "routes/actions.review.$id": { params: { id: mostly((r) => r.string(32, "0123456789abcdef")) }, query: { back: redirect } },
  "routes/lootbox.$id": {
    params: { id: mostly((r) => String(r.int(0, 9)), 0.5) },
    form: {
      intent: mostly(oneOf("buy", "open", "open-all", "open-bought")),
      currency,
      quantity: mostly(digits(2)),
      count: mostly(digits(2)),
      boxIds: mostly((r) => Array.from({ length: r.int(1, 12) }, () => digits(4)(r)).join(",")),
      executionId: mostly((r) => r.string(32, "0123456789abcdef")),
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/loyalty._index": { query: { wallet: address } },
  "routes/loyalty.page.$poolId": {
    params: { poolId },
    query: { amount },
    form: { intent: mostly(oneOf("deposit", "withdraw")), amount, idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")) },
  },
  "routes/loyalty.rewards.$poolId": { params: { poolId }, query: { wallet: address } },
  "routes/marketplace": none,
  "routes/marketplace._index": none,
  "routes/nft.$": { params: { "*": mostly(oneOf("", "card", "items/", "box/1.json", "card/1.json/x", "x".repeat(300))) } },
  "routes/nft.card.$file": { params: { file: metadataFile }, query: { t: mostly(digits(13)) } },
  "routes/nft.items.$file": { params: { file: metadataFile }, query: { t: mostly(digits(13)) } },
  "routes/nft.box.$boxId.$boxType": {
    params: {
      boxId: mostly(oneOf("1", "2", "9", "999999", "0", "-1", "1.5", "x", "9".repeat(90))),
      boxType: mostly(oneOf("4", "5", "18", "0", "99", "x")),
    },
    query: { t: mostly(digits(13)) },
  },
  "routes/og.item.$nftType.$file": {
    params: {
      nftType: mostly(oneOf("0", "4", "8", "9", "-1", "x")),
      file: mostly((r) => r.pick([`${digits(10)(r)}.png`, `${digits(78)(r)}.png`, "1.svg", "x.png", ".png", `${r.int(0, 40)}`])),
    },
  },
  "routes/og.site[.]png": none,
  "routes/robots[.]txt": none,
  "routes/sitemap[.]xml": none,
  "routes/sitemaps.$file": {
    params: { file: mostly(oneOf("pages.xml", "items-1.xml", "items-10.xml", "items-11.xml", "items-0.xml", "items-x.xml", "x")) },
  },
  "routes/marketplace.detail": {
    query: { tokenId, nftType, back: redirect, period: mostly(oneOf(...HISTORY_PERIODS, "1y")) },
    form: {
      intent: mostly(
        oneOf(
          "sell",
          "cancel",
          "transfer",
          "confirm-buy",
          "buy",
          // Issue 28: the chain forms of a chain-held item.
          ...CHAIN_INTENTS,
        ),
      ),
      price: amount,
      currency,
      days: mostly(oneOf("1", "3", "7", "30", "0", "180", "181", "365", "2.5")),
      to: address,
      account: address,
      priceWei: wei,
      listingId: mostly(digits(6)),
      confirmed: mostly(oneOf("1", "0")),
      salt: mostly(digits(78)),
      counter: mostly(digits(78)),
      order: mostly(chainOrder),
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
      ...proof,
    },
  },
  "routes/marketplace.favorite": {
    form: { tokenId, nftType, intent: mostly(oneOf("add", "remove")), redirectTo: redirect, mode: mostly(oneOf("fetch")) },
  },
  "routes/marketplace.market": { query: marketQuery },
  // Issue 30: watched searches, their inbox and the email's unsubscribe link.
  "routes/marketplace.inbox": none,
  "routes/marketplace.watches": {
    form: {
      intent: mostly(oneOf("add", "remove")),
      search: mostly(oneOf("", "nftType=4", "nftType=4&rarity=3&price=1,50&currency=FIRE", "nftType=99&level=x", "?a#b")),
      ceiling: amount,
      currency,
      id: mostly(digits(6)),
    },
  },
  "routes/marketplace.watches_.unsubscribe": {
    query: { token: mostly((r) => `${r.int(0, 99)}.${r.string(43, "abcXYZ019_-")}`) },
    form: { token: mostly((r) => `${r.int(0, 99)}.${r.string(43, "abcXYZ019_-")}`) },
  },
  // Issue 30: the offers page takes an item or a market view; its action is every offer form's.
  "routes/marketplace.offers": {
    query: { tokenId, nftType, ...marketQuery },
    form: {
      intent: mostly(oneOf("offer", "offer-cancel", "offer-cancel-all", "offer-accept")),
      price: amount,
      currency,
      days: mostly(oneOf("1", "3", "7", "30", "0", "31", "2.5")),
      offerId: mostly(digits(6)),
      tokenId,
      nftType,
      counter: mostly(digits(78)),
      back: redirect,
      ...proof,
    },
  },
  "routes/marketplace.statistics": { query: statsQuery },
  "routes/marketplace.storage": {
    query: storageQuery,
    form: { intent: mostly(oneOf("cancel-all")), counter: mostly(digits(78)), ...proof },
  },
  // Issue 29: a player's page takes the market's filter; its path names a wallet, a player's or anyone's, in any case.
  "routes/player.$address": {
    params: {
      address: mostly((r) =>
        r.pick([DEMO_BROWSER_ACCOUNT.wallet, DEMO_MANAGED_ACCOUNT.wallet.toLowerCase(), address(r), address(r).toUpperCase(), "0x"]),
      ),
    },
    query: marketQuery,
    // Issue 42: the player's own page sets or removes their display name.
    form: { intent: mostly(oneOf("save-name", "clear-name")), displayName },
  },
  "routes/resources.chain-config": none,
  "routes/resources.lootbox-open": { form: { txHash: hex(32) } },
  "routes/resources.lootbox-purchase": { form: { txHash: hex(32) } },
  "routes/resources.no-js": none,
  "routes/resources.wallet-sign-in": { form: { address } },
  "routes/spaceship.calculator": { query: calculatorQuery },
  "routes/spaceship.configuration": { query: { tokenId }, form: shipForm },
  "routes/spaceship.detail": { query: { tokenId, ...calculatorQuery }, form: shipForm },
  "routes/spaceship.exploration": { query: { ship: tokenId, ...calculatorQuery }, form: shipForm },
  "routes/spaceship.storehouse": {
    query: {
      rank: mostly((r) => String(r.int(-1, 6))),
      status: mostly(oneOf("docked", "exploring", "needs-repair", "in-game", "lost")),
      sort: mostly(oneOf("power", "level", "total", "duration", "name")),
      order: mostly(oneOf("asc", "desc", "up")),
    },
    form: shipForm,
  },
  "routes/spaceship.upgrade": { query: { tokenId }, form: shipForm },
  "routes/stripe.checkout": {
    query: { session_id: checkoutSession },
    form: {
      sessionId: checkoutSession,
      cardNumber: mostly(oneOf("4242 4242 4242 4242", "4000000000000002", "4000 0000 0000 9995", "1234")),
      expiry: mostly(oneOf("12 / 34", "01/20", "13/30", "12/2034")),
      cvc: mostly(digits(4)),
    },
  },
  "routes/stripe.demo": {
    query: { box: mostly(oneOf("4", "5", "6", "7", "99")), quantity: mostly(digits(3)) },
    form: { typeBox: mostly(oneOf("4", "5", "6", "7", "18")), quantity: mostly(digits(3)) },
  },
  "routes/stripe.success": { query: { session_id: checkoutSession } },
  // Anything a fuzzer posts lacks the provider's signature: a 400, never a 500.
  "routes/stripe.webhook": { form: { payload: mostly((r) => r.string(40)) } },
};

/** Route files without fuzz knowledge, and knowledge of routes that no longer exist. */
export function missingKnowledge(): { unknownRoutes: string[]; staleEntries: string[] } {
  const ids = routeFiles().map((file) => routeOfFile(file).id);
  return {
    unknownRoutes: ids.filter((id) => !(id in APP_KNOWLEDGE)),
    staleEntries: Object.keys(APP_KNOWLEDGE).filter((id) => !ids.includes(id)),
  };
}

export function appTargets(): AppTarget[] {
  return routeFiles().map((file) => {
    const { id, path: pattern } = routeOfFile(file);
    const known = APP_KNOWLEDGE[id] ?? {};
    return { kind: "app", id, path: pattern, ...exportsOf(file), query: {}, form: {}, params: {}, ...known };
  });
}

/** Remix route ids for `?_data=` and `_routes=`: every route's plus the root's. */
export function routeIds(targets: AppTarget[]): string[] {
  return ["root", ...targets.map((target) => target.id)];
}

/** Files under public/ (served by express.static before Remix sees the request). */
export function publicFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, "public", dir), { withFileTypes: true })) {
      // The build output is per build directory; its paths are fuzzed as /build/... anyway.
      if (entry.name === "build" && dir === "") continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else out.push(`/${rel}`);
    }
  };
  walk("");
  return out.sort();
}

/** The build's manifest version (server.ts's convention for where the build's assets are). */
export function manifestVersion(): string {
  const assets = path.join(ROOT, process.env.REMIX_BUILD_DIR ? `${process.env.REMIX_BUILD_DIR}/assets` : "public/build");
  const manifest = fs.readdirSync(assets).find((name) => /^manifest-\w+\.js$/.test(name));
  const version = manifest && /"version":"(\w+)"/.exec(fs.readFileSync(path.join(assets, manifest), "utf8"))?.[1];
  if (!version) throw new Error(`No Remix manifest with a version in ${assets}: build first`);
  return version;
}

// ---- backend endpoints -----------------------------------------------------------------------------------

/** Where backend/index.ts mounts the market router. */
const MARKET_PREFIX = "/api/v1";

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

function routesOf(router: Router, prefix: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route)
        for (const method of Object.keys(layer.route.methods)) out.push({ method: method.toUpperCase(), path: prefix + layer.route.path });
      else if (layer.handle.stack) walk(layer.handle.stack);
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return out;
}

const PATH_PARAMS: Record<string, Gen> = {
  walletAddress: address,
  nftType,
  tokenId,
  boxType: mostly(digits(2)),
};

/** Every endpoint the embedded backends register, read from their routers over a throwaway in-memory database. */
export async function apiTargets(): Promise<ApiTarget[]> {
  if (!API_PATHS.includes(MARKET_PREFIX))
    throw new Error(`The market is no longer mounted at ${MARKET_PREFIX}: update tests/fuzz/targets.ts`);
  const store = await openDatabase(":memory:");
  try {
    const ctx = {
      store,
      options: {
        walletEncryptionKey: "11".repeat(32),
        claimSignerKey: `0x${"22".repeat(32)}` as const,
        chainId: 31337,
        signInDomain: "localhost",
        tokenTtlSeconds: 60,
        exposeDevOutbox: true,
        seedDemo: false,
        // Only the routers are read: no token is looked up.
        ssoApi: { baseUrl: "http://127.0.0.1:9" },
      },
    };
    const sso = createSsoService(ctx);
    const market = createMarketService(ctx);
    // Only its routes are read: its digest timer has nothing to send.
    market.stop();
    const routes = [...routesOf(sso.router, ""), ...routesOf(sso.devRouter, ""), ...routesOf(market.router, MARKET_PREFIX)];
    return routes.map(({ method, path: pattern }) => ({
      kind: "api",
      id: `${method} ${pattern}`,
      method,
      path: pattern,
      params: Object.fromEntries([...pattern.matchAll(/:(\w+)/g)].map(([, name]) => [name, PATH_PARAMS[name] ?? garbage])),
      endsSession: pattern === "/sso/loginOut",
    }));
  } finally {
    await store.close();
  }
}

// ---- backend fields --------------------------------------------------------------------------------------

function keysOf(schema: unknown): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape as object);
  if (schema instanceof z.ZodEffects) return keysOf(schema.innerType());
  return [];
}

/** The field names of every backend input schema, plus the market's nested range keys (`min[level]`). */
export function apiFieldNames(): string[] {
  const names = new Set<string>();
  const modules = [
    marketParams,
    listingSchemas,
    orderSchemas,
    chainListingSchemas,
    gameSchemas,
    statsSchemas,
    inviteSchemas,
    ssoSchemas,
    watchSchemas,
  ];
  for (const schema of modules.flatMap((module) => Object.values(module))) for (const key of keysOf(schema)) names.add(key);
  for (const key of listingSchemas.RANGE_KEYS) {
    names.add(`min[${key}]`);
    names.add(`max[${key}]`);
  }
  names.delete("min");
  names.delete("max");
  return [...names].sort();
}

/** A value for a backend field, chosen by what its name says it holds. */
export function apiValue(name: string): Gen {
  if (/^(min|max)\[/.test(name)) return mostly(digits(20));
  if (/^(address|to|ownerAddress|Address|walletAddress|seller|collection)$/.test(name)) return address;
  if (/tokenId|takeOut/.test(name)) return tokenId;
  if (name === "nftType") return nftType;
  if (/^(price|fire)$/.test(name)) return wei;
  if (name === "amount") return stackAmount;
  if (/^(counter|nonce|expiry|chainId|txId|listingId|pageNumber|pageSize|days|gameTag|BindType|standard|salt)$/.test(name))
    return mostly(digits(20));
  if (/^(UserName|Name|emailAddr)$/.test(name)) return email;
  if (name === "DisplayName") return displayName;
  if (name === "Passsword") return mostly((r) => r.string(64, "0123456789abcdef"));
  if (/^(Code)$/.test(name)) return code6;
  if (/ignature$/.test(name)) return hex(65);
  if (/^(IssuedAt|issuedAt)$/.test(name)) return isoTime;
  if (/currency|erc20Addr/.test(name)) return currency;
  if (name === "sessionId") return mostly((r) => `cs_${r.string(20)}`);
  if (name === "accessToken") return mostly((r) => JSON.stringify({ message: signInText(r), signature: hex(65)(r) }));
  if (name === "code") return mostly((r) => r.string(8).toUpperCase());
  return garbage;
}
