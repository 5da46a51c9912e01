import { describe, expect, it } from "vitest";
import { readTokenRef, safeBack } from "~/routes/marketplace.detail/route.server";
import { cardView, detailHref, historyRow, itemView, traitsBeyond } from "~/features/market/market-views.server";
import type { ListingRecord } from "~core/api/market";
import { NO_CODES, NO_STATS } from "./listing-fixture";

const BOX: ListingRecord = {
  ...NO_CODES,
  ...NO_STATS,
  tokenId: "244",
  nftType: 6,
  nftTypeName: "lootbox",
  tokenURI: "/api/v1/metadata/6/244/17",
  ownerAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  name: "Spaceship loot box Box #244",
  image: "/images/nft/lootbox-legend.svg",
  amount: "1",
  location: "game",
  price: "49400000000000000000000",
  currency: "FIRE",
  isSelling: true,
  venue: "game",
  listedAmount: null,
  sellerAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  listedAt: "2026-11-19T13:36:00.000Z",
  attributes: [],
  boxType: 17,
  views: 3,
  favorites: 1,
};

describe("market views", () => {
  it("a card names everything: type, product-spec rank label, box type, price with its currency", () => {
    expect(cardView(BOX, "/marketplace/market?nftType=6")).toEqual({
      key: "6-244",
      href: "/marketplace/detail?nftType=6&tokenId=244&back=%2Fmarketplace%2Fmarket%3FnftType%3D6",
      name: "Spaceship loot box Box #244",
      image: "/images/nft/lootbox-legend.svg",
      typeLabel: "Loot boxes",
      grade: { label: "Rank", value: "Legendary" },
      attributes: [{ label: "Loot box", value: "Spaceship loot box" }],
      price: "49,400 FIRE",
      venue: "In game",
      favorites: 1,
      views: 3,
    });
    expect(cardView({ ...BOX, price: null, currency: null }, "/marketplace").price).toBeNull();
  });

  it("a card marks where its listing trades, and an item not on sale has no marker", () => {
    expect(cardView({ ...BOX, venue: "chain", location: "chain" }, "/").venue).toBe("On chain");
    expect(cardView({ ...BOX, venue: "game" }, "/").venue).toBe("In game");
    expect(cardView({ ...BOX, isSelling: false, venue: null, price: null, currency: null }, "/").venue).toBeNull();
  });

  it("a stack listed in part on chain says how much of it is for sale", () => {
    const stack = {
      ...BOX,
      nftType: 8,
      tokenURI: "/api/v1/metadata/8/1",
      boxType: null,
      material: 2,
      amount: "100",
      location: "chain" as const,
    };
    const amount = (record: ListingRecord) => cardView(record, "/").attributes.find((a) => a.label === "Amount")?.value;
    expect(amount({ ...stack, venue: "chain", listedAmount: "40" })).toBe("40 of 100");
    expect(amount({ ...stack, venue: "game", listedAmount: null })).toBe("100");
  });

  it("a spaceship card adds its Total, the sum of its stats", () => {
    const ship = { ...BOX, nftType: 4, tokenURI: "/api/v1/metadata/4/1", boxType: null, rank: 4, camp: 0, level: 3 };
    const stats = { endurance: 1, agility: 2, pisonic: 3, strength: 4, crit: 5, spirit: 6, armor: 7, total: 999 };
    expect(cardView({ ...ship, ...stats }, "/").attributes).toEqual([
      { label: "Camp", value: "Asman Zerg" },
      { label: "Level", value: "3" },
      { label: "Total", value: "28" },
    ]);
  });

  it("the back link only goes to marketplace pages and player pages of this site", () => {
    expect(safeBack("/marketplace/market?nftType=4&camp=1")).toBe("/marketplace/market?nftType=4&camp=1");
    expect(safeBack("/player/0x70997970C51812dc3A010C7d01b50e0d17dc79C8?nftType=0")).toBe(
      "/player/0x70997970C51812dc3A010C7d01b50e0d17dc79C8?nftType=0",
    );
    expect(safeBack("/marketplace/storage?tab=favorites")).toBe("/marketplace/storage?tab=favorites");
    expect(safeBack("/marketplace")).toBe("/marketplace");
    for (const bad of ["https://evil.example/marketplace", "//evil.example", "/login", "/marketplacex", "/playerx", null])
      expect(safeBack(bad)).toBe("/marketplace/market");
    expect(detailHref({ tokenId: "1", nftType: 0 }, "/marketplace/market?camp=1,2")).toBe(
      "/marketplace/detail?nftType=0&tokenId=1&back=%2Fmarketplace%2Fmarket%3Fcamp%3D1%2C2",
    );
  });

  it("the history names every event the market records, a transfer without a price", () => {
    const event = {
      fromAddress: BOX.ownerAddress,
      toAddress: null,
      price: "2500000000000000000",
      currency: "FIRE",
      at: "2026-11-19T13:36:00.000Z",
    };
    expect(historyRow({ ...event, event: "sale" }, 0)).toMatchObject({ event: "Sold", price: "2.5 FIRE", from: "0xf39F…b92266", to: null });
    const transfer = historyRow({ ...event, event: "transfer", price: "0", toAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }, 1);
    expect(transfer).toEqual({
      key: "2026-11-19T13:36:00.000Z-1",
      event: "Transferred",
      price: "—",
      from: "0xf39F…b92266",
      to: "0x7099…dc79C8",
      at: "2026-11-19 13:36 UTC",
    });
  });

  it("the detail reads tokenId and nftType strictly", () => {
    const read = (search: string) => readTokenRef(new URLSearchParams(search));
    expect(read("")).toEqual({ ref: null, problem: null });
    expect(read("tokenId=007&nftType=4")).toEqual({ ref: { tokenId: "7", nftType: 4 }, problem: null });
    expect(read("tokenId=-1&nftType=4").problem).toMatch(/tokenId/);
    expect(read("tokenId=1&nftType=9").problem).toMatch(/nftType/);
    expect(read("tokenId=1").problem).toMatch(/nftType/);
  });
});

describe("itemView of a chain-held item (product §7 NFT metadata)", () => {
  const SHIP = {
    ...BOX,
    nftType: 4,
    nftTypeName: "spaceship",
    tokenId: "7",
    boxType: null,
    rank: 2,
    level: 2,
    location: "chain" as const,
    name: "Rare Frigate #7",
    image: "/images/nft/spaceship-rare.svg",
    attributes: [{ trait_type: "Level", value: 2 }],
    price: null,
    currency: null,
    isSelling: false,
    sellerAddress: null,
    listing: null,
    history: [],
    pendingConfirmations: null,
  };

  it("shows the token's own metadata when it was read: its name, picture and attributes", () => {
    const view = itemView(SHIP, {
      wallet: undefined,
      views: 0,
      chainMetadata: {
        status: "read",
        name: "Rare Frigate #7 (upgraded)",
        image: "/images/nft/x.svg",
        attributes: [{ name: "Level", value: "3" }],
      },
    });
    expect(view).toMatchObject({
      name: "Rare Frigate #7 (upgraded)",
      image: "/images/nft/x.svg",
      metadata: [{ name: "Level", value: "3" }],
      metadataSource: "chain",
    });
  });

  it("keeps the market's copy, and says the read failed, when it was not; the market's picture when the document has none of ours", () => {
    // The market's copy says nothing the Attributes do not: no Metadata section repeating them.
    expect(itemView(SHIP, { wallet: undefined, views: 0, chainMetadata: { status: "failed" } })).toMatchObject({
      name: "Rare Frigate #7",
      named: expect.arrayContaining([{ label: "Level", value: "2" }]),
      metadata: [],
      metadataSource: "failed",
    });
    const noImage = itemView(SHIP, {
      wallet: undefined,
      views: 0,
      chainMetadata: { status: "read", name: "n", image: null, attributes: [] },
    });
    expect(noImage.image).toBe("/images/nft/spaceship-rare.svg");
    expect(itemView(SHIP, { wallet: undefined, views: 0 }).metadataSource).toBeNull();
  });

  it("notes a chain change that is not final yet, and nothing once it is (decision 0029)", () => {
    const pending = itemView({ ...SHIP, pendingConfirmations: { have: 3, need: 15 } }, { wallet: undefined, views: 0 });
    expect(pending.pending).toBe("Pending: 3 of 15 confirmations — the chain may still take this back.");
    expect(itemView(SHIP, { wallet: undefined, views: 0 }).pending).toBeNull();
  });
});

describe("traitsBeyond", () => {
  it("keeps only the market's traits the Attributes and the type badge do not show", () => {
    const named = [
      { label: "Camp", value: "Confederation of Earth" },
      { label: "Level", value: "9" },
    ];
    const attributes = [
      { trait_type: "Type", value: "card" },
      { trait_type: "Camp", value: "Confederation of Earth" },
      { trait_type: "Level", value: 9 },
      { trait_type: "Edition", value: "First" },
    ];
    expect(traitsBeyond(named, attributes)).toEqual([{ name: "Edition", value: "First" }]);
    // The same name with another value is news, and stays.
    expect(traitsBeyond(named, [{ trait_type: "Level", value: 10 }])).toEqual([{ name: "Level", value: "10" }]);
  });
});
