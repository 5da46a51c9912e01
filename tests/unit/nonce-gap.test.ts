import { describe, expect, it } from "vitest";
import { BaseError } from "viem";
import {
  broadcastOutcome,
  GAP_CHECK_POLLS,
  gapCheckDue,
  gapFills,
  gapStands,
  type StoredTransaction,
} from "../../backend/sso/executor/nonce-gap";

const stored = (nonce: number, status: "sent" | "mined", executionStatus = "sending", seq = 1): StoredTransaction => ({
  execution_seq: seq,
  position: 0,
  status,
  nonce,
  raw_tx: `0x0${nonce}`,
  tx_hash: `0x${nonce}${seq}`,
  block_number: status === "mined" ? "7" : null,
  id: `execution-${seq}`,
  execution_status: executionStatus as StoredTransaction["execution_status"],
});

describe("closing a nonce gap (decision 0040)", () => {
  it("looks at the signer's nonce only every few polls without a receipt", () => {
    expect([1, 2, GAP_CHECK_POLLS - 1].map(gapCheckDue)).toEqual([false, false, false]);
    expect(gapCheckDue(GAP_CHECK_POLLS)).toBe(true);
    expect(gapCheckDue(GAP_CHECK_POLLS + 1)).toBe(false);
    expect(gapCheckDue(2 * GAP_CHECK_POLLS)).toBe(true);
  });

  it("closes a gap seen twice running at the same pending nonce, below the waiting step's", () => {
    expect(gapStands(null, 3, 5)).toBe(false);
    expect(gapStands(3, 3, 5)).toBe(true);
    // The chain moves: transactions ahead are mining.
    expect(gapStands(2, 3, 5)).toBe(false);
    // The step's own nonce is next, or behind: no gap.
    expect(gapStands(5, 5, 5)).toBe(false);
    expect(gapStands(6, 6, 5)).toBe(false);
  });

  it("fills each nonce with a mined step's bytes first, then an unfinished execution's sent step's, else a no-op", () => {
    const fills = gapFills(3, 8, [
      stored(3, "sent", "sending", 1),
      stored(3, "mined", "mined", 2),
      stored(4, "sent", "approving"),
      // A failed execution's sent step is never sent again: a no-op takes its nonce, so it can never mine.
      stored(5, "sent", "failed"),
      // A mined step is sent again whatever became of its execution (what happened, happens again).
      stored(6, "mined", "failed"),
      stored(9, "mined", "mined"),
    ]);
    expect(fills.map((fill) => [fill.nonce, fill.stored && `${fill.stored.status}@${fill.stored.execution_seq}`])).toEqual([
      [3, "mined@2"],
      [4, "sent@1"],
      [5, null],
      [6, "mined@1"],
      [7, null],
    ]);
    expect(gapFills(4, 4, [stored(4, "mined")])).toEqual([]);
  });

  it("tells a repeated broadcast in the pool, its nonce taken, or refused", () => {
    const node = (details: string) => new BaseError("node error", { details });
    expect(broadcastOutcome(null)).toBe("sent");
    expect(broadcastOutcome(node("already known"))).toBe("sent");
    expect(broadcastOutcome(node("nonce too low"))).toBe("taken");
    expect(broadcastOutcome(node("replacement transaction underpriced"))).toBe("taken");
    expect(broadcastOutcome(node("insufficient funds for gas * price + value"))).toBe("refused");
    expect(broadcastOutcome(new Error("something else"))).toBe("refused");
  });
});
