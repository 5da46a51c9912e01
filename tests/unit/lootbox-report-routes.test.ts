/**
 * The islands' reports of a purchase and of an opening: only a hash from a session with a bound wallet, and the chain
 * decides the rest (the emitters read the receipt and fire once per transaction).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const auth = {
  token: "t" as string | null,
  user: { WalletAddress: WALLET } as { WalletAddress: string; BindAddrType?: number } | null,
};
vi.mock("~/services/apis.server", () => ({ getAuth: vi.fn(async () => auth) }));
vi.mock("~/features/lootbox/lootbox-analytics.server", () => ({
  emitBoxPurchaseOnce: vi.fn(async () => true),
  emitBoxOpensOnce: vi.fn(async () => 2),
}));

const analytics = await import("~/features/lootbox/lootbox-analytics.server");
const HASH = `0x${"ab".repeat(32)}`;
const OTHER = "0x0000000000000000000000000000000000000001";

const ROUTES = [
  {
    path: "/resources/lootbox-purchase",
    route: await import("~/routes/resources.lootbox-purchase/route"),
    emit: vi.mocked(analytics.emitBoxPurchaseOnce),
    // What a browser might add, and the route must ignore.
    extra: { value: "1000000", currency: "USDT", buyer: OTHER } as Record<string, string>,
    recorded: true,
    none: false,
  },
  {
    path: "/resources/lootbox-open",
    route: await import("~/routes/resources.lootbox-open/route"),
    emit: vi.mocked(analytics.emitBoxOpensOnce),
    extra: { boxIds: "1,2", owner: OTHER } as Record<string, string>,
    recorded: 2,
    none: 0,
  },
];

beforeEach(() => {
  vi.clearAllMocks();
  auth.token = "t";
  auth.user = { WalletAddress: WALLET };
});

describe.each(ROUTES)("POST $path", ({ path, route, emit, extra, recorded, none }) => {
  async function report(fields: Record<string, string>) {
    const request = new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
    const response = await route.action({ request, params: {}, context: { cspNonce: "" } });
    return { status: response.status, body: await response.json() };
  }

  it("hands the hash and the session's own wallet to the once-only emitter, with nothing else from the browser", async () => {
    expect(await report({ txHash: HASH, ...extra })).toEqual({ status: 200, body: { recorded } });
    expect(emit).toHaveBeenCalledWith(HASH, WALLET);
  });

  it.each(["", "0x1234", `${HASH}00`, `0x${"zz".repeat(32)}`, `${HASH.slice(2)}00`])("refuses the hash %j with a 400", async (txHash) => {
    expect((await report({ txHash })).status).toBe(400);
    expect(emit).not.toHaveBeenCalled();
  });

  it("refuses a visitor and an account without a wallet (401)", async () => {
    auth.token = null;
    expect((await report({ txHash: HASH })).status).toBe(401);
    auth.token = "t";
    auth.user = { WalletAddress: "" };
    expect((await report({ txHash: HASH })).status).toBe(401);
    expect(emit).not.toHaveBeenCalled();
  });

  it("refuses a managed wallet (409): the executor reports its transactions", async () => {
    auth.user = { WalletAddress: WALLET, BindAddrType: 2 };
    expect(await report({ txHash: HASH })).toMatchObject({ status: 409, body: { recorded: none } });
    expect(emit).not.toHaveBeenCalled();
  });

  it("answers 503, never a 500, when the chain cannot be read", async () => {
    emit.mockRejectedValueOnce(new Error("ECONNREFUSED"));
    expect(await report({ txHash: HASH })).toMatchObject({ status: 503, body: { recorded: none } });
  });
});
