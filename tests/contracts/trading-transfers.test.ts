/**
 * Issue 28, part 2: the trading contract's transfers on anvil: several cards or stacks in one transaction, and a card
 * sent into another player's game inventory.
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs } from "viem";
import { assetManagerAbi, sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND } from "../../contracts/claim";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { freshPlayer, revertOf, swapRecord } from "./harness";
import * as trading from "./trading-suite";
import { abi, bystander, c, GOLD, setUpTradingSuite, t } from "./trading-suite";

setUpTradingSuite();

describe("transfers", () => {
  it("transferNft moves several cards in one transaction, with the market's approval", async () => {
    const sender = freshPlayer(7);
    const ids = [await trading.newCard(sender), await trading.newCard(sender), await trading.newCard(sender)];
    const send = (tokenIds: bigint[]) =>
      t
        .walletFor(sender)
        .writeContract({ address: c.trading, abi, functionName: "transferNft", args: [c.card, bystander.address, tokenIds] });
    expect(await revertOf(send([]))).toEqual({ name: "NothingToTransfer", args: [] });
    await trading.approveCollection(sender, c.card);
    const receipt = await t.mined(send(ids));
    const moved = parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" }).map((e) => e.args);
    expect(moved).toEqual(ids.map((tokenId) => ({ from: sender.address, to: bystander.address, tokenId })));
    for (const id of ids) expect(await trading.ownerOf(id)).toBe(bystander.address);
    // The market moves only the caller's own cards, even from an owner who approved it.
    const theirs = await trading.newCard(bystander);
    await trading.approveCollection(bystander, c.card);
    const notMine = t.walletFor(sender).writeContract({
      address: c.trading,
      abi,
      functionName: "transferNft",
      args: [c.card, sender.address, [theirs]],
    });
    expect(await revertOf(notMine)).toEqual({ name: "ERC721IncorrectOwner", args: [sender.address, theirs, bystander.address] });
  });

  it("transferItem1155 moves part of a stack", async () => {
    const sender = freshPlayer(7);
    await trading.newStack(sender, 100n);
    const send = (ids: bigint[], amounts: bigint[]) =>
      t.walletFor(sender).writeContract({
        address: c.trading,
        abi,
        functionName: "transferItem1155",
        args: [c.items, bystander.address, ids, amounts],
      });
    expect(await revertOf(send([GOLD], []))).toEqual({ name: "LengthMismatch", args: [] });
    expect((await revertOf(send([GOLD], [30n]))).name).toBe("ERC1155MissingApprovalForAll");
    await trading.approveCollection(sender, c.items);
    const receipt = await t.mined(send([GOLD], [30n]));
    // OpenZeppelin reports a one-id batch as TransferSingle.
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: receipt.logs, eventName: "TransferSingle" })[0]?.args).toEqual({
      operator: c.trading,
      from: sender.address,
      to: bystander.address,
      id: GOLD,
      value: 30n,
    });
    expect(await trading.goldOf(sender.address)).toBe(70n);
    expect(await trading.goldOf(bystander.address)).toBe(30n);
    expect((await revertOf(send([GOLD], [71n]))).name).toBe("ERC1155InsufficientBalance");

    // Two kinds in one transaction: one TransferBatch, the indexer's other 1155 event.
    const silver = stackTokenId(NFT_TYPE.material, 1);
    await trading.newStack(sender, 5n, silver);
    const batch = await t.mined(send([GOLD, silver], [10n, 5n]));
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: batch.logs, eventName: "TransferBatch" })[0]?.args).toEqual({
      operator: c.trading,
      from: sender.address,
      to: bystander.address,
      ids: [GOLD, silver],
      values: [10n, 5n],
    });
    expect(await trading.goldOf(sender.address)).toBe(60n);
  });

  it("sendNft puts a card into another player's game inventory: SwappedToGame for them, the card in custody", async () => {
    const sender = freshPlayer(7);
    const recipient = freshPlayer(5);
    const tokenId = await trading.newCard(sender);
    await trading.approveCollection(sender, c.card);
    const receipt = await t.mined(
      t.walletFor(sender).writeContract({ address: c.trading, abi, functionName: "sendNft", args: [c.card, tokenId, recipient.address] }),
    );
    const [swap] = parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "SwappedToGame" });
    expect(swap?.args).toMatchObject({ account: recipient.address, asset: c.card, kind: CLAIM_KIND.nft, idOrAmount: tokenId, gameTag: 1n });
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "NftSent" })[0]?.args).toEqual({
      from: sender.address,
      account: recipient.address,
      collection: c.card,
      tokenId,
      swapId: swap!.args.swapId,
    });
    expect(await trading.ownerOf(tokenId)).toBe(c.assetManager);
    expect(await swapRecord(t, swap!.args.swapId)).toMatchObject({
      account: recipient.address,
      kind: CLAIM_KIND.nft,
      asset: c.card,
      idOrAmount: tokenId,
    });

    // Sent once: the card is in custody now, not the sender's to send again.
    const again = t
      .walletFor(sender)
      .writeContract({ address: c.trading, abi, functionName: "sendNft", args: [c.card, tokenId, recipient.address] });
    expect((await revertOf(again)).name).toBe("ERC721InsufficientApproval");
  });
});
