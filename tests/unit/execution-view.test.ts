import { describe, expect, it } from "vitest";
import { describeAction, executionView, openedItems, progressRows } from "~/features/actions/execution-view";
import type { Execution, ExecutionStep } from "~core/api/actions";
import { encodeItem } from "~core/item-data";

const HASH_A = `0x${"a".repeat(64)}`;
const HASH_B = `0x${"b".repeat(64)}`;

const step = (kind: ExecutionStep["kind"], label: string, status: ExecutionStep["status"], block: string | null = null): ExecutionStep => ({
  kind,
  label,
  status,
  txHash: status === "pending" ? null : kind === "approve" ? HASH_A : HASH_B,
  blockNumber: block,
});

function buy(status: Execution["status"], steps: ExecutionStep[], extra: Partial<Execution> = {}): Execution {
  return {
    id: "f".repeat(32),
    action: "lootbox.buy",
    params: { typeBox: 4, currency: "USDT", quantity: 2 },
    status,
    steps,
    txHash: null,
    blockNumber: null,
    error: null,
    result: null,
    wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    createdAt: "2026-11-23T10:00:00.000Z",
    updatedAt: "2026-11-23T10:00:01.000Z",
    ...extra,
  };
}

const APPROVE = "Approve 20 USDT";
const BUY = "Buy 2 Standard loot boxes for 20 USDT";
/** Each row as "label: detail", with "*" after the current one. */
const rows = (execution: Execution) =>
  progressRows(execution).map((row) => `${row.label}: ${row.detail} [${row.state}]${row.current ? "*" : ""}`);

describe("describeAction", () => {
  it("says what a purchase buys, in what currency, with the box's own name", () => {
    expect(describeAction(buy("queued", []))).toBe("Buy 2 Standard loot boxes with USDT");
    expect(describeAction({ action: "lootbox.buy", params: { typeBox: 18, currency: "QUARK", quantity: 1 } })).toBe(
      "Buy 1 V3-Galaxy loot box with QUARK",
    );
  });
  it("counts the boxes an opening opens", () => {
    expect(describeAction({ action: "lootbox.open", params: { boxIds: ["1", "2", "3"] } })).toBe("Open 3 loot boxes");
    expect(describeAction({ action: "lootbox.open", params: { boxIds: ["7"] } })).toBe("Open 1 loot box");
  });
});

describe("describeAction of a trading action (issue 28)", () => {
  it("takes the executor's trade step, else its approval, else the action's own words", () => {
    const steps = [step("approve", "Approve 12.5 for the trading contract", "pending"), step("trade", "Buy item #12", "pending")];
    expect(describeAction({ action: "trade.buy", params: { order: {} } as never, steps })).toBe("Buy item #12");
    const approval = [step("approve-trade", "Let the trading contract move your cards when they sell", "pending")];
    expect(describeAction({ action: "trade.approve", params: {}, steps: approval })).toBe(
      "Let the trading contract move your cards when they sell",
    );
    expect(describeAction({ action: "trade.approve", params: {}, steps: [] })).toBe(
      "Let the trading contract move your items when they sell",
    );
    // A box seller's approval names the boxes too, not the cards alone (its first step).
    const all = ["cards", "material stacks", "loot boxes"].map((what) =>
      step("approve-trade", `Let the trading contract move your ${what} when they sell`, "pending"),
    );
    expect(describeAction({ action: "trade.approve", params: {}, steps: all })).toBe(
      "Let the trading contract move your cards, material stacks and loot boxes when they sell",
    );
    expect(describeAction({ action: "trade.approve", params: {}, steps: all.slice(2) })).toBe(
      "Let the trading contract move your loot boxes when they sell",
    );
    expect(
      describeAction({ action: "trade.sendNft", params: { tokenId: "12", account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } }),
    ).toBe("Send an item to a player");
    const to = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const items = { to: to as `0x${string}`, items: [{ id: "8002", amount: "10" }] };
    expect(
      describeAction({ action: "trade.transferItems", params: items, steps: [step("trade", `Send 10 of item #8002 to ${to}`, "pending")] }),
    ).toBe(`Send 10 of item #8002 to ${to}`);
    expect(describeAction({ action: "trade.transferItems", params: items })).toBe("Transfer items to a wallet");
  });
});

describe("progressRows: queued, each transaction, then the outcome, with exactly one current row", () => {
  it("queued: the queue is where it is", () => {
    expect(rows(buy("queued", [step("approve", APPROVE, "pending"), step("buy", BUY, "pending")]))).toEqual([
      "Queued: waiting for its turn [active]*",
      `${APPROVE}: waiting [waiting]`,
      `${BUY}: waiting [waiting]`,
      "Mined:  [waiting]",
    ]);
  });

  it("approving: the approval is signed, then sent; the purchase waits", () => {
    expect(rows(buy("approving", [step("approve", APPROVE, "pending"), step("buy", BUY, "pending")]))[1]).toBe(
      `${APPROVE}: being signed and sent [active]*`,
    );
    expect(rows(buy("approving", [step("approve", APPROVE, "sent"), step("buy", BUY, "pending")]))).toEqual([
      "Queued: taken up [done]",
      `${APPROVE}: sent, waiting to be mined [active]*`,
      `${BUY}: waiting [waiting]`,
      "Mined:  [waiting]",
    ]);
  });

  it("sending: the approval is mined in its block and the purchase is under way", () => {
    const execution = buy("sending", [step("approve", APPROVE, "mined", "41"), step("buy", BUY, "sent")]);
    expect(rows(execution).slice(1, 3)).toEqual([`${APPROVE}: mined in block 41 [done]`, `${BUY}: sent, waiting to be mined [active]*`]);
    expect(progressRows(execution)[2].txHash).toBe(HASH_B);
  });

  it("mined: every step in its block, and the outcome is current with the last transaction", () => {
    const execution = buy("mined", [step("approve", APPROVE, "mined", "41"), step("buy", BUY, "mined", "42")], {
      txHash: HASH_B,
      blockNumber: "42",
    });
    expect(rows(execution)).toEqual([
      "Queued: taken up [done]",
      `${APPROVE}: mined in block 41 [done]`,
      `${BUY}: mined in block 42 [done]`,
      "Mined: all done in block 42 [done]*",
    ]);
    expect(progressRows(execution).at(-1)).toMatchObject({ txHash: HASH_B, blockNumber: "42" });
  });

  it("failed: the failed step, the steps never sent, and the message as the outcome", () => {
    const error = "Transaction failed. You do not have enough balance.";
    const execution = buy("failed", [step("approve", APPROVE, "failed"), step("buy", BUY, "pending")], { error });
    expect(rows(execution)).toEqual([
      "Queued: taken up [done]",
      `${APPROVE}: failed [failed]`,
      `${BUY}: not sent [waiting]`,
      `Failed: ${error} [failed]*`,
    ]);
  });

  it("failed before anything was sent (refused when its turn came): no step is current", () => {
    const execution = buy("failed", [step("buy", BUY, "pending")], { error: "Not enough boxes of this type are left." });
    const all = progressRows(execution);
    expect(all.filter((row) => row.current).map((row) => row.key)).toEqual(["outcome"]);
    expect(all[1].detail).toBe("not sent");
  });

  it("marks one current row in every state", () => {
    for (const status of ["queued", "approving", "sending", "mined", "failed"] as const) {
      const steps = [step("approve", APPROVE, status === "queued" ? "pending" : "mined", "1"), step("buy", BUY, "pending")];
      expect(
        progressRows(buy(status, steps)).filter((row) => row.current),
        status,
      ).toHaveLength(1);
    }
  });
});

describe("executionView", () => {
  it("gives a final purchase its status sentence and minted box ids", () => {
    const view = executionView(
      buy("mined", [step("buy", BUY, "mined", "9")], { blockNumber: "9", txHash: HASH_B, result: { boxIds: ["5", "6"] } }),
    );
    expect(view).toMatchObject({ final: true, statusText: "Done: mined in block 9.", boxIds: ["5", "6"], items: [] });
  });

  it("is not final while it runs, and says why it failed once it has", () => {
    expect(executionView(buy("sending", [])).final).toBe(false);
    expect(executionView(buy("failed", [], { error: "The sale has not started yet." })).statusText).toBe(
      "Failed: The sale has not started yet.",
    );
  });

  it("decodes the items an opening yielded and leaves out malformed entries", () => {
    const ship = encodeItem.spaceship({ shipType: 2, level: 1, stats: [10, 20, 30, 40, 50, 60, 70] });
    const opening: Execution = {
      ...buy("mined", []),
      action: "lootbox.open",
      params: { boxIds: ["3"] },
      result: {
        items: [
          { tokenId: "12", data: ship.toString() },
          { tokenId: "13", data: encodeItem.material(4).toString() },
          { tokenId: "x", data: "1" },
          { tokenId: "14", data: "-1" },
        ],
      },
    };
    const items = openedItems(opening);
    expect(items.map((item) => item.tokenId)).toEqual([12n, 13n]);
    expect(items[0].attributes).toMatchObject({ nftType: 4, shipType: 2, total: 280 });
    expect(items[1].attributes).toEqual({ nftType: 8, material: 4 });
    expect(executionView(opening).boxIds).toEqual([]);
  });

  it("shows a mined withdrawal's FIRE and reward boxes, with where to see and open them; nothing before it is mined", () => {
    const withdrawal: Execution = {
      ...buy("mined", [step("withdraw", "Withdraw 250 FIRE and claim 2 Epic loot boxes from the Epic Pool", "mined", "40")]),
      action: "staking.withdraw",
      params: { poolId: 2 },
      blockNumber: "40",
      result: { amountReturned: (250n * 10n ** 18n).toString(), rewardBoxIds: ["31", "32"] },
    };
    expect(describeAction(withdrawal)).toBe("Withdraw and claim from the Epic Pool");
    expect(executionView(withdrawal).withdrawn).toEqual({
      returned: "250 FIRE",
      boxes: "2 Epic loot boxes",
      boxIds: ["31", "32"],
      rewardsHref: "/loyalty/rewards/2",
      openHref: "/lootbox/6",
    });
    expect(executionView({ ...withdrawal, result: { amountReturned: "10", rewardBoxIds: [] } }).withdrawn?.boxes).toBe("0 Epic loot boxes");
    expect(executionView({ ...withdrawal, status: "sending", result: null }).withdrawn).toBeNull();
    expect(executionView(buy("mined", [])).withdrawn).toBeNull();
  });
});
