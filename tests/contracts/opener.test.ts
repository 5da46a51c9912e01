import { beforeAll, describe, expect, it } from "vitest";
import { parseEventLogs, type Account, type TransactionReceipt } from "viem";
import { blindBoxAbi, blindBoxOpenerAbi, blindBoxSaleAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import { DEFAULT_CARD_BASE_URI, DEMO_BOXES } from "../../contracts/deploy";
import { BATCH_OPEN_GAS_LIMIT, OPEN_BATCH_MAX, OPEN_BATCH_MIN, SHIPS_PER_SPACESHIP_BOX, SPACESHIP_BOX_TYPE } from "~core/constants";
import { forgeBoxes, freshPlayer, grantDeployer, revertOf, transferCard, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
/** The opener's ABI plus every contract error, since burns and mints revert inside the box and card contracts. */
const openerAbi = [...blindBoxOpenerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));
// The deployer forges boxes directly in these tests, so purchase limits do not get in the way.
beforeAll(async () => {
  await grantDeployer(t, c.box, "MINTER_ROLE");
});

const forge = (player: Account, boxType: number, quantity: number) => forgeBoxes(t, player.address, boxType, quantity);

const approveOpener = (player: Account) =>
  t.mined(
    t.walletFor(player).writeContract({ address: c.box, abi: blindBoxAbi, functionName: "setApprovalForAll", args: [c.opener, true] }),
  );

/** With `gas` set (as the app sends it) viem skips estimation, so reverts only show in the receipt; without it a
 * revert surfaces at estimation, which is what revertOf needs. */
const batchOpen = (player: Account, count: number, gas?: bigint) =>
  t.walletFor(player).writeContract({
    address: c.opener,
    abi: openerAbi,
    functionName: "batchOpen",
    args: [BigInt(count)],
    gas,
  });

const boxBalance = (player: Account) =>
  t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "balanceOf", args: [player.address] });

const itemData = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId] }).then(decodeItemData);

function opened(receipt: TransactionReceipt) {
  return parseEventLogs({ abi: blindBoxOpenerAbi, logs: receipt.logs, eventName: "BoxOpened" }).map((e) => e.args);
}

describe("opener wiring", () => {
  it("exposes the registry, asset and target types", async () => {
    expect(await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "queryOpenerAddr" })).toBe(c.opener);
    expect(await t.publicClient.readContract({ address: c.opener, abi: blindBoxOpenerAbi, functionName: "assetAddr" })).toBe(c.card);
    const target = (boxType: bigint) =>
      t.publicClient.readContract({ address: c.opener, abi: blindBoxOpenerAbi, functionName: "targetTypeOfBox", args: [boxType] });
    expect(await target(BigInt(SPACESHIP_BOX_TYPE))).toBe(NFT_TYPE.spaceship);
    for (const boxType of [4n, 5n, 6n, 7n, 18n]) expect(await target(boxType)).toBe(NFT_TYPE.card);
    expect(await revertOf(target(99n))).toEqual({ name: "UnknownBoxType", args: [99n] });
  });

  it("gives each demo account its seeded boxes", async () => {
    for (const { wallet, boxes } of DEMO_BOXES) {
      const [, types] = await t.publicClient.readContract({
        address: c.box,
        abi: blindBoxAbi,
        functionName: "queryUserBoxes",
        args: [wallet],
      });
      const expected = Object.entries(boxes).flatMap(([boxType, count]) => Array<bigint>(count).fill(BigInt(boxType)));
      expect([...types].sort()).toEqual(expected.sort());
    }
  });
});

describe("batch open", () => {
  it("needs the opener's approval and a count of 1 to 10 within the boxes owned", async () => {
    const player = freshPlayer(3);
    await forge(player, 4, 2);
    expect(await revertOf(batchOpen(player, 1))).toEqual({ name: "OpenerNotApproved", args: [] });
    await approveOpener(player);
    expect(await revertOf(batchOpen(player, 0))).toEqual({ name: "InvalidOpenCount", args: [0n, 1n, 10n] });
    expect(await revertOf(batchOpen(player, OPEN_BATCH_MAX + 1))).toEqual({ name: "InvalidOpenCount", args: [11n, 1n, 10n] });
    expect(await revertOf(batchOpen(player, 3))).toEqual({ name: "NotEnoughBoxes", args: [2n, 3n] });
    const none = t.walletFor(player).writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpenWithIds", args: [[]] });
    expect((await revertOf(none)).name).toBe("InvalidOpenCount");
  });

  it("opens every batch size from 1 to 10, burning the boxes and minting their contents", async () => {
    const player = freshPlayer(4);
    // 55 Standard boxes, bought through the sale like a player would.
    await t.mined(
      t.deployer.writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "mint", args: [player.address, 1000n * WEI] }),
    );
    await t.mined(
      t.walletFor(player).writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 1000n * WEI] }),
    );
    for (const quantity of [10, 10, 10, 10, 10, 5]) {
      await t.mined(
        t
          .walletFor(player)
          .writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "buyWithErc20", args: [4n, BigInt(quantity), c.usdt] }),
      );
    }
    await approveOpener(player);

    let remaining = 55n;
    let lastBatch: ReturnType<typeof opened> = [];
    for (let count = OPEN_BATCH_MIN; count <= OPEN_BATCH_MAX; count++) {
      lastBatch = opened(await t.mined(batchOpen(player, count, BATCH_OPEN_GAS_LIMIT)));
      expect(lastBatch).toHaveLength(count);
      remaining -= BigInt(count);
      expect(await boxBalance(player)).toBe(remaining);
      for (const event of lastBatch) {
        expect(event.owner).toBe(player.address);
        expect(event.boxType).toBe(4n);
        expect(event.mintedIds).toHaveLength(2);
        const burnt = t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "ownerOf", args: [event.boxId] });
        expect((await revertOf(burnt)).name).toBe("ERC721NonexistentToken");
      }
    }
    expect(remaining).toBe(0n);

    // A Standard box holds a hero card and a material, both now the player's.
    for (const { mintedIds } of lastBatch) {
      const [cardId, materialId] = mintedIds;
      expect(await itemData(cardId!)).toMatchObject({ nftType: NFT_TYPE.card, level: 1 });
      expect(await itemData(materialId!)).toMatchObject({ nftType: NFT_TYPE.material });
      const owner = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [cardId!] });
      expect(owner).toBe(player.address);
    }
    const balance = await t.publicClient.readContract({
      address: c.card,
      abi: sparkCardAbi,
      functionName: "balanceOf",
      args: [player.address],
    });
    expect(balance).toBe(110n);
  });

  it("turns each spaceship box into 10 ships, and ten boxes fit in the 5M batch gas limit", async () => {
    const player = freshPlayer(5);
    await forge(player, SPACESHIP_BOX_TYPE, OPEN_BATCH_MAX);
    await approveOpener(player);

    const receipt = await t.mined(batchOpen(player, OPEN_BATCH_MAX, BATCH_OPEN_GAS_LIMIT));
    expect(receipt.gasUsed).toBeLessThan(BATCH_OPEN_GAS_LIMIT);
    const events = opened(receipt);
    expect(events).toHaveLength(OPEN_BATCH_MAX);

    const shipIds = events.flatMap((e) => {
      expect(e.boxType).toBe(BigInt(SPACESHIP_BOX_TYPE));
      expect(e.mintedIds).toHaveLength(SHIPS_PER_SPACESHIP_BOX);
      return [...e.mintedIds];
    });
    expect(new Set(shipIds).size).toBe(OPEN_BATCH_MAX * SHIPS_PER_SPACESHIP_BOX);

    for (const id of shipIds.slice(0, SHIPS_PER_SPACESHIP_BOX)) {
      const ship = await itemData(id);
      if (ship.nftType !== NFT_TYPE.spaceship || !("stats" in ship)) throw new Error(`token ${id} is not a spaceship`);
      expect(ship.shipType).toBeGreaterThanOrEqual(2);
      expect(ship.shipType).toBeLessThanOrEqual(4);
      for (const stat of Object.values(ship.stats)) {
        expect(stat).toBeGreaterThanOrEqual(10 + 15 * ship.shipType);
        expect(stat).toBeLessThan(50 + 15 * ship.shipType);
      }
      // Metadata is served by the site from the chain's data: tokenURI only names where.
      const uri = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "tokenURI", args: [id] });
      expect(uri).toBe(`${DEFAULT_CARD_BASE_URI}${id}.json`);
    }
  });

  it("opens chosen boxes by id, only the caller's, with each type's contents", async () => {
    const player = freshPlayer(6);
    const other = freshPlayer(7);
    const mine = parseEventLogs({ abi: blindBoxAbi, logs: (await forge(player, 18, 1)).logs, eventName: "BlindBoxForged" })[0]!.args.boxId;
    const legendary = parseEventLogs({ abi: blindBoxAbi, logs: (await forge(player, 7, 1)).logs, eventName: "BlindBoxForged" })[0]!.args
      .boxId;
    const theirs = parseEventLogs({ abi: blindBoxAbi, logs: (await forge(other, 4, 1)).logs, eventName: "BlindBoxForged" })[0]!.args.boxId;
    await approveOpener(player);

    const openIds = (ids: bigint[]) =>
      t.walletFor(player).writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpenWithIds", args: [ids] });
    expect(await revertOf(openIds([mine, theirs]))).toEqual({ name: "NotBoxOwner", args: [theirs] });

    const [galaxy, legend] = opened(await t.mined(openIds([mine, legendary])));
    expect(galaxy).toMatchObject({ boxId: mine, boxType: 18n });
    const galaxyItems = await Promise.all(galaxy!.mintedIds.map(itemData));
    expect(galaxyItems.map((i) => i.nftType)).toEqual([NFT_TYPE.card, NFT_TYPE.card, NFT_TYPE.card, NFT_TYPE.egg]);

    expect(legend).toMatchObject({ boxId: legendary, boxType: 7n });
    const [heroCard, equipment, egg] = await Promise.all(legend!.mintedIds.map(itemData));
    if (heroCard?.nftType !== NFT_TYPE.card || !("rarity" in heroCard)) throw new Error("Legendary box without a hero card");
    expect(heroCard.rarity).toBeGreaterThanOrEqual(1);
    expect(equipment).toMatchObject({ nftType: NFT_TYPE.equipment, level: 1 });
    expect(egg?.nftType).toBe(NFT_TYPE.egg);
  });
});

describe("card NFT", () => {
  it("mints only for minters, mutates only for mutators, burns only for owners", async () => {
    const player = freshPlayer(3);
    const outsider = t.walletFor(player);
    const mint = outsider.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mint", args: [player.address, 0n] });
    expect((await revertOf(mint)).name).toBe("AccessControlUnauthorizedAccount");

    await grantDeployer(t, c.card, "MUTATOR_ROLE");
    const [tokenId] = (
      await t.publicClient.readContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "tokensOfOwnerIn",
        args: [freshPlayer(4).address, 1n, 1000n],
      })
    )[0];
    const before = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId!] });
    const upgraded = (before & ~(0xffn << 16n)) | (5n << 16n); // level 5
    const mutate = (wallet: typeof outsider) =>
      wallet.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mutateData", args: [tokenId!, upgraded] });
    expect((await revertOf(mutate(outsider))).name).toBe("AccessControlUnauthorizedAccount");
    const receipt = await t.mined(mutate(t.deployer));
    expect(parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "DataMutated" })[0]?.args).toEqual({
      tokenId,
      oldData: before,
      newData: upgraded,
    });
    expect(parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "MetadataUpdate" })).toHaveLength(1);
    expect(await itemData(tokenId!)).toMatchObject({ level: 5 });

    const burn = (wallet: typeof outsider) =>
      wallet.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "burn", args: [tokenId!] });
    expect((await revertOf(burn(outsider))).name).toBe("ERC721InsufficientApproval");
    await t.mined(burn(t.walletFor(freshPlayer(4))));
    const gone = t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId!] });
    expect((await revertOf(gone)).name).toBe("ERC721NonexistentToken");
  });

  it("keeps item data across transfers", async () => {
    const from = freshPlayer(5);
    const to = freshPlayer(3);
    const [ids, data] = await t.publicClient.readContract({
      address: c.card,
      abi: sparkCardAbi,
      functionName: "tokensOfOwnerIn",
      args: [from.address, 0n, 10_000n],
    });
    expect(ids).toHaveLength(OPEN_BATCH_MAX * SHIPS_PER_SPACESHIP_BOX);
    await t.mined(transferCard(t, from, to.address, ids[0]!));
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [ids[0]!] })).toBe(
      to.address,
    );
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [ids[0]!] })).toBe(
      data[0],
    );
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "balanceOf", args: [from.address] })).toBe(
      99n,
    );
  });
});
