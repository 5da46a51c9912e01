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
import { type AppTarget, type ApiTarget, type RouteKnowledge } from "./route-knowledge";
import { GAME_ROUTES, stackAmount } from "./routes-game";
import { MARKET_ROUTES } from "./routes-market";
import { SITE_ROUTES } from "./routes-site";
import {
  type Gen,
  address,
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
  signInText,
  tokenId,
  wei,
} from "./rng";

export type { AppTarget, ApiTarget, Target } from "./route-knowledge";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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

/** What each route reads, by area. A new route file without an entry fails `missingKnowledge()`. */
export const APP_KNOWLEDGE: RouteKnowledge = { ...SITE_ROUTES, ...GAME_ROUTES, ...MARKET_ROUTES };

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
