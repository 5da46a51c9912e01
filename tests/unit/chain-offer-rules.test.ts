import { describe, expect, it } from "vitest";
import {
  chainCollectionOfferable,
  chainOfferAllowance,
  chainOfferCriteria,
  pendingOfferOf,
  withPendingOffer,
} from "~/features/offers/chain-offer-rules";
import { followUpOf } from "~/services/action-features.server";
// Registers the offers' approval follow-up, as app/entry.server.tsx does.
import "~/features/offers/chain-offer-actions.server";
import { testExecution } from "./execution-fixture";
import type { Execution } from "~core/api/actions";
import type { OfferRecord } from "~core/api/offers";
import { NFT_TYPE } from "~core/nft";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const NOW = 1_800_000_000;

function offer(over: Partial<OfferRecord>): OfferRecord {
  return {
    id: "1",
    venue: "chain",
    kind: "item",
    buyerAddress: "0x0000000000000000000000000000000000000001",
    nftType: 0,
    tokenId: "5",
    filter: "",
    label: "",
    price: (3n * WEI).toString(),
    currency: "FIRE",
    expiry: NOW + 60,
    status: "active",
    createdAt: "",
    payable: true,
    ...over,
  };
}

describe("chain offers from the pages (issue 30, decision 0024)", () => {
  it("asks the allowance for the new price plus the buyer's other open chain offers in that currency only", () => {
    const mine = [
      offer({ id: "1", price: (3n * WEI).toString() }),
      offer({ id: "2", price: "7" }),
      offer({ id: "3", currency: "QUARK", price: (50n * WEI).toString() }),
      offer({ id: "4", venue: "game", price: (9n * WEI).toString() }),
      offer({ id: "5", status: "cancelled", price: (11n * WEI).toString() }),
      offer({ id: "6", status: "accepted", price: (13n * WEI).toString() }),
      offer({ id: "7", expiry: NOW, price: (17n * WEI).toString() }),
    ];
    expect(chainOfferAllowance(mine, "FIRE", 2n * WEI, NOW)).toBe(5n * WEI + 7n);
    expect(chainOfferAllowance(mine, "QUARK", 1n, NOW)).toBe(50n * WEI + 1n);
    expect(chainOfferAllowance([], "USDT", 1n, NOW)).toBe(1n);
  });

  it("names one token with no data mask, and a card type by its type byte with token 0", () => {
    expect(chainOfferCriteria({ tokenId: "42" })).toEqual({ tokenId: 42n, dataMask: 0n, dataValue: 0n });
    expect(chainOfferCriteria({ nftType: NFT_TYPE.spaceship })).toEqual({
      tokenId: 0n,
      dataMask: 0xffn,
      dataValue: BigInt(NFT_TYPE.spaceship),
    });
  });

  it("lets a view of a card collection's type be offered on from the wallet on chain, never a loot box view", () => {
    expect(chainCollectionOfferable(NFT_TYPE.spaceship)).toBe(true);
    expect(chainCollectionOfferable(NFT_TYPE.card)).toBe(true);
    expect(chainCollectionOfferable(NFT_TYPE.lootbox)).toBe(false);
  });
});

describe("an offer waiting on its approval", () => {
  const page = "/marketplace/offers?nftType=0&tokenId=12";
  const typed = { price: "12.000000000000000345", currency: "FIRE", days: "7", payFrom: "chain" };

  it("rides the offers page's URL as typed, and comes off it whole", () => {
    const carried = withPendingOffer(page, typed);
    expect(carried).toBe(`${page}&offerPrice=12.000000000000000345&offerCurrency=FIRE&offerDays=7&offerPayFrom=chain`);
    expect(pendingOfferOf(carried)).toEqual({ offer: typed, page });
    // A second approval replaces the first's offer instead of adding to it.
    const again = withPendingOffer(carried, { ...typed, price: "3" });
    expect(pendingOfferOf(again)).toEqual({ offer: { ...typed, price: "3" }, page });
  });

  it("is not carried, or not read, unless it is an offer the form would take", () => {
    for (const bad of [
      { ...typed, price: "" },
      { ...typed, price: "0" },
      { ...typed, price: "1e5" },
      { ...typed, price: "9".repeat(41) },
      { ...typed, currency: "DOGE" },
      { ...typed, days: "2" },
      { ...typed, payFrom: "card" },
    ]) {
      expect(withPendingOffer(page, bad)).toBe(page);
      const forged = `${page}&offerPrice=${bad.price}&offerCurrency=${bad.currency}&offerDays=${bad.days}&offerPayFrom=${bad.payFrom}`;
      expect(pendingOfferOf(forged)).toBeNull();
    }
    expect(pendingOfferOf(page)).toBeNull();
    // Without "Pay from" (an item's form has none), the game balance, as the form's default.
    expect(pendingOfferOf(withPendingOffer(page, { ...typed, payFrom: "" }))?.offer.payFrom).toBe("game");
  });

  it("is one press away on the status page of its mined approval, and not before", async () => {
    const approval = (status: Execution["status"]) =>
      testExecution(
        "trade.offerApprove",
        { currency: "0x0000000000000000000000000000000000000002", amount: "12000000000000000345" },
        { status },
      );
    const back = withPendingOffer(page, typed);
    const form = await followUpOf(approval("mined"), back);
    expect(form).toMatchObject({
      action: page,
      fields: { intent: "offer", ...typed, back: page },
      label: "Make the offer: 12.000000000000000345 FIRE",
    });
    expect(form?.fields.idempotencyKey).toMatch(/^[\w-]{24}$/);
    expect(await followUpOf(approval("approving"), back)).toBeNull();
    expect(await followUpOf(approval("failed"), back)).toBeNull();
    expect(await followUpOf(approval("mined"), page)).toBeNull();
  });
});
