import { describe, expect, it } from "vitest";
import type { GasQuote } from "~core/api/actions";
import { feeReview } from "~/features/actions/fee-review";

const quote: GasQuote = {
  id: "0".repeat(32),
  action: "staking.deposit",
  params: { poolId: 1, amount: "100000000000000000000" },
  labels: ["Approve 100 FIRE for staking", "Stake 100 FIRE in the Standard Pool"],
  token: "FIRE",
  fee: "3250000000000000001",
  gas: "270900000000000",
  spends: "100000000000000000000",
  expiresAt: "2026-11-29T10:15:42.123Z",
  status: "open",
  executionId: null,
};

describe("a network fee's review (decision 0038)", () => {
  it("shows the fee to the wei, what the action spends, their total and until when it holds", () => {
    expect(feeReview(quote)).toEqual({
      steps: quote.labels,
      fee: "3.250000000000000001 FIRE",
      gas: "0.0002709 BNB",
      spends: "100 FIRE",
      total: "103.250000000000000001 FIRE",
      expiresAt: "2026-11-29 10:15 UTC",
      expired: false,
    });
  });

  it("says when the site covers the fee, when the action spends none of the token, and when the fee expired", () => {
    expect(feeReview({ ...quote, fee: "0", spends: "0", status: "expired" })).toMatchObject({
      fee: null,
      spends: null,
      total: "0 FIRE",
      expired: true,
    });
  });
});
