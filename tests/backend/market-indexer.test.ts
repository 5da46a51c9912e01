/**
 * The market's chain indexer on a real chain and the real backends: tokens minted, moved, burnt and opened on chain
 * show in (and leave) the holders' storage, like any other item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Address, type TransactionReceipt, keccak256, parseEventLogs, toHex, zeroAddress } from "viem";
import { blindBoxAbi, blindBoxOpenerAbi, sparkCardAbi } from "../../contracts/generated/abi";
import { DEMO_BOXES } from "../../contracts/deploy";
import type { ListingRecord, Page } from "~core/api/market";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { DEMO_MANAGED_ACCOUNT } from "~core/demo";
import { decodeItemData, encodeItem } from "~core/item-data";
import { MarketDb } from "../../backend/market/shared/db";
import { type ChainIndexer, TRANSFERS_STREAM, createChainIndexer } from "../../backend/market/indexer/indexer";
import type { BackendChain } from "../../backend/types";
import { backendChainOf, freshPlayer, startTestChain, type TestChain } from "../contracts/harness";
import { startTestBackends } from "./harness";

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const silent = { info() {}, warn() {}, error() {} };

let chain: TestChain;
let c: TestChain["deployment"]["contracts"];
let t: Awaited<ReturnType<typeof startTestBackends>>;
let chainOptions: BackendChain;
let indexer: ChainIndexer;

beforeAll(async () => {
  chain = await startTestChain();
  c = chain.deployment.contracts;
  // The deployer mints and forges directly here, as the opener and the sale would.
  for (const [address, abi] of [
    [c.card, sparkCardAbi],
    [c.box, blindBoxAbi],
  ] as const) {
    await chain.mined(
      chain.deployer.writeContract({ address, abi, functionName: "grantRole", args: [MINTER_ROLE, chain.deployment.accounts.deployer] }),
    );
  }
  chainOptions = backendChainOf(chain);
  // The backends without a chain, and an indexer of the test's own on their database (the wiring: sync test).
  t = await startTestBackends();
  indexer = createChainIndexer(new MarketDb(t.store), chainOptions, { log: silent });
  indexer.start();
});
afterAll(async () => {
  await indexer?.stop();
  await t?.close();
  await chain?.close();
});

/** Waits until the indexer has applied the block of `receipt` (or the head). */
async function indexed(receipt?: TransactionReceipt) {
  await indexer.waitForBlock(receipt?.blockNumber ?? (await chain.publicClient.getBlockNumber({ cacheTime: 0 })));
}

async function storage(address: Address, query: Record<string, string | number> = {}): Promise<ListingRecord[]> {
  const params = new URLSearchParams({
    address,
    pageSize: "100",
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  const answer = await t.call<Page<ListingRecord>>("GET", `/api/v1/informationCenter/myStorage?${params}`);
  expect(answer.status, answer.msg).toBe(200);
  return answer.data.records;
}
const onChain = (records: ListingRecord[]) => records.filter((r) => r.location === "chain");

const mintCard = (to: Address, word: bigint) =>
  chain.mined(chain.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mint", args: [to, word] }));
const lastCardId = () => chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "totalMinted" });
const transferCard = (from: Account, to: Address, tokenId: bigint) =>
  chain.mined(
    chain
      .walletFor(from)
      .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "transferFrom", args: [from.address, to, tokenId] }),
  );

describe("the chain's items in storage", () => {
  it("lists the boxes the deployment seeded on chain, each with its box type", async () => {
    await indexed();
    const boxes = onChain(await storage(DEMO_MANAGED_ACCOUNT.wallet, { nftType: 6 }));
    const expected = DEMO_BOXES.find((d) => d.wallet === DEMO_MANAGED_ACCOUNT.wallet)!.boxes;
    const counts: Record<number, number> = {};
    for (const box of boxes) counts[box.boxType!] = (counts[box.boxType!] ?? 0) + 1;
    expect(counts).toEqual(expected);
    for (const box of boxes) {
      expect(box.tokenURI).toBe(`/api/v1/metadata/6/${box.tokenId}/${box.boxType}`);
      expect(Number(box.tokenId)).toBeLessThan(GAME_TOKEN_ID_BASE);
    }
  });

  it("a mint appears with its type, attributes and holder; a transfer moves it; a burn takes it out of storage", async () => {
    const [first, second] = [freshPlayer(3), freshPlayer(4)];
    await indexed(await mintCard(first.address, encodeItem.spaceship({ shipType: 4, level: 3, stats: [90, 85, 97, 88, 79, 93, 91] })));
    const tokenId = (await lastCardId()).toString();

    const [ship] = await storage(first.address);
    expect(ship).toMatchObject({ tokenId, nftType: 4, ownerAddress: first.address, location: "chain", isSelling: false });
    expect(ship).toMatchObject({ rank: 4, level: 3, endurance: 90, armor: 91, total: 623, image: "/images/nft/spaceship-legend.svg" });
    expect(ship.name).toBe(`Legend Dreadnought #${tokenId}`);
    expect(ship.attributes).toContainEqual({ trait_type: "Spaceship Type", value: "Legend" });
    const detail = await t.call<ListingRecord>("GET", `/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${tokenId}&nftType=4`);
    expect(detail.data).toMatchObject({ ownerAddress: first.address, location: "chain" });

    await indexed(await transferCard(first, second.address, BigInt(tokenId)));
    expect(await storage(first.address)).toEqual([]);
    expect((await storage(second.address)).map((r) => r.tokenId)).toEqual([tokenId]);

    await indexed(
      await chain.mined(
        chain.walletFor(second).writeContract({ address: c.card, abi: sparkCardAbi, functionName: "burn", args: [BigInt(tokenId)] }),
      ),
    );
    expect(await storage(second.address)).toEqual([]);
    // The item stays, held by nobody, so rows that refer to it keep their meaning.
    const burnt = await t.call<ListingRecord>("GET", `/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${tokenId}&nftType=4`);
    expect(burnt.data.ownerAddress).toBe(zeroAddress);
  });

  it("an opened box leaves storage and the items that came out of it arrive, as the card contract describes them", async () => {
    const player = freshPlayer(5);
    const forged = await chain.mined(
      chain.deployer.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "forge", args: [player.address, 4n, 2n] }),
    );
    await indexed(forged);
    const boxes = onChain(await storage(player.address, { nftType: 6 }));
    expect(boxes.map((b) => b.boxType)).toEqual([4, 4]);

    const wallet = chain.walletFor(player);
    await chain.mined(
      wallet.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "setApprovalForAll", args: [c.opener, true] }),
    );
    const receipt = await chain.mined(
      wallet.writeContract({
        address: c.opener,
        abi: blindBoxOpenerAbi,
        functionName: "batchOpenWithIds",
        args: [boxes.map((b) => BigInt(b.tokenId))],
      }),
    );
    await indexed(receipt);

    const minted = parseEventLogs({ abi: blindBoxOpenerAbi, logs: receipt.logs, eventName: "BoxOpened" }).flatMap((e) => e.args.mintedIds);
    const items = await storage(player.address);
    expect(items.filter((r) => r.nftType === 6)).toEqual([]);
    expect(items.map((r) => r.tokenId).sort()).toEqual(minted.map(String).sort());
    for (const item of items) {
      const word = await chain.publicClient.readContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "dataOf",
        args: [BigInt(item.tokenId)],
      });
      const decoded = decodeItemData(word);
      expect(item.nftType).toBe(decoded.nftType);
      if ("level" in decoded) expect(item.level).toBe(decoded.level);
    }
  });

  it("game and chain ids never meet: chain tokens below GAME_TOKEN_ID_BASE, game items above, side by side", async () => {
    await indexed();
    const rows = (await t.store.sql.all("select nft_type, token_id, location from market_items")) as {
      nft_type: number;
      token_id: string;
      location: number;
    }[];
    const chainRows = rows.filter((r) => Number(r.token_id) < GAME_TOKEN_ID_BASE);
    const minted = Number(await lastCardId());
    expect(chainRows.every((r) => r.location === 2)).toBe(true);
    // Every card ever minted and not burnt before the indexer saw it has one item: the custody cards 1..9 included.
    expect(chainRows.filter((r) => r.nft_type !== 6).length).toBe(minted);
    expect(rows.filter((r) => r.nft_type === 0 && r.token_id === "1")).toHaveLength(1);
    expect(rows.some((r) => r.nft_type === 0 && Number(r.token_id) > GAME_TOKEN_ID_BASE)).toBe(true);
  });

  it("reading the whole history again (a cursor lost, a replay) changes no item and adds none", async () => {
    await indexed();
    const snapshot = async () => await t.store.sql.all("select * from market_items order by id");
    const before = await snapshot();
    await indexer.stop();
    await t.store.sql.run("delete from market_chain_cursors where stream = ?", [TRANSFERS_STREAM]);
    const again = createChainIndexer(new MarketDb(t.store), chainOptions, { log: silent });
    again.start();
    try {
      await again.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    } finally {
      await again.stop();
    }
    const after = (await snapshot()) as { updated_at: number }[];
    expect(after.map((row) => ({ ...row, updated_at: 0 }))).toEqual(before.map((row) => ({ ...(row as object), updated_at: 0 })));
    indexer.start();
  });
});
