/** The island's report of an opening (issue 23): only a hash from a session with a bound wallet, and the chain decides the rest. */
import { beforeEach, describe, expect, it, vi } from "vitest";

const auth = {
  token: "t" as string | null,
  user: { WalletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } as { WalletAddress: string } | null,
};
vi.mock("~/services/apis.server", () => ({ getAuth: vi.fn(async () => auth) }));
vi.mock("~/services/lootbox-analytics.server", () => ({ emitBoxOpensOnce: vi.fn(async () => 2) }));

const { action } = await import("~/routes/resources.lootbox-open");
const { emitBoxOpensOnce } = await import("~/services/lootbox-analytics.server");
const emit = vi.mocked(emitBoxOpensOnce);
const HASH = `0x${"ab".repeat(32)}`;

async function report(fields: Record<string, string>) {
  const request = new Request("http://localhost/resources/lootbox-open", { method: "POST", body: new URLSearchParams(fields) });
  const response = await action({ request, params: {}, context: { cspNonce: "" } });
  return { status: response.status, body: await response.json() };
}

beforeEach(() => {
  vi.clearAllMocks();
  auth.token = "t";
  auth.user = { WalletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" };
});

describe("POST /resources/lootbox-open", () => {
  it("hands the hash and the session's own wallet to the once-only emitter, with nothing else from the browser", async () => {
    expect(await report({ txHash: HASH, boxIds: "1,2", owner: "0x0000000000000000000000000000000000000001" })).toEqual({
      status: 200,
      body: { recorded: 2 },
    });
    expect(emit).toHaveBeenCalledWith(HASH, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
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

  it("answers 503, never a 500, when the chain cannot be read", async () => {
    emit.mockRejectedValueOnce(new Error("ECONNREFUSED"));
    expect(await report({ txHash: HASH })).toMatchObject({ status: 503, body: { recorded: 0 } });
  });
});
