/**
 * The box page's action for managed wallets, with the SSO API and the chain stubbed: what reaches the executor
 * (never an address or a box the page did not list), what comes back to the form, and the status page's
 * follow-ups for a mined purchase.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionRequest, Execution } from "~core/api/actions";
import type * as ApisModule from "~/services/apis.server";
import type * as ChainModule from "~/services/chain.server";
import { BackendError } from "~/services/http-client.server";
import { testExecution } from "./execution-fixture";

const sso = { startAction: vi.fn(), execution: vi.fn(), executionByKey: vi.fn(async () => null) };
const user = { WalletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", BindAddrType: 2 };

vi.mock("~/services/apis.server", async (importActual) => ({
  ...(await importActual<typeof ApisModule>()),
  signedInApis: vi.fn(async () => ({ user, sso })),
}));
vi.mock("~/services/chain.server", async (importActual) => ({
  ...(await importActual<typeof ChainModule>()),
  queryUserBoxes: vi.fn(),
  readTypeSaleTerms: vi.fn(),
  chainNow: vi.fn(),
}));

const { lootboxAction, lootboxFollowUp, MANAGED_ONLY_MESSAGE } = await import("~/features/lootbox/lootbox-actions.server");
const { CHAIN_DOWN_MESSAGE } = await import("~/features/actions/managed-action.server");
const { actionProblem, newIdempotencyKey } = await import("~/features/actions/actions.server");
const { followUpOf } = await import("~/services/action-features.server");
const { chainNow, queryUserBoxes, readTypeSaleTerms } = await import("~/services/chain.server");
const held = vi.mocked(queryUserBoxes);
const terms = vi.mocked(readTypeSaleTerms);
const NOW = 1_790_000_000n;

const KEY = "form-key-0123456789";
const EXECUTION_ID = "c".repeat(32);
const STATUS = `/actions/${EXECUTION_ID}?back=%2Flootbox%2F4`;

async function post(fields: Record<string, string>, typeBox = 4) {
  const request = new Request(`http://localhost/lootbox/${typeBox}`, { method: "POST", body: new URLSearchParams(fields) });
  const answer = await lootboxAction(request, typeBox);
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location"), data: null };
  const { init, data } = answer as unknown as { init: ResponseInit | null; data: unknown };
  return { status: init?.status ?? 200, location: null, data };
}

const sent = (): ActionRequest[] => sso.startAction.mock.calls.map(([request]) => request);

function purchase(overrides: Partial<Execution> = {}): Execution {
  return testExecution(
    "lootbox.buy",
    { typeBox: 4, currency: "USDT", quantity: 2 },
    {
      id: "d".repeat(32),
      steps: [
        { kind: "buy", label: "Buy 2 Standard loot boxes for 20 USDT", status: "mined", txHash: `0x${"e".repeat(64)}`, blockNumber: "8" },
      ],
      txHash: `0x${"e".repeat(64)}`,
      blockNumber: "8",
      result: { boxIds: ["21", "22"] },
      wallet: user.WalletAddress,
      ...overrides,
    },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  user.BindAddrType = 2;
  sso.startAction.mockResolvedValue({ id: EXECUTION_ID });
  held.mockResolvedValue([
    { id: 5n, typeBox: 4 },
    { id: 6n, typeBox: 4 },
    { id: 7n, typeBox: 17 },
  ]);
  terms.mockResolvedValue({ startsAt: NOW - 60n, receiptAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" });
  vi.mocked(chainNow).mockResolvedValue(NOW);
});

describe("buy", () => {
  it("asks the executor for the purchase under the form's key and redirects to its status (303)", async () => {
    expect(await post({ intent: "buy", currency: "USDT", quantity: "2", idempotencyKey: KEY })).toEqual({
      status: 303,
      location: STATUS,
      data: null,
    });
    expect(sent()).toEqual([{ action: "lootbox.buy", params: { typeBox: 4, currency: "USDT", quantity: 2 }, idempotencyKey: KEY }]);
  });

  it("sends a repeated post exactly as the first, so the executor answers it with the same execution", async () => {
    const fields = { intent: "buy", currency: "QUARK", quantity: "1", idempotencyKey: KEY };
    const answers = await Promise.all([post(fields), post(fields)]);
    expect(answers[0]).toEqual(answers[1]);
    expect(sent()[0]).toEqual(sent()[1]);
  });

  it("takes the box type from the page, never from the form, and adds nothing the form did not say", async () => {
    await post({ intent: "buy", currency: "QUARK", quantity: "1", idempotencyKey: KEY, typeBox: "17", to: "0xdead", value: "1" }, 18);
    expect(sent()).toEqual([{ action: "lootbox.buy", params: { typeBox: 18, currency: "QUARK", quantity: 1 }, idempotencyKey: KEY }]);
  });

  it("answers field errors with a 400, the choices posted, and sends nothing", async () => {
    const answer = await post({ intent: "buy", currency: "USDT", quantity: "0", idempotencyKey: KEY }, 18);
    expect(answer.status).toBe(400);
    expect(answer.data).toEqual({
      intent: "buy",
      errors: {
        currency: ["The V3-Galaxy loot box can be paid only in QUARK."],
        quantity: ["Choose how many boxes to buy, from 1 to 10"],
      },
      values: { currency: "USDT", quantity: "0" },
    });
    expect(sso.startAction).not.toHaveBeenCalled();
  });

  it("sends back only the choices a player makes on the form, each cut short: never the page's hidden fields", async () => {
    const answer = await post({ intent: "buy", currency: "Q".repeat(5000), idempotencyKey: KEY, boxIds: "1,2", typeBox: "17" });
    expect((answer.data as { values: unknown }).values).toEqual({ currency: "Q".repeat(20) });
  });

  it.each([
    [400, "V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 2. You can buy again after 2026-11-24 09:30 UTC."],
    [
      400,
      "Your wallet 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 has 0 BNB, and this needs about 0.0031 BNB to pay for gas. Send BNB to it and try again.",
    ],
    [409, "This idempotencyKey was already used for a different action; use a new key for a new action."],
    [429, "Too many on-chain actions from this account, please try again in 3 minutes"],
    [503, "The chain is not answering right now, so nothing was sent. Please try again in a moment."],
  ])("shows the executor's %i refusal next to the form, with its status", async (status, message) => {
    sso.startAction.mockRejectedValue(new BackendError(message, status));
    expect(await post({ intent: "buy", currency: "QUARK", quantity: "3", idempotencyKey: KEY })).toEqual({
      status,
      location: null,
      data: { intent: "buy", errors: { "": [message] }, values: { currency: "QUARK", quantity: "3" } },
    });
  });
});

describe("before the box type's start date", () => {
  it("refuses the purchase next to the form (409), says when the sale opens, and sends nothing", async () => {
    terms.mockResolvedValue({ startsAt: NOW + 1n, receiptAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" });
    expect(await post({ intent: "buy", currency: "USDT", quantity: "1", idempotencyKey: KEY })).toEqual({
      status: 409,
      location: null,
      data: {
        intent: "buy",
        errors: { "": ["This box is not on sale yet: it goes on sale at 2026-09-21 14:13 UTC."] },
        values: { currency: "USDT", quantity: "1" },
      },
    });
    expect(sso.startAction).not.toHaveBeenCalled();
  });

  it("sells from the start date's second on", async () => {
    terms.mockResolvedValue({ startsAt: NOW, receiptAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" });
    expect((await post({ intent: "buy", currency: "USDT", quantity: "1", idempotencyKey: KEY })).status).toBe(303);
  });

  it("says the chain is down (503) when the start date cannot be read", async () => {
    terms.mockRejectedValue(new Error("ECONNREFUSED"));
    expect(await post({ intent: "buy", currency: "USDT", quantity: "1", idempotencyKey: KEY })).toMatchObject({
      status: 503,
      data: { errors: { "": [CHAIN_DOWN_MESSAGE] } },
    });
  });
});

describe("refused before anything is sent", () => {
  it("a browser-wallet account: 403, in words", async () => {
    user.BindAddrType = 1;
    const answer = await post({ intent: "buy", currency: "USDT", quantity: "1", idempotencyKey: KEY });
    expect(answer).toMatchObject({ status: 403, data: { errors: { "": [MANAGED_ONLY_MESSAGE] } } });
    expect(sso.startAction).not.toHaveBeenCalled();
  });

  it("an unknown intent: 400", async () => {
    expect(await post({ intent: "transfer", idempotencyKey: KEY, currency: "USDT" })).toMatchObject({
      status: 400,
      data: { intent: null, values: {} },
    });
    expect(sso.startAction).not.toHaveBeenCalled();
  });
});

describe("open", () => {
  it("open x N asks for N boxes of the page's type by count, naming no ids (the opener picks them)", async () => {
    expect(await post({ intent: "open", count: "1", boxIds: "6,5", idempotencyKey: KEY })).toMatchObject({ status: 303, location: STATUS });
    expect(sent()).toEqual([{ action: "lootbox.open", params: { typeBox: 4, count: 1 }, idempotencyKey: KEY }]);
  });

  it("refuses a box of another type the wallet holds: each page opens its own type", async () => {
    const answer = await post({ intent: "open-all", boxIds: "5,7", idempotencyKey: KEY });
    expect(answer).toMatchObject({
      status: 400,
      data: {
        intent: "open-all",
        errors: { "": ["Box #7 is not one of this page's Standard loot boxes. Reload the page to see your boxes."] },
      },
    });
    expect(sso.startAction).not.toHaveBeenCalled();
  });

  it("passes boxes the wallet no longer holds on to the executor: a retry of an opening gets its execution back", async () => {
    await post({ intent: "open-all", boxIds: "1,2", idempotencyKey: KEY });
    expect(sent()).toEqual([{ action: "lootbox.open", params: { boxIds: ["1", "2"] }, idempotencyKey: KEY }]);
  });

  it("answers a refused open x N with the count posted, so the form comes back as it was", async () => {
    expect(await post({ intent: "open", count: "12", boxIds: "5,6", idempotencyKey: KEY })).toEqual({
      status: 400,
      location: null,
      data: { intent: "open", errors: { count: ["Choose how many boxes to open, from 1 to 10"] }, values: { count: "12" } },
    });
  });

  it("says the chain is down (503) when the boxes cannot be checked", async () => {
    held.mockRejectedValue(new Error("ECONNREFUSED"));
    expect(await post({ intent: "open-all", boxIds: "5", idempotencyKey: KEY })).toMatchObject({
      status: 503,
      data: { errors: { "": [CHAIN_DOWN_MESSAGE] } },
    });
  });
});

describe("open now", () => {
  it("opens exactly the boxes the mined purchase minted, whatever else the form says", async () => {
    sso.execution.mockResolvedValue(purchase());
    await post({ intent: "open-bought", executionId: "d".repeat(32), idempotencyKey: KEY, boxIds: "5,6" });
    expect(sso.execution).toHaveBeenCalledWith("d".repeat(32));
    expect(sent()).toEqual([{ action: "lootbox.open", params: { boxIds: ["21", "22"] }, idempotencyKey: KEY }]);
  });

  it("refuses a purchase not mined yet (409), another box type's or an opening (400), and another account's (404)", async () => {
    const openNow = { intent: "open-bought", executionId: "d".repeat(32), idempotencyKey: KEY };
    sso.execution.mockResolvedValueOnce(purchase({ status: "sending", result: null }));
    expect((await post(openNow)).status).toBe(409);
    sso.execution.mockResolvedValueOnce(purchase({ params: { typeBox: 5, currency: "USDT", quantity: 2 } }));
    expect((await post(openNow)).status).toBe(400);
    sso.execution.mockResolvedValueOnce(purchase({ action: "lootbox.open", params: { boxIds: ["5"] } }));
    expect((await post(openNow)).status).toBe(400);
    sso.execution.mockRejectedValueOnce(new BackendError("No such action", 404));
    expect(await post(openNow)).toMatchObject({ status: 404, data: { errors: { "": ["No such action"] } } });
    expect(sso.startAction).not.toHaveBeenCalled();
  });
});

describe("actionProblem", () => {
  it("keeps refusals and a silent chain, calls a backend down a 502, and throws anything else on", () => {
    expect(actionProblem(new BackendError("nope", 403))).toEqual({ status: 403, message: "nope" });
    expect(actionProblem(new BackendError("The server took too long to answer. Please try again.", 504))).toEqual({
      status: 502,
      message: "The wallet service could not be reached: The server took too long to answer. Please try again.",
    });
    const redirect = new Response(null, { status: 302 });
    expect(() => actionProblem(redirect)).toThrow();
  });
});

describe("newIdempotencyKey", () => {
  it("is 24 URL-safe characters the executor accepts, fresh each time", () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});

describe("lootboxFollowUp", () => {
  it("offers Open now for a mined purchase whose boxes the wallet still holds", async () => {
    held.mockResolvedValue([
      { id: 21n, typeBox: 4 },
      { id: 22n, typeBox: 4 },
    ]);
    const form = await lootboxFollowUp(purchase());
    expect(form).toMatchObject({
      action: "/lootbox/4",
      fields: { intent: "open-bought", executionId: "d".repeat(32) },
      label: "Open now (2 boxes)",
    });
    expect(form?.fields.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // Registered for the status page, which knows no feature.
    expect(await followUpOf(purchase(), "/lootbox/4")).toMatchObject({ action: "/lootbox/4", label: "Open now (2 boxes)" });
  });

  it("offers nothing once a bought box is opened, nor for a purchase still running or an opening", async () => {
    held.mockResolvedValue([{ id: 21n, typeBox: 4 }]);
    expect(await lootboxFollowUp(purchase())).toBeNull();
    expect(await lootboxFollowUp(purchase({ status: "sending" }))).toBeNull();
    expect(await lootboxFollowUp(purchase({ action: "lootbox.open", params: { boxIds: ["5"] } }))).toBeNull();
  });
});
