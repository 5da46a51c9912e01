/**
 * The pure part of the browser wallet's chain trades (app/features/market/chain-trade-transactions.ts): the listing a
 * seller signs, its salt, and the fee and proceeds shown before signing. The sequences run on anvil in
 * tests/contracts/chain-trade-transactions.test.ts.
 */
import { describe, expect, it } from "vitest";
import { zeroAddress } from "viem";
import { buildListing, listingSalt, saleProceeds } from "~/features/market/chain-trade-transactions";
import { LISTING_STANDARD, SEEDED_FEE_BPS } from "~core/trading";

const SELLER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CARD = "0xc039b3B46814D8388e5205D37Dd0D154D806F1f4";
const FIRE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ITEMS = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

describe("buildListing", () => {
  it("lists one ERC-721 token of the collection under the given counter, expiring the chosen days from now", () => {
    const nowMs = 1_800_000_000_500;
    const listing = buildListing(
      SELLER,
      { collection: CARD },
      { tokenId: 12n, currency: FIRE, price: 12_500_000_000_000_000_000n, days: 7 },
      { counter: 3n, salt: 99n, nowMs },
    );
    expect(listing).toEqual({
      seller: SELLER,
      collection: CARD,
      standard: LISTING_STANDARD.erc721,
      tokenId: 12n,
      amount: 1n,
      currency: FIRE,
      price: 12_500_000_000_000_000_000n,
      // Whole seconds, the fraction dropped.
      expiry: 1_800_000_000n + 7n * 86_400n,
      salt: 99n,
      counter: 3n,
    });
  });

  it("lists an amount of a stack as one ERC-1155 listing of its SparkItems id", () => {
    const terms = { tokenId: 8002n, currency: FIRE, price: 25n * 10n ** 18n, days: 3, amount: 40n } as const;
    const listing = buildListing(SELLER, { collection: ITEMS }, terms, { counter: 0n, salt: 1n });
    expect(listing).toMatchObject({ collection: ITEMS, standard: LISTING_STANDARD.erc1155, tokenId: 8002n, amount: 40n });
  });

  it("takes BNB as the zero address and draws a fresh salt unless given one", () => {
    const terms = { tokenId: 1n, currency: zeroAddress, price: 1n, days: 1 };
    const first = buildListing(SELLER, { collection: CARD }, terms, { counter: 0n });
    const second = buildListing(SELLER, { collection: CARD }, terms, { counter: 0n });
    expect(first.currency).toBe(zeroAddress);
    expect(first.salt).not.toBe(second.salt);
  });
});

describe("listingSalt", () => {
  it("is a 256-bit number, different each time", () => {
    const salts = Array.from({ length: 64 }, listingSalt);
    expect(new Set(salts).size).toBe(64);
    for (const salt of salts) expect(salt >= 0n && salt < 2n ** 256n).toBe(true);
    // Random over 256 bits: some of 64 draws use the top 128 (a 128-bit draw never would).
    expect(salts.some((salt) => salt >= 2n ** 128n)).toBe(true);
  });
});

describe("saleProceeds", () => {
  it("splits the price into the contract's fee, rounded down, and what the seller receives, to the wei", () => {
    expect(saleProceeds(10n ** 18n, SEEDED_FEE_BPS)).toEqual({ fee: 25n * 10n ** 15n, proceeds: 975n * 10n ** 15n });
    // 39 * 250 / 10 000 = 0.975: the fee rounds down to 0 and the seller keeps it all.
    expect(saleProceeds(39n, SEEDED_FEE_BPS)).toEqual({ fee: 0n, proceeds: 39n });
    expect(saleProceeds(1_234n * 10n ** 18n + 7n, SEEDED_FEE_BPS)).toEqual({
      fee: 30_850_000_000_000_000_000n,
      proceeds: 1_234n * 10n ** 18n + 7n - 30_850_000_000_000_000_000n,
    });
    expect(saleProceeds(500n, 0)).toEqual({ fee: 0n, proceeds: 500n });
  });
});
