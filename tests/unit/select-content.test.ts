/**
 * The select_content analytics event (issue 16): its shape, the requests that never count (HEAD, prefetches, bots),
 * and where it is sent: an item's detail page (a managed wallet's opened boxes are the executor's). Backends are stubbed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as ApisModule from "~/services/apis.server";
import type * as ChainModule from "~/services/chain.server";
import type * as ViewsModule from "~/features/market/market-views.server";

const sso = { startAction: vi.fn(async () => ({ id: "c".repeat(32) })), executionByKey: vi.fn(async () => null) };
const user = { WalletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", BindAddrType: 2 };

vi.mock("~/services/apis.server", async (importActual) => ({
  ...(await importActual<typeof ApisModule>()),
  signedInApis: vi.fn(async () => ({ user, sso })),
  apis: vi.fn(async () => ({
    token: null,
    user: null,
    wallet: undefined,
    market: { addView: async () => ({ views: 4 }) },
    orders: {},
    offers: { itemOffers: async () => ({ records: [], total: 0, totalCapped: false, pageNumber: 1, pageSize: 20 }) },
  })),
  publicApis: vi.fn(() => ({ market: { tokenDetail: async () => ({ views: 3 }) } })),
}));
vi.mock("~/services/chain.server", async (importActual) => ({
  ...(await importActual<typeof ChainModule>()),
  queryUserBoxes: vi.fn(async () => [
    { id: 5n, typeBox: 4 },
    { id: 6n, typeBox: 4 },
  ]),
  // The box type is on sale: a purchase reaches the executor.
  readTypeSaleTerms: vi.fn(async () => ({ startsAt: 0n, receiptAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" })),
  chainNow: vi.fn(async () => 1_790_000_000n),
}));
// The item's price history is another call, not this test's concern.
vi.mock("~/features/numbers/numbers.server", async (importActual) => ({
  ...(await importActual<object>()),
  itemHistoryHtml: vi.fn(async () => ""),
}));
vi.mock("~/features/market/market-views.server", async (importActual) => ({
  ...(await importActual<typeof ViewsModule>()),
  itemView: vi.fn(() => ({ tokenId: "12", metadataSource: "market", metadata: [], named: [], stats: null, history: [] })),
}));

const { emitSelectContent, isPersonOpening } = await import("~/services/analytics.server");
const { detailPage } = await import("~/routes/marketplace.detail/route.server");
const { lootboxAction } = await import("~/features/lootbox/lootbox-actions.server");

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const get = (url: string, headers: Record<string, string> = {}, method = "GET") =>
  new Request(url, { method, headers: { "user-agent": CHROME, ...headers } });

/** The analytics lines written to stdout (the default sink) while a test runs. */
let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    const text = String(chunk);
    if (text.startsWith('{"analytics"')) lines.push(text);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());
const events = () => lines.map((line) => (JSON.parse(line) as { analytics: Record<string, unknown> }).analytics);

describe("select_content", () => {
  it("has the content type and the item id, and the time it was sent", () => {
    const write = vi.fn();
    emitSelectContent(get("http://localhost/marketplace/detail?nftType=0&tokenId=12"), "item", "12", { sink: { kind: "log" }, write });
    expect(JSON.parse(write.mock.calls[0][0] as string)).toEqual({
      analytics: { event: "select_content", content_type: "item", item_id: "12", at: expect.any(String) },
    });
  });

  it.each([
    ["a HEAD request", get("http://localhost/x", {}, "HEAD")],
    ["a Chrome prefetch", get("http://localhost/x", { "sec-purpose": "prefetch" })],
    ["a Firefox prefetch", get("http://localhost/x", { purpose: "prefetch" })],
    ["a prerender", get("http://localhost/x", { "sec-purpose": "prefetch;prerender" })],
    ["Googlebot", get("http://localhost/x", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" })],
    ["a headless browser", get("http://localhost/x", { "user-agent": CHROME.replace("Chrome/", "HeadlessChrome/") })],
  ])("is never sent for %s", (_name, request) => {
    expect(isPersonOpening(request)).toBe(false);
    const write = vi.fn();
    emitSelectContent(request, "item", "12", { sink: { kind: "log" }, write });
    expect(write).not.toHaveBeenCalled();
  });

  it("is sent when a player opens an item's page, not when the page is prefetched", async () => {
    await detailPage(get("http://localhost/marketplace/detail?nftType=0&tokenId=12"));
    // Named as the purchase event names the item: type and token id.
    expect(events()).toEqual([{ event: "select_content", content_type: "item", item_id: "0-12", at: expect.any(String) }]);
    await detailPage(get("http://localhost/marketplace/detail.data?nftType=0&tokenId=12", { "sec-purpose": "prefetch" }));
    expect(events()).toHaveLength(1);
  });

  it("is sent once per page view, not when the page loads again after a post (issue 23)", async () => {
    const page = "http://localhost/marketplace/detail?nftType=0&tokenId=12&back=%2Fmarketplace%2Fmarket";
    // A client navigation: Remix fetches the page's data from the page it leaves.
    await detailPage(get(page.replace("/detail?", "/detail.data?"), { referer: "http://localhost/marketplace/market" }));
    expect(events()).toHaveLength(1);
    // Revalidation after a post, made from the page itself (Remix adds _routes; params in another order are the same page).
    await detailPage(get(`${page.replace("/detail?", "/detail.data?")}&_routes=root,routes/marketplace.detail`, { referer: page }));
    await detailPage(get(page, { referer: "http://localhost/marketplace/detail?tokenId=12&back=%2Fmarketplace%2Fmarket&nftType=0" }));
    // Without JavaScript: the redirect back after the form post, whose referrer is the page that posted.
    await detailPage(get(page, { referer: page }));
    expect(events()).toHaveLength(1);
    // Another item, and the same item opened again from elsewhere, are views.
    await detailPage(get(page.replace("tokenId=12", "tokenId=13"), { referer: page }));
    await detailPage(get(page, { referer: "http://localhost/marketplace/storage" }));
    expect(events().map((event) => event.item_id)).toEqual(["0-12", "0-13", "0-12"]);
  });

  it("is not sent by the box page's open form: the executor reports the boxes once opened (decision 0009)", async () => {
    const post = (fields: Record<string, string>) =>
      lootboxAction(
        new Request("http://localhost/lootbox/4", {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { referer: "http://localhost/lootbox/4" },
        }),
        4,
      );
    await post({ intent: "open-all", boxIds: "5,6", idempotencyKey: "form-key-0123456789" });
    await post({ intent: "buy", currency: "USDT", quantity: "1", idempotencyKey: "form-key-9876543210" });
    expect(sso.startAction).toHaveBeenCalledTimes(2);
    expect(events()).toEqual([]);
  });
});
