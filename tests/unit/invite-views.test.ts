import { describe, expect, it } from "vitest";
import { rebatesView } from "~/features/invites/invite-views.server";

describe("rebatesView", () => {
  it("gives each recent rebate its invitee's short address and keeps the rest", () => {
    const entry = {
      inviteeAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      currency: "FIRE",
      amount: "5",
      at: "2026-01-01T00:00:00Z",
    };
    const rebates = { inviteCode: "ABC", invitedCount: 1, rebateBps: 500, totals: [], recent: [entry] };
    expect(rebatesView(rebates)).toEqual({ ...rebates, recent: [{ ...entry, inviteeShort: "0x7099…dc79C8" }] });
  });
});
