/** What counts as final (core/chain-finality.ts, decision 0029), and what a page says of a change that is not yet. */
import { describe, expect, it } from "vitest";
import { finalBlock, headIsFinal, pendingConfirmations, readFinality } from "~core/chain-finality";
import { pendingNote } from "~/features/market/market-views.server";

describe("the final block", () => {
  it("is the head on the local chain, and `confirmations` below it elsewhere", () => {
    expect(finalBlock(100n, 0)).toBe(100n);
    expect(finalBlock(100n, 15)).toBe(85n);
  });

  it("is the lower of the tagged block and head − confirmations", () => {
    expect(finalBlock(100n, 0, 70n)).toBe(70n);
    expect(finalBlock(100n, 15, 90n)).toBe(85n);
    expect(finalBlock(100n, 15, 80n)).toBe(80n);
  });

  it("is every mined block at once only with 0 confirmations and no tag", () => {
    expect(headIsFinal({ confirmations: 0 })).toBe(true);
    expect(headIsFinal({ confirmations: 0, finality: "confirmations" })).toBe(true);
    expect(headIsFinal({ confirmations: 1 })).toBe(false);
    expect(headIsFinal({ confirmations: 0, finality: "safe" })).toBe(false);
  });

  it("reads the node's tag only when CHAIN_FINALITY names one", async () => {
    const asked: string[] = [];
    const client = {
      getBlockNumber: async () => 100n,
      getBlock: async ({ blockTag }: { blockTag: string }) => (asked.push(blockTag), { number: 60n }),
    };
    expect(await readFinality(client, { confirmations: 5 })).toEqual({ head: 100n, final: 95n });
    expect(await readFinality(client, { confirmations: 5, finality: "confirmations" })).toEqual({ head: 100n, final: 95n });
    expect(asked).toEqual([]);
    expect(await readFinality(client, { confirmations: 5, finality: "finalized" })).toEqual({ head: 100n, final: 60n });
    expect(asked).toEqual(["finalized"]);
  });
});

describe("a change not final yet", () => {
  it("counts the blocks on top of it against the distance to the final block", () => {
    expect(pendingConfirmations(98n, 100n, 85n)).toEqual({ have: 2, need: 15 });
    expect(pendingConfirmations(100n, 100n, 85n)).toEqual({ have: 0, need: 15 });
  });

  it("is nothing once final, or when its block is unknown", () => {
    expect(pendingConfirmations(85n, 100n, 85n)).toBeNull();
    expect(pendingConfirmations(10n, 100n, 85n)).toBeNull();
    expect(pendingConfirmations(null, 100n, 85n)).toBeNull();
  });

  it("reads as a note on the item page", () => {
    expect(pendingNote({ have: 3, need: 15 })).toBe("Pending: 3 of 15 confirmations — the chain may still take this back.");
    expect(pendingNote(null)).toBeNull();
  });
});
