/**
 * Issue 43: every page's loader, for a visitor and for a signed-in player, with the backends hung: a page in words
 * with a 502 or 503 (or the page's own answer that needs no backend), never a backend failure left uncaught (a 500).
 * The chain is not configured here: a page that needs it fails on that, which is another test's matter.
 */
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { LoaderFunction } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "~/root";
import { BackendError } from "~/services/http-client.server";
import { sessionCookie } from "./session-fixture";

// Never answers.
const backend = http.createServer(() => {});
let cookie: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  Object.assign(process.env, { SSO_API_URL: url, MARKET_API_URL: url, BACKEND_TIMEOUT_MS: "200" });
  cookie = await sessionCookie("a-token");
});
afterAll(() => {
  backend.closeAllConnections();
  backend.close();
});

const ROUTES = path.resolve(__dirname, "../../app/routes");
/** Each route folder's module, by folder name. */
const modules = readdirSync(ROUTES).flatMap((name) =>
  ["route.tsx", "route.ts"]
    .filter((file) => existsSync(path.join(ROUTES, name, file)))
    .map((file) => [name, () => import(path.join(ROUTES, name, file)) as Promise<{ loader?: LoaderFunction }>] as const),
);

/** A path each route answers, with its params. */
const PAGES: Record<string, [string, Record<string, string>?]> = {
  $: ["/no-such-page", { "*": "no-such-page" }],
  "actions.$id": ["/actions/1", { id: "1" }],
  "actions.review.$id": ["/actions/review/0123456789abcdef0123456789abcdef", { id: "0123456789abcdef0123456789abcdef" }],
  "lootbox.$id": ["/lootbox/1", { id: "1" }],
  "loyalty.page.$poolId": ["/loyalty/page/1", { poolId: "1" }],
  "loyalty.rewards.$poolId": ["/loyalty/rewards/1", { poolId: "1" }],
  "nft.$": ["/nft/x", { "*": "x" }],
  "nft.box.$boxId.$boxType": ["/nft/box/1/4", { boxId: "1", boxType: "4" }],
  "nft.card.$file": ["/nft/card/1000000001.json", { file: "1000000001.json" }],
  "nft.items.$file": ["/nft/items/1.json", { file: "1.json" }],
  "og.item.$nftType.$file": ["/og/item/0/1000000001.png", { nftType: "0", file: "1000000001.png" }],
  "player.$address": ["/player/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }],
  "sitemaps.$file": ["/sitemaps/items-1.xml", { file: "items-1.xml" }],
  "marketplace.detail": ["/marketplace/detail?nftType=0&tokenId=1000000001"],
  "marketplace.watches_.unsubscribe": ["/marketplace/watches/unsubscribe?token=1.abc"],
  "stripe.success": ["/stripe/success?session_id=cs_test_demo"],
};

function pathOf(name: string): [string, Record<string, string>] {
  const [path, params = {}] = PAGES[name] ?? [
    `/${name
      .replace(/^_index$/, "")
      .replaceAll(".", "/")
      .replace(/\/_index$/, "")
      .replace("[/]", ".")}`,
  ];
  return [path, params];
}

/** A loader's status: its answer's, or a thrown Response's; a backend failure left uncaught is a 500; null for any other error. */
async function statusOf(loader: LoaderFunction, page: string, params: Record<string, string>, signedIn: boolean): Promise<number | null> {
  const request = new Request(`http://localhost${page}`, { headers: signedIn ? { Cookie: cookie } : {} });
  try {
    const answer = await loader({ request, params, context: { cspNonce: "" } });
    return answer instanceof Response ? answer.status : 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    return error instanceof BackendError ? 500 : null;
  }
}

describe("every page with the backends hung", () => {
  it.each([false, true])(
    "answers in words, never a 500 (signed in: %s)",
    async (signedIn) => {
      const failures: string[] = [];
      let loaders = 0;
      if ((await statusOf(rootLoader, "/home", {}, signedIn)) === 500) failures.push("root: 500");
      for (const [name, load] of modules) {
        const { loader } = await load();
        if (!loader) continue;
        loaders++;
        const [page, params] = pathOf(name);
        if ((await statusOf(loader, page, params, signedIn)) === 500) failures.push(`${name} (${page}): 500`);
      }
      expect(loaders).toBeGreaterThan(40);
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
