import { describe, expect, it } from "vitest";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import {
  chainStackOf,
  chainStackTokenId,
  intoGameRefusal,
  moveAmount,
  moveAmountMessage,
  movesAsStack,
  MOVE_REFUSALS,
  stackText,
  toChainRefusal,
} from "~core/item-moves";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { claimRow, itemMove, storageMove } from "~/features/bridge/bridge.server";
import { CLAIM_KIND, encodeClaimContent } from "~core/claim";

const item = { nftType: 4, tokenId: "1000000007", amount: "1", isOwner: true, onSale: false };
const gameId = String(GAME_TOKEN_ID_BASE + 7);

describe("toChainRefusal: the one rule of what can leave the game (the market refuses by it, the pages offer by it)", () => {
  it("lets every card-collection kind go as a single piece, and a loot box that came from the chain", () => {
    for (const nftType of CARD_COLLECTION_TYPES) expect(toChainRefusal({ nftType, tokenId: gameId })).toBeNull();
    expect(toChainRefusal({ nftType: NFT_TYPE.lootbox, tokenId: "7" })).toBeNull();
  });

  it("lets a game material stack go as a SparkItems amount, and a material from the chain back as its SparkCard token", () => {
    expect(toChainRefusal({ nftType: NFT_TYPE.material, tokenId: gameId })).toBeNull();
    expect(movesAsStack({ nftType: NFT_TYPE.material, tokenId: gameId })).toBe(true);
    expect(movesAsStack({ nftType: NFT_TYPE.material, tokenId: "42" })).toBe(false);
    expect(movesAsStack({ nftType: NFT_TYPE.spaceship, tokenId: gameId })).toBe(false);
  });

  it("refuses each kind that cannot, with its own reason", () => {
    const refusal = (nftType: number) => toChainRefusal({ nftType, tokenId: gameId });
    expect(refusal(NFT_TYPE.halloween)).toBe(MOVE_REFUSALS.halloween);
    expect(refusal(NFT_TYPE.pse)).toBe(MOVE_REFUSALS.pse);
    expect(refusal(NFT_TYPE.egse)).toBe(MOVE_REFUSALS.egse);
    expect(refusal(NFT_TYPE.lootbox)).toBe(MOVE_REFUSALS.gameOnlyBox);
    expect(refusal(99)).toBe(MOVE_REFUSALS.noChainForm);
  });

  it("takes back into the game only the card collection; a chain loot box is opened there", () => {
    for (const nftType of CARD_COLLECTION_TYPES) expect(intoGameRefusal({ nftType })).toBeNull();
    expect(intoGameRefusal({ nftType: NFT_TYPE.lootbox })).toBe(MOVE_REFUSALS.boxStaysOnChain);
  });
});

describe("the amount of a stack's move", () => {
  it("is all of the stack by default, else a whole number from 1 to what is held", () => {
    expect(moveAmount(undefined, 100n)).toBe(100n);
    expect([moveAmount(1n, 100n), moveAmount(40n, 100n), moveAmount(100n, 100n)]).toEqual([1n, 40n, 100n]);
    for (const bad of [0n, -1n, 101n]) expect(moveAmount(bad, 100n)).toBeNull();
    expect(moveAmountMessage(100n)).toBe("Enter a whole number from 1 to 100.");
    expect(moveAmountMessage(1n)).toBe("The amount must be 1: that is all this stack holds.");
    // A stack past 2^53 moves to the unit: 2^53 + 1 is not 2^53.
    expect(moveAmount(2n ** 53n + 1n, 2n ** 53n)).toBeNull();
    expect(moveAmountMessage(2n ** 60n + 1n)).toBe("Enter a whole number from 1 to 1152921504606846977.");
  });

  it("names a chain stack by holder and id, above every other token id, and back", () => {
    const holder = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    const tokenId = chainStackTokenId(8001n, holder);
    expect(BigInt(tokenId) > 2n ** 160n).toBe(true);
    expect(chainStackOf(tokenId)).toEqual({ id: 8001n, holder: holder.toLowerCase() });
    expect(chainStackOf(chainStackTokenId(8000n, "0x0000000000000000000000000000000000000001"))?.id).toBe(8000n);
    for (const other of ["7", gameId, String(2n ** 160n - 1n), "x"]) expect(chainStackOf(other)).toBeNull();
    expect(stackText(8001n, 40)).toBe("40 Silver");
    expect(stackText("8002", "3")).toBe("3 Gold");
    expect(stackText(9999n, 1)).toBe("1 of item #9999");
  });
});

describe("itemMove: what an item's page offers its holder between the game and the chain", () => {
  it("offers a game item's move to the chain, warning that a sale ends", () => {
    expect(itemMove({ ...item, location: "game" }, "/back")).toMatchObject({ intent: "claim-item", label: "Move to chain" });
    expect(itemMove({ ...item, location: "game", onSale: true }, "/back")).toMatchObject({ note: expect.stringMatching(/^Its sale ends/) });
  });

  it("offers an on-chain item's move into the game, saying where it goes, and that a chain listing ends", () => {
    expect(itemMove({ ...item, location: "chain" }, "/back")).toMatchObject({
      intent: "swap-item",
      label: "Move into the game",
      note: "It joins your game inventory once the chain has recorded the move.",
    });
    expect(itemMove({ ...item, location: "chain", onSale: true }, "/back")).toMatchObject({
      note: "Its listing on chain ends, and it joins your game inventory once the chain has recorded the move.",
    });
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
    expect(itemMove({ ...item, nftType: NFT_TYPE.lootbox, location: "game" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.gameOnlyBox,
    });
  });
});

describe("storageMove: a storage card's move, or its reason", () => {
  it("says a listed item's sale ends by its button, as the item page does", () => {
    const listed = { nftType: NFT_TYPE.card, tokenId: gameId, amount: "1", price: "1000" };
    expect(storageMove({ ...listed, location: "game" }, "/d", "/back", true)).toMatchObject({ note: "Its sale ends." });
    expect(storageMove({ ...listed, location: "chain" }, "/d", "/back", true)).toMatchObject({ note: "Its listing on chain ends." });
    expect(storageMove({ ...listed, price: null, location: "game" }, "/d", "/back", true)).not.toHaveProperty("note");
  });

  it("gives the reason instead of a form for what cannot leave the game", () => {
    for (const nftType of [NFT_TYPE.halloween, NFT_TYPE.pse, NFT_TYPE.egse, NFT_TYPE.lootbox]) {
      expect(storageMove({ nftType, tokenId: gameId, amount: "1", location: "game" }, "/d", "/back", true)).toEqual({
        reason: toChainRefusal({ nftType, tokenId: gameId }),
      });
    }
  });

  it("gives a stack's form an amount, all of it to start with: a game stack's way out and a chain stack's way in", () => {
    const chainStack = chainStackTokenId(8000n, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(
      storageMove({ nftType: NFT_TYPE.material, tokenId: gameId, amount: "100", location: "game" }, "/d", "/back", true),
    ).toMatchObject({
      label: "Move to chain",
      amount: "100",
      form: { intent: "claim-item", tokenId: gameId },
    });
    expect(
      storageMove({ nftType: NFT_TYPE.material, tokenId: chainStack, amount: "40", location: "chain" }, "/d", "/back", true),
    ).toMatchObject({
      label: "Move into the game",
      amount: "40",
      form: { intent: "swap-item", tokenId: chainStack },
    });
    // A SparkCard material piece moves whole.
    expect(
      storageMove({ nftType: NFT_TYPE.material, tokenId: "7", amount: "1", location: "chain" }, "/d", "/back", true),
    ).not.toHaveProperty("amount");
    expect(itemMove({ ...item, nftType: NFT_TYPE.material, tokenId: gameId, amount: "60", location: "game" }, "/back")).toMatchObject({
      intent: "claim-item",
      amount: "60",
      note: expect.stringContaining("the rest stays here"),
    });
    expect(itemMove({ ...item, nftType: NFT_TYPE.material, tokenId: chainStack, amount: "40", location: "chain" }, "/back")).toMatchObject({
      intent: "swap-item",
      amount: "40",
    });
  });

  it("offers no move into the game for a loot box on the chain (a box is opened there, and its id could name a card)", () => {
    expect(itemMove({ ...item, nftType: NFT_TYPE.lootbox, location: "chain" }, "/back")).toEqual({
      intent: "refused",
      reason: MOVE_REFUSALS.boxStaysOnChain,
    });
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", amount: "1", location: "chain" }, "/d", "/back", true)).toEqual({
      reason: MOVE_REFUSALS.boxStaysOnChain,
    });
  });

  it("still offers a chain loot box's own claim path and every card kind's way back", () => {
    expect(storageMove({ nftType: NFT_TYPE.lootbox, tokenId: "7", amount: "1", location: "game" }, "/d", "/back", true)).toMatchObject({
      form: { intent: "claim-item" },
    });
    for (const nftType of CARD_COLLECTION_TYPES) {
      expect(itemMove({ ...item, nftType, location: "chain" }, "/back")).toMatchObject({ intent: "swap-item" });
      expect(storageMove({ nftType, tokenId: "7", amount: "1", location: "chain" }, "/d", "/back", false)).toMatchObject({
        label: "Move into the game",
        form: null,
      });
    }
  });
});

describe("claimRow: a claim in the game page's history", () => {
  it("names a stack claim's amount and material from the content the game signed", () => {
    const content = encodeClaimContent({
      account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      kind: CLAIM_KIND.item1155,
      asset: "0x0000000000000000000000000000000000000001",
      idOrAmount: 40n,
      data: 8001n,
      nonce: 3n,
      deadline: 4_000_000_000n,
      chainId: 31337n,
      assetManager: "0x0000000000000000000000000000000000000002",
    });
    const claim = {
      txId: "3",
      status: 1,
      statusName: "claimed",
      account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      kind: 2,
      asset: "0x0000000000000000000000000000000000000001",
      currency: null,
      idOrAmount: "40",
      deadline: 4_000_000_000,
      chainId: 31337,
      assetManager: "0x0000000000000000000000000000000000000002",
      claim_content: content,
      createdAt: "2026-11-27T12:00:00.000Z",
    } as const;
    expect(claimRow(claim)).toMatchObject({ what: "40 Silver", status: "Claimed: on chain" });
    expect(claimRow({ ...claim, claim_content: "0x12" }).what).toBe("40 of a stack");
  });
});
