import { describe, expect, it } from "vitest";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { intoGameRefusal, MOVE_REFUSALS, toChainRefusal } from "~core/item-moves";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { itemMove, storageMove } from "~/features/bridge/bridge.server";

const item = { nftType: 4, tokenId: "1000000007", amount: 1, isOwner: true, onSale: false };
const gameId = String(GAME_TOKEN_ID_BASE + 7);

describe("toChainRefusal: the one rule of what can leave the game (the market refuses by it, the pages offer by it)", () => {
  it("lets every card-collection kind go as a single piece, and a loot box that came from the chain", () => {
    for (const nftType of CARD_COLLECTION_TYPES) expect(toChainRefusal({ nftType, tokenId: gameId, amount: 1 })).toBeNull();
    expect(toChainRefusal({ nftType: NFT_TYPE.lootbox, tokenId: "7", amount: 1 })).toBeNull();
  });

  it("refuses each kind that cannot, with its own reason", () => {
    const refusal = (nftType: number, amount = 1) => toChainRefusal({ nftType, tokenId: gameId, amount });
    expect(refusal(NFT_TYPE.halloween)).toBe(MOVE_REFUSALS.halloween);
    expect(refusal(NFT_TYPE.pse)).toBe(MOVE_REFUSALS.pse);
    expect(refusal(NFT_TYPE.egse)).toBe(MOVE_REFUSALS.egse);
    expect(refusal(NFT_TYPE.lootbox)).toBe(MOVE_REFUSALS.gameOnlyBox);
    expect(refusal(NFT_TYPE.material, 40)).toBe(MOVE_REFUSALS.stackToChain);
    expect(refusal(99)).toBe(MOVE_REFUSALS.noChainForm);
  });

  it("takes back into the game only the card collection; a chain loot box is opened there", () => {
    for (const nftType of CARD_COLLECTION_TYPES) expect(intoGameRefusal({ nftType })).toBeNull();
    expect(intoGameRefusal({ nftType: NFT_TYPE.lootbox })).toBe(MOVE_REFUSALS.boxStaysOnChain);
  });
});

describe("itemMove: what an item's page offers its holder between the game and the chain", () => {
  it("offers a game item's move to the chain, warning that a sale ends", () => {
    expect(itemMove({ ...item, location: "game" }, "/back")).toMatchObject({ intent: "claim-item", label: "Move to chain" });
    expect(itemMove({ ...item, location: "game", onSale: true }, "/back")).toMatchObject({ note: expect.stringMatching(/^Its sale ends/) });
  });

  it("offers an on-chain item's move into the game", () => {
    expect(itemMove({ ...item, location: "chain" }, "/back")).toMatchObject({ intent: "swap-item", label: "Move into the game" });
  });

  it("says a claimed item is waiting for the chain, with nothing to post, so the section stays on the page", () => {
    const move = itemMove({ ...item, location: "leaving" }, "/back");
    expect(move).toMatchObject({ intent: "pending", label: "Moving to chain" });
    expect(move).toMatchObject({ note: expect.stringContaining("once the chain has recorded it") });
  });

  it("offers nothing to anyone but the holder", () => {
    for (const location of ["game", "leaving", "chain"]) expect(itemMove({ ...item, location, isOwner: false }, "/back")).toBeNull();
  });

  it("says why, with nothing to post, for what the market would refuse", () => {
    expect(itemMove({ ...item, nftType: NFT_TYPE.pse, location: "game" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.pse,
    });
    expect(itemMove({ ...item, nftType: NFT_TYPE.material, amount: 12, location: "game" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.stackToChain,
    });
    expect(itemMove({ ...item, nftType: NFT_TYPE.lootbox, location: "game" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.gameOnlyBox,
    });
  });
});

describe("storageMove: a storage card's move, or its reason", () => {
  it("gives the reason instead of a form for what cannot leave the game", () => {
    for (const nftType of [NFT_TYPE.halloween, NFT_TYPE.pse, NFT_TYPE.egse, NFT_TYPE.lootbox]) {
      expect(storageMove({ nftType, tokenId: gameId, amount: 1, location: "game" }, "/d", "/back", true)).toEqual({
        reason: toChainRefusal({ nftType, tokenId: gameId, amount: 1 }),
      });
    }
    expect(storageMove({ nftType: NFT_TYPE.material, tokenId: gameId, amount: 3, location: "game" }, "/d", "/back", true)).toEqual({
      reason: MOVE_REFUSALS.stackToChain,
    });
  });

  it("offers no move into the game for a loot box on the chain (a box is opened there, and its id could name a card)", () => {
    expect(itemMove({ ...item, nftType: NFT_TYPE.lootbox, location: "chain" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.boxStaysOnChain,
    });
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", amount: 1, location: "chain" }, "/d", "/back", true)).toEqual({
      reason: MOVE_REFUSALS.boxStaysOnChain,
    });
  });

  it("still offers a chain loot box's own claim path and every card kind's way back", () => {
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", amount: 1, location: "game" }, "/d", "/back", true)).toMatchObject({
      form: { intent: "claim-item" },
    });
    for (const nftType of CARD_COLLECTION_TYPES) {
      expect(itemMove({ ...item, nftType, location: "chain" }, "/back")).toMatchObject({ intent: "swap-item" });
      expect(storageMove({ nftType, tokenId: "7", amount: 1, location: "chain" }, "/d", "/back", false)).toMatchObject({
        label: "Move into the game",
        form: null,
      });
    }
  });
});
