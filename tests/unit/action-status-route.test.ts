/** The status page's reload without JavaScript (root.tsx renders it in the head): every second until the action is final. */
import { describe, expect, it } from "vitest";
import { executionView } from "~/features/actions/execution-view";
import type { Execution } from "~core/api/actions";

const { handle } = await import("~/routes/actions.$id/route");

function execution(status: Execution["status"]): Execution {
  return {
    id: "f".repeat(32),
    action: "lootbox.open",
    params: { boxIds: ["5"] },
    status,
    steps: [],
    txHash: null,
    blockNumber: null,
    error: status === "failed" ? "Some of these boxes are no longer yours to open." : null,
    result: null,
    wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    createdAt: "2026-11-23T10:00:00.000Z",
    updatedAt: "2026-11-23T10:00:01.000Z",
  };
}

const refresh = (data: unknown) => handle.refreshSeconds?.(data);

describe("the status page's handle", () => {
  it.each(["queued", "approving", "sending"] as const)("reloads every second while %s", (status) => {
    expect(refresh({ view: executionView(execution(status)), problem: null })).toBe(1);
  });

  it.each(["mined", "failed"] as const)("stops once %s", (status) => {
    expect(refresh({ view: executionView(execution(status)), problem: null })).toBeNull();
  });

  it("keeps reloading while the status cannot be read (the action runs on), and not on an error page", () => {
    expect(refresh({ view: null, problem: "The wallet service could not be reached." })).toBe(1);
    expect(refresh(undefined)).toBeNull();
  });
});
