/**
 * The pool page's action and loader (routes/loyalty.page.$poolId/route.server.ts) with the SSO API and the chain reads
 * stubbed: what reaches the executor (exact wei, the pool of the URL, nothing else), what comes back to the form
 * (field errors next to the amount, refusals of the whole form, 4xx, never a 500), and what each kind of user gets.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionRequest } from "~core/api/actions";
import { formatChainTime } from "~core/chain-text";
import type { PoolState, PoolStatus } from "~core/staking";
import type * as ApisModule from "~/services/apis.server";
import type * as StakingModule from "~/features/staking/staking.server";
import { BackendError } from "~/services/http-client.server";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const sso = { startAction: vi.fn(), executionByKey: vi.fn() };
const user = { WalletAddress: WALLET, BindAddrType: 2 };
const auth = { token: "t" as string | null, user: user as typeof user | null };

vi.mock("~/services/apis.server", async (importActual) => ({
  ...(await importActual<typeof ApisModule>()),
  signedInApis: vi.fn(async () => ({ user, sso })),
  getAuth: vi.fn(async () => auth),
}));
vi.mock("~/features/staking/staking.server", async (importActual) => ({
  ...(await importActual<typeof StakingModule>()),
  readStakingSnapshot: vi.fn(),
  readWalletStakes: vi.fn(),
  stakingChainConfig: vi.fn(() => ({ chainId: 31337, rpcUrl: "http://node", contracts: { fire: "0xf", staking: "0x5" } })),
}));

const { poolPage, poolPost } = await import("~/routes/loyalty.page.$poolId/route.server");
const { MANAGED_ONLY_MESSAGE } = await import("~/features/staking/staking-actions.server");
const { CHAIN_DOWN_MESSAGE } = await import("~/features/actions/managed-action.server");
const { readStakingSnapshot, readWalletStakes } = await import("~/features/staking/staking.server");

const KEY = "form-key-0123456789";
const EXECUTION_ID = "c".repeat(32);
const NOW = 1_800_000_000n;

/** A pool whose times put it in `status` at NOW. */
function pool(poolId: number, status: PoolStatus, threshold: bigint): PoolState {
  const times = {
    upcoming: [NOW + 100n, NOW + 1_000n, NOW + 2_000n],
    open: [NOW - 100n, NOW + 1_000n, NOW + 2_000n],
    locked: [NOW - 1_000n, NOW - 100n, NOW + 2_000n],
    claimable: [NOW - 2_000n, NOW - 1_000n, NOW - 100n],
  }[status];
  return {
    poolId,
    status,
    stakers: 0n,
    totalStaked: 0n,
    beginVaultTime: times[0],
    endStakingTime: times[1],
    endVaultTime: times[2],
    takerThreshold: threshold * WEI,
    rewardNftType: 4,
    rewardNftMaxSupply: 1_000n,
    rewardNftAllocNumber: 0n,
    claimedNftNumber: 0n,
  };
}

function chainHas({ status = "open" as PoolStatus, staked = 0n, fire = 1_000n } = {}) {
  vi.mocked(readStakingSnapshot).mockResolvedValue({
    blockNumber: 9n,
    blockHash: `0x${"9".repeat(64)}`,
    now: NOW,
    totalPoolSupply: 0n,
    pools: [pool(1, status, 100n), pool(2, status, 2_000n), pool(3, status, 5_000n)],
  });
  vi.mocked(readWalletStakes).mockResolvedValue({
    address: WALLET,
    fire: fire * WEI,
    bnb: WEI,
    stakes: [1, 2, 3].map((poolId) => ({
      poolId,
      staked: poolId === 1 ? staked : 0n,
      rewardBoxes: poolId === 1 ? staked / (100n * WEI) : 0n,
    })),
  });
}

async function post(fields: Record<string, string>, poolId = "1") {
  const request = new Request(`http://localhost/loyalty/page/${poolId}`, { method: "POST", body: new URLSearchParams(fields) });
  const answer = await poolPost({ request, params: { poolId }, context: { cspNonce: "" } });
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location"), data: null };
  const { init, data } = answer as unknown as { init: ResponseInit | null; data: { errors: Record<string, string[]>; values: unknown } };
  return { status: init?.status ?? 200, location: null, data };
}

const sent = (): ActionRequest[] => sso.startAction.mock.calls.map(([request]) => request);
const deposit = (amount: string) => post({ intent: "deposit", amount, idempotencyKey: KEY });

beforeEach(() => {
  vi.clearAllMocks();
  user.BindAddrType = 2;
  user.WalletAddress = WALLET;
  auth.token = "t";
  auth.user = user;
  sso.startAction.mockResolvedValue({ id: EXECUTION_ID });
  sso.executionByKey.mockRejectedValue(new BackendError("No such action", 404));
  chainHas();
});

describe("deposit", () => {
  it("asks the executor for the stake in exact wei under the form's key, and redirects to its status (303)", async () => {
    expect(await deposit("100")).toEqual({ status: 303, location: `/actions/${EXECUTION_ID}?back=%2Floyalty%2Fpage%2F1`, data: null });
    chainHas({ staked: 100n * WEI });
    await deposit("12.5");
    expect(sent()).toEqual([
      { action: "staking.deposit", params: { poolId: 1, amount: "100000000000000000000" }, idempotencyKey: KEY },
      { action: "staking.deposit", params: { poolId: 1, amount: "12500000000000000000" }, idempotencyKey: KEY },
    ]);
  });

  it.each([
    ["", "Enter an amount of FIRE as a number, like 100 or 12.5."],
    ["abc", "Enter an amount of FIRE as a number, like 100 or 12.5."],
    ["1e3", "Enter an amount of FIRE as a number, like 100 or 12.5."],
    ["0", "Enter an amount of FIRE above zero."],
    ["1000.000000000000000001", "Your wallet holds 1,000 FIRE: enter at most that."],
    ["99.99", "Stake at least the pool's threshold of 100 FIRE."],
  ])("answers %j with a 400 and its message next to the field, keeping what was typed", async (amount, message) => {
    expect(await deposit(amount)).toEqual({
      status: 400,
      location: null,
      data: { intent: "deposit", errors: { amount: [message] }, values: { amount } },
    });
    expect(sent()).toEqual([]);
  });

  it("says how much a partial stake lacks", async () => {
    chainHas({ staked: 60n * WEI });
    expect((await deposit("10")).data?.errors).toEqual({
      amount: ["Your stake must reach the pool's threshold of 100 FIRE: add at least 40 FIRE."],
    });
  });

  it.each([
    ["upcoming", "Staking in the Standard Pool has not opened yet, so it takes no deposits."],
    ["locked", "Staking in the Standard Pool has ended: it takes no more deposits, and the stakes are locked in the vault."],
    ["claimable", "Staking in the Standard Pool has ended: it takes no more deposits."],
  ] as const)("refuses the whole form while the pool is %s, and sends nothing", async (status, message) => {
    chainHas({ status });
    expect(await deposit("100")).toMatchObject({ status: 400, data: { errors: { "": [message] } } });
    expect(sent()).toEqual([]);
  });

  it("takes the pool from the URL only, and a long amount back cut short", async () => {
    await post({ intent: "deposit", amount: "100", idempotencyKey: KEY, poolId: "3", to: "0xdead" });
    expect(sent()[0].params).toEqual({ poolId: 1, amount: "100000000000000000000" });
    const long = await deposit("1".repeat(10_000));
    expect(long.status).toBe(400);
    expect(long.data?.values).toEqual({ amount: "1".repeat(100) });
  });
});

describe("withdraw", () => {
  const withdraw = () => post({ intent: "withdraw", idempotencyKey: KEY });

  it("asks the executor to withdraw and claim once the vault is open", async () => {
    chainHas({ status: "claimable", staked: 100n * WEI });
    expect((await withdraw()).status).toBe(303);
    expect(sent()).toEqual([{ action: "staking.withdraw", params: { poolId: 1 }, idempotencyKey: KEY }]);
  });

  it("refuses while the vault is locked, naming its end, and with nothing staked", async () => {
    for (const status of ["open", "locked"] as const) {
      chainHas({ status, staked: 100n * WEI });
      expect((await withdraw()).data?.errors[""]).toEqual([
        `Your stake in the Standard Pool is locked in the vault until ${formatChainTime(NOW + 2_000n)}. You can withdraw and claim after that.`,
      ]);
    }
    chainHas({ status: "claimable" });
    expect((await withdraw()).data?.errors[""]).toEqual(["You have nothing staked in the Standard Pool."]);
    expect(sent()).toEqual([]);
  });
});

describe("what the action refuses before the chain", () => {
  it("refuses accounts without a managed wallet (403), unknown intents and stale forms (400)", async () => {
    user.BindAddrType = 1;
    expect(await deposit("100")).toMatchObject({ status: 403, data: { errors: { "": [MANAGED_ONLY_MESSAGE] } } });
    user.BindAddrType = 2;
    user.WalletAddress = "";
    expect((await deposit("100")).status).toBe(403);
    user.WalletAddress = WALLET;
    expect(await post({ intent: "stake-everything", idempotencyKey: KEY })).toMatchObject({
      status: 400,
      data: { errors: { "": ["Unknown action."] } },
    });
    for (const key of [undefined, "short", "a".repeat(101), "bad key!"]) {
      const fields: Record<string, string> = { intent: "deposit", amount: "100" };
      if (key !== undefined) fields.idempotencyKey = key;
      expect(await post(fields)).toMatchObject({
        status: 400,
        data: { errors: { "": ["This form is out of date. Reload the page and try again."] } },
      });
    }
    expect(sent()).toEqual([]);
  });

  it("is a 404 for anything that is not a pool of the catalogue, for the action and the loader", async () => {
    for (const poolId of ["4", "0", "abc", "1e3", "01x"]) {
      await expect(post({ intent: "deposit", amount: "100", idempotencyKey: KEY }, poolId)).rejects.toMatchObject({ status: 404 });
      await expect(
        poolPage({ request: new Request(`http://localhost/loyalty/page/${poolId}`), params: { poolId }, context: { cspNonce: "" } }),
      ).rejects.toMatchObject({
        status: 404,
      });
    }
  });
});

describe("a form posted again", () => {
  it("leads to the action its key started, though the chain has moved and the plan would refuse it now", async () => {
    expect(await deposit("100")).toMatchObject({ status: 303 });
    // The deposit is mined: the wallet's FIRE is spent, and the same amount again is refused by the plan.
    chainHas({ staked: 100n * WEI, fire: 0n });
    sso.executionByKey.mockResolvedValue({ id: EXECUTION_ID });
    expect(await deposit("100")).toEqual({ status: 303, location: `/actions/${EXECUTION_ID}?back=%2Floyalty%2Fpage%2F1`, data: null });
    expect(sso.executionByKey).toHaveBeenCalledWith(KEY);
    expect(sent()).toHaveLength(1);
  });

  it("is refused in words when its key started nothing", async () => {
    chainHas({ fire: 0n });
    expect(await deposit("100")).toMatchObject({
      status: 400,
      data: { errors: { amount: ["Your wallet holds 0 FIRE: enter at most that."] } },
    });
    expect(sso.executionByKey).toHaveBeenCalledWith(KEY);
  });

  it("finds its action when the chain read fails too", async () => {
    vi.mocked(readStakingSnapshot).mockRejectedValue(new Error("connect ECONNREFUSED"));
    sso.executionByKey.mockResolvedValue({ id: EXECUTION_ID });
    expect(await deposit("100")).toMatchObject({ status: 303, location: `/actions/${EXECUTION_ID}?back=%2Floyalty%2Fpage%2F1` });
  });
});

describe("when the chain or the executor fails", () => {
  it("answers a chain that does not answer with a 503 and sends nothing", async () => {
    vi.mocked(readStakingSnapshot).mockRejectedValue(new Error("connect ECONNREFUSED"));
    expect(await deposit("100")).toMatchObject({ status: 503, data: { errors: { "": [CHAIN_DOWN_MESSAGE] } } });
    expect(sent()).toEqual([]);
  });

  it.each([
    [400, 400, "Staking in the Standard Pool has ended: it takes no more deposits."],
    [409, 409, "This key was used for another action."],
    [429, 429, "Too many on-chain actions: try again in a few minutes."],
    [503, 503, CHAIN_DOWN_MESSAGE],
  ])("keeps the executor's %i and its words", async (status, expected, message) => {
    sso.startAction.mockRejectedValue(new BackendError(message, status));
    expect(await deposit("100")).toMatchObject({ status: expected, data: { errors: { "": [message] } } });
  });

  it("answers the SSO backend down with a 502", async () => {
    sso.startAction.mockRejectedValue(new BackendError("Internal error", 500));
    expect(await deposit("100")).toMatchObject({
      status: 502,
      data: { errors: { "": ["The wallet service could not be reached: Internal error"] } },
    });
  });
});

describe("the loader", () => {
  const load = (query = "") =>
    poolPage({ request: new Request(`http://localhost/loyalty/page/1${query}`), params: { poolId: "1" }, context: { cspNonce: "" } });
  const read = async (query = "") => {
    const answer = (await load(query)) as unknown as { init: ResponseInit | null; data: Record<string, unknown> };
    return { headers: new Headers(answer.init?.headers), page: answer.data as never as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it("gives a managed wallet two fresh form keys and no island, never cached", async () => {
    const { headers, page } = await read();
    expect(page.island).toBeNull();
    expect(page.managed.keys.deposit).not.toBe(page.managed.keys.withdraw);
    expect(headers.get("Cache-Control")).toBe("no-store");
  });

  it("gives a browser wallet what the island needs, and a visitor the island with nothing held", async () => {
    user.BindAddrType = 1;
    chainHas({ staked: 100n * WEI, fire: 900n });
    const browser = (await read()).page;
    expect(browser.managed).toBeNull();
    expect(browser.island).toMatchObject({
      status: "open",
      thresholdWei: (100n * WEI).toString(),
      balanceWei: (900n * WEI).toString(),
      stakeWei: (100n * WEI).toString(),
      vaultEnds: formatChainTime(NOW + 2_000n),
    });
    auth.token = null;
    auth.user = null;
    const visitor = (await read()).page;
    expect(visitor.island).toMatchObject({ balanceWei: "0", stakeWei: "0" });
    expect(visitor.chain.wallet).toBeNull();
  });

  it("answers a reward preview from the URL, and shows the pool as unavailable when the chain is down", async () => {
    auth.token = null;
    auth.user = null;
    expect((await read("?amount=250")).page.chain.preview).toEqual({
      ok: true,
      amount: "250",
      text: "A stake of 250 FIRE earns 2 Standard loot boxes.",
    });
    vi.mocked(readStakingSnapshot).mockRejectedValue(new Error("timeout"));
    expect((await read()).page.chain).toBeNull();
  });
});
