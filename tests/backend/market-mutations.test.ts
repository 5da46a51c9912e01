/**
 * The indexer's mutations stream on a real chain with the real backends (issue 41, item 3a): a listed ship upgraded on
 * chain (SparkCard.mutateData, what StarshipManager.upgrade calls; the deployer holds MUTATOR_ROLE here) shows its new
 * level and stats in its detail, its metadata document, storage, the market's level filters and the view's listed
 * counts; a reorg that takes the upgrade away puts the old ones back; a BatchMetadataUpdate reads the market's chain
 * cards again; and StarshipManager.upgrade itself, after a mission, moves the level storage shows. The tests run in
 * order on one chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Hex, parseEventLogs, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkCardAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import type { ItemDetail, Trait, ViewNumbers } from "~core/api/market";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import { listingTypedData } from "~core/trading";
import { freshPlayer, grantDeployer, listingJson, listingOf, type TestChain } from "../contracts/harness";
import { type ChainMarket, startChainMarket } from "./chain-market-fixture";
import { BUYER, type Market } from "./market-fixture";

const SHIP_TYPE = 2;
const STATS = [60, 70, 60, 60, 60, 50, 60];
/** What an upgrade gives here: the next level, and (as a game rule may) stronger stats. */
const UPGRADED = STATS.map((stat) => stat + 5);
/** The strongest ship there is: a short mission pays for its first upgrade. */
const STRONG = Array<number>(7).fill(255);

let suite: ChainMarket;
let chain: TestChain;
let m: Market;
const seller = privateKeyToAccount(BUYER.privateKey as Hex);
let ship: bigint;

beforeAll(async () => {
  suite = await startChainMarket();
  ({ chain, m } = suite);
  const { card, trading } = chain.deployment.contracts;
  await grantDeployer(chain, card, "MUTATOR_ROLE");
  // A level-1 ship of the seller's, listed on chain.
  await chain.mined(
    chain.deployer.writeContract({
      address: card,
      abi: sparkCardAbi,
      functionName: "mint",
      args: [seller.address, encodeItem.spaceship({ shipType: SHIP_TYPE, level: 1, stats: STATS })],
    }),
  );
  ship = await chain.publicClient.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });
  await chain.mined(
    chain.walletFor(seller).writeContract({ address: card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [trading, true] }),
  );
  await suite.settled();
  const expiry = (await chain.publicClient.getBlock()).timestamp + 86_400n;
  const listing = await listingOf(chain, seller.address, { tokenId: ship, currency: zeroAddress, price: 10n ** 18n, expiry });
  const signature = await chain
    .walletFor(seller)
    .signTypedData({ account: seller, ...listingTypedData(listing, chain.deployment.chainId, trading) });
  const listed = await m.post("/informationCenter/chainSell", {}, { ...listingJson(listing), signature }, m.tokens.buyer);
  expect(listed.status, listed.msg).toBe(200);
});
afterAll(() => suite?.close());

const mutate = (word: bigint) =>
  chain.mined(
    chain.deployer.writeContract({
      address: chain.deployment.contracts.card,
      abi: sparkCardAbi,
      functionName: "mutateData",
      args: [ship, word],
    }),
  );
const shipWord = (level: number, stats: readonly number[]) => encodeItem.spaceship({ shipType: SHIP_TYPE, level, stats });

const levelView = (level: number) => ({ nftType: NFT_TYPE.spaceship, "min[level]": level, "max[level]": level, pageSize: 100 });
/** Whether the market's listings of ships of `level` show the ship. */
const listedAt = async (level: number) =>
  (await m.page("/marketplace/tradingMarket", levelView(level))).records.some((r) => r.tokenId === ship.toString());
/** The view's listed count (from the listed cells), with the count of its active listings it must equal. */
const listedCount = async (level: number) => ({
  cells: (await m.ok<ViewNumbers>("/marketplace/viewNumbers", levelView(level))).listed.total,
  listings: Number(
    await m.scalar("select count(*) from market_listings where status = 0 and nft_type = ? and level = ?", NFT_TYPE.spaceship, level),
  ),
});
/** The ship as its detail, the seller's storage and its active listing's copy show its level and first two stats. */
async function shown() {
  const detail = await m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", {
    tokenId: ship.toString(),
    nftType: NFT_TYPE.spaceship,
  });
  const storage = await m.page("/informationCenter/myStorage", { address: seller.address, nftType: NFT_TYPE.spaceship, pageSize: 100 });
  const stored = storage.records.find((r) => r.tokenId === ship.toString());
  // The market's own metadata document (the record's tokenURI), from the item's row.
  const metadata = (await (await fetch(`${m.t.baseUrl}${detail.tokenURI}`)).json()) as { attributes: Trait[] };
  return {
    level: detail.level,
    stats: [detail.endurance, detail.agility],
    total: detail.total,
    levelTrait: detail.attributes.find((t) => t.trait_type === "Level")?.value,
    metadataLevel: metadata.attributes.find((t) => t.trait_type === "Level")?.value,
    storageLevel: stored?.level,
    listingLevel: Number(
      await m.scalar(
        "select level from market_listings where status = 0 and token_id = ? and nft_type = ?",
        ship.toString(),
        NFT_TYPE.spaceship,
      ),
    ),
  };
}
/** What shown() answers for a ship of `level` and `stats`. */
const showing = (level: number, stats: readonly number[]) => ({
  level,
  stats: stats.slice(0, 2),
  total: stats.reduce((a, b) => a + b, 0),
  levelTrait: level,
  metadataLevel: level,
  storageLevel: level,
  listingLevel: level,
});

describe("the mutations stream", () => {
  it("shows an upgrade's level and stats everywhere the market shows the ship, and moves the listed counts", async () => {
    expect(await shown()).toEqual(showing(1, STATS));
    expect(await listedAt(1)).toBe(true);
    expect(await listedAt(2)).toBe(false);
    const [before1, before2] = [await listedCount(1), await listedCount(2)];
    expect(before1.cells).toBe(before1.listings);

    await mutate(shipWord(2, UPGRADED));
    await suite.settled();
    expect(await shown()).toEqual(showing(2, UPGRADED));
    expect(await listedAt(2)).toBe(true);
    expect(await listedAt(1)).toBe(false);
    expect(await listedCount(1)).toEqual({ cells: before1.cells - 1, listings: before1.listings - 1 });
    expect(await listedCount(2)).toEqual({ cells: before2.cells + 1, listings: before2.listings + 1 });
  });

  it("puts the old level back when a reorg takes the upgrade away", async () => {
    // Far enough above the mint that the transfers stream's reconciliation (REORG_WINDOW) leaves the ship alone.
    await chain.testClient.mine({ blocks: 70 });
    await suite.settled();
    const before3 = await listedCount(3);
    const snapshot = await chain.testClient.snapshot();
    await mutate(shipWord(3, UPGRADED));
    await suite.settled();
    expect((await shown()).level).toBe(3);
    expect(await listedCount(3)).toEqual({ cells: before3.cells + 1, listings: before3.listings + 1 });
    const applied = await m.scalar("select count(*) from market_mutation_events");

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 2 });
    await expect.poll(async () => (await shown()).level, { timeout: 15_000 }).toBe(2);
    await suite.settled();
    expect(await shown()).toEqual(showing(2, UPGRADED));
    expect(await listedAt(2)).toBe(true);
    expect(await listedAt(3)).toBe(false);
    expect(await listedCount(3)).toEqual(before3);
    // The upgrade's DataMutated and MetadataUpdate are no longer applied events.
    expect(Number(await m.scalar("select count(*) from market_mutation_events"))).toBe(Number(applied) - 2);
  });

  it("reads the market's chain cards again on a BatchMetadataUpdate, putting a drifted row right", async () => {
    await m.t.store.sql.run("update market_items set level = 9 where nft_type = ? and token_id = ?", [NFT_TYPE.spaceship, ship.toString()]);
    expect((await shown()).level).toBe(9);
    const { card } = chain.deployment.contracts;
    const uri = await chain.publicClient.readContract({ address: card, abi: sparkCardAbi, functionName: "tokenURI", args: [ship] });
    // The same base again: BatchMetadataUpdate(0, 2^256 - 1), and no word changes.
    await chain.mined(
      chain.deployer.writeContract({
        address: card,
        abi: sparkCardAbi,
        functionName: "setBaseURI",
        args: [uri.slice(0, -`${ship}.json`.length)],
      }),
    );
    await suite.settled();
    expect(await shown()).toEqual(showing(2, UPGRADED));
  });

  it("follows a real upgrade: StarshipManager.upgrade, paid with a mission's materials, raises the level the market shows", async () => {
    const pilot = freshPlayer(5);
    const { card, starship } = chain.deployment.contracts;
    const minted = await chain.mined(
      chain.deployer.writeContract({ address: card, abi: sparkCardAbi, functionName: "mint", args: [pilot.address, shipWord(1, STRONG)] }),
    );
    const miner = parseEventLogs({ abi: sparkCardAbi, logs: minted.logs, eventName: "Transfer" })[0]!.args.tokenId;
    const act = (functionName: "explore" | "recall" | "upgrade") =>
      chain.mined(chain.walletFor(pilot).writeContract({ address: starship, abi: starshipManagerAbi, functionName, args: [miner] }));
    // Half an hour of the strongest ship mines more DarkIron than the 50 that level 1 -> 2 costs.
    await act("explore");
    await chain.advanceTime(1_800);
    await act("recall");
    const pilotShips = async (level: number) =>
      (await m.page("/informationCenter/myStorage", { address: pilot.address, ...levelView(level) })).records.map((r) => r.tokenId);
    await suite.settled();
    expect(await pilotShips(1)).toEqual([miner.toString()]);

    await act("upgrade");
    await suite.settled();
    expect(await pilotShips(2)).toEqual([miner.toString()]);
    expect(await pilotShips(1)).toEqual([]);
    const detail = await m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", {
      tokenId: miner.toString(),
      nftType: NFT_TYPE.spaceship,
    });
    expect({ level: detail.level, total: detail.total }).toEqual({ level: 2, total: 7 * 255 });
  });
});
