/** The status page's follow-ups: a feature registers one per action-name prefix, and the page asks without knowing any. */
import { describe, expect, it, vi } from "vitest";
import type { Execution } from "~core/api/actions";
import { followUpOf, registerFollowUp } from "~/services/action-follow-ups.server";

const execution = (action: Execution["action"]): Execution => ({
  id: "a".repeat(32),
  action,
  params: { tokenId: "12" },
  status: "mined",
  steps: [],
  txHash: null,
  blockNumber: null,
  error: null,
  result: null,
  wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  createdAt: "",
  updatedAt: "",
});

describe("followUpOf", () => {
  it("asks the follow-up registered for the action's prefix, and offers nothing where none is", async () => {
    const form = { action: "/spaceship/detail", fields: { intent: "next" }, label: "Next" };
    const ships = vi.fn(async () => form);
    registerFollowUp("spaceship.", ships);
    expect(await followUpOf(execution("spaceship.explore"))).toBe(form);
    expect(ships).toHaveBeenCalledWith(execution("spaceship.explore"));
    expect(await followUpOf(execution("staking.withdraw"))).toBeNull();
    expect(ships).toHaveBeenCalledTimes(1);
  });

  it("refuses a second follow-up for the same prefix", () => {
    registerFollowUp("bridge.", async () => null);
    expect(() => registerFollowUp("bridge.", async () => null)).toThrow(/registered already/);
  });
});
