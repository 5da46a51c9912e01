import { describe, expect, it } from "vitest";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { itemMove, storageMove } from "~/services/bridge.server";

const item = { nftType: 4, tokenId: "1000000007", isOwner: true, onSale: false };

describe("itemMove: what an item's page offers its holder between the game and the chain", () => {
  it("offers a game item's move to the chain, warning that a sale ends", () => {
    expect(itemMove({ ...item, location: "game" }, "/back")).toMatchObject({ intent: "claim-item", label: "Move to chain" });
    expect(itemMove({ ...item, location: "game", onSale: true }, "/back")?.note).toMatch(/^Its sale ends/);
  });

  it("offers an on-chain item's move into the game", () => {
    expect(itemMove({ ...item, location: "chain" }, "/back")).toMatchObject({ intent: "swap-item", label: "Move into the game" });
  });

  it("says a claimed item is waiting for the chain, with nothing to post, so the section stays on the page", () => {
    const move = itemMove({ ...item, location: "leaving" }, "/back");
    expect(move).toMatchObject({ intent: "pending", label: "Moving to chain" });
    expect(move?.note).toContain("once the chain has recorded it");
  });

  it("offers nothing to anyone but the holder", () => {
    for (const location of ["game", "leaving", "chain"]) expect(itemMove({ ...item, location, isOwner: false }, "/back")).toBeNull();
  });
});

describe("moves into the game are offered only for the card collection the asset manager takes back", () => {
  it("offers no move into the game for a loot box on the chain (a box is opened there, and its id could name a card)", () => {
    expect(itemMove({ ...item, nftType: NFT_TYPE.lootbox, location: "chain" }, "/back")).toBeNull();
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", location: "chain" }, "/d", "/back", true)).toBeNull();
  });

  it("still offers a chain loot box's own claim path and every card kind's way back", () => {
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", location: "game" }, "/d", "/back", true)?.form).toMatchObject({
      intent: "claim-item",
    });
    for (const nftType of CARD_COLLECTION_TYPES) {
      expect(itemMove({ ...item, nftType, location: "chain" }, "/back")).toMatchObject({ intent: "swap-item" });
      expect(storageMove({ nftType, tokenId: "7", location: "chain" }, "/d", "/back", false)).toMatchObject({
        label: "Move into the game",
        form: null,
      });
    }
  });
});
