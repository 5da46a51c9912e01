import { describe, expect, it } from "vitest";
import { CHAIN_INTENTS, feePercent, feeRule, isChainIntent, listingEndsNote } from "~/features/market/chain-trade";
import { SEEDED_FEE_BPS } from "~core/trading";

describe("the chain forms' fee rule and intents (issue 28)", () => {
  it("words the contract's fee in percent, whatever it is set to", () => {
    expect(feePercent(SEEDED_FEE_BPS)).toBe("2.5 %");
    expect(feePercent(1000)).toBe("10 %");
    expect(feePercent(1)).toBe("0.01 %");
    expect(feeRule(SEEDED_FEE_BPS)).toBe("2.5 % fee; you receive the price − the fee.");
  });

  it("says a move ends a whole item's listing, and a stack's only when fewer than the listed amount stay", () => {
    expect(listingEndsNote(null)).toBe("Its listing on chain ends: the buyer's order no longer finds it in your wallet.");
    expect(listingEndsNote("40")).toBe("Its listing on chain ends if fewer than the 40 listed stay in your wallet.");
  });

  it("tells the chain forms' intents from the game forms'", () => {
    for (const intent of CHAIN_INTENTS) expect(isChainIntent(intent)).toBe(true);
    for (const intent of ["sell", "cancel", "buy", "confirm-buy", "transfer", "cancel-all", "", "chain-"])
      expect(isChainIntent(intent)).toBe(false);
  });
});
