import { describe, expect, it } from "vitest";
import { chainCollectionOfferable, chainOfferAllowance, chainOfferCriteria } from "~/features/offers/chain-offer-rules";
import type { OfferRecord } from "~core/api/offers";
import { NFT_TYPE } from "~core/nft";

const WEI = 10n ** 18n;
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
