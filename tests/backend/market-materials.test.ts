/**
 * The indexer's materials stream on a real chain with the real backends (issue 15): a player mines with a ship,
 * sends materials into the game with StarshipManager.sendMaterialsToGame, and the indexer credits one stack per
 * material to the player's game account (NFT type 8 with its amount, a game-issued id, in the game and tradable):
 * once, once across a restart of the indexer too, and taken back when a reorg removes the event's block, then
 * credited again once when it is mined anew. The tests run in order on one chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Hex, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkCardAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { encodeItem } from "~core/item-data";
import { MarketDb } from "../../backend/market/shared/db";
import { createChainIndexer } from "../../backend/market/indexer/indexer";
import { backendChainOf, grantDeployer, startTestChain, type TestChain } from "../contracts/harness";
import { BROWSER, type Market, startMarketOnChain, listBrowserStack } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const silent = { info() {}, warn() {}, error() {} };

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
let chainOptions: ReturnType<typeof backendChainOf>;
/** Market items above this id are the stacks the tests brought in. */
let lastSeededItem: number;
const player = privateKeyToAccount(BROWSER.privateKey as Hex);

beforeAll(async () => {
  chain = await startTestChain();
  c = chain.deployment.contracts;
  chainOptions = backendChainOf(chain);
  m = await startMarketOnChain(chain);
  await settled();
  lastSeededItem = await m.scalar<number>("select max(id) from market_items");

  // A Rare ship (power 420) mines for four hours: 168 DarkIron, 33 Silver, 3 Gold to send.
  await grantDeployer(chain, c.card, "MINTER_ROLE");
  const minted = await chain.mined(
    chain.deployer.writeContract({
      address: c.card,
      abi: sparkCardAbi,
      functionName: "mint",
      args: [player.address, encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] })],
    }),
  );
  const ship = parseEventLogs({ abi: sparkCardAbi, logs: minted.logs, eventName: "Transfer" })[0]!.args.tokenId;
  await chain.mined(chain.walletFor(player).writeContract({ ...manager(), functionName: "explore", args: [ship] }));
  await chain.advanceTime(4 * 3600);
  await chain.mined(chain.walletFor(player).writeContract({ ...manager(), functionName: "recall", args: [ship] }));
});
afterAll(async () => {
  await m?.close();
  await chain?.close();
});

const manager = () => ({ address: c.starship, abi: starshipManagerAbi }) as const;
const send = (amounts: readonly [bigint, bigint, bigint]) =>
  chain.mined(chain.walletFor(player).writeContract({ ...manager(), functionName: "sendMaterialsToGame", args: [amounts, 1n] }));
async function settled() {
  await m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
}
/** The player's stacks the tests brought into the game, oldest first. */
const stacks = async () =>
  (await m.t.store.sql.all(
    'select id, token_id as "tokenId", material, amount, location from market_items where nft_type = 8 and owner_address = ? and id > ? order by id',
    [player.address, lastSeededItem],
  )) as { id: number; tokenId: string; material: number; amount: string; location: number }[];

describe("materials sent into the game", () => {
  it("become one stack per material in the player's game account, once", async () => {
    await send([100n, 20n, 0n]);
    await settled();
    const made = await stacks();
    expect(made.map(({ material, amount, location }) => ({ material, amount, location }))).toEqual([
      { material: 0, amount: "100", location: 0 },
      { material: 1, amount: "20", location: 0 },
    ]);
    for (const stack of made) expect(stack.tokenId).toBe(String(GAME_TOKEN_ID_BASE + stack.id));
    const detail = await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", { tokenId: made[0]!.tokenId, nftType: 8 });
    expect(detail).toMatchObject({
      name: `DarkIron ×100 #${made[0]!.tokenId}`,
      amount: "100",
      location: "game",
      ownerAddress: player.address,
    });
    expect(await m.scalar("select count(*) from market_materials_events")).toBe(1);
  });

  it("are credited once across a restart of the indexer", async () => {
    await m.t.indexer!.stop();
    const again = createChainIndexer(new MarketDb(m.t.store), chainOptions, { log: silent });
    again.start();
    await chain.testClient.mine({ blocks: 1 });
    await again.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
    await again.stop();
    m.t.indexer!.start();
    await settled();
    expect(await stacks()).toHaveLength(2);
    expect(await m.scalar("select count(*) from market_materials_events")).toBe(1);
  });

  it("are taken back when a reorg removes their block, a listing of them ended, and credited again once mined anew", async () => {
    const snapshot = await chain.testClient.snapshot();
    await send([0n, 0n, 3n]);
    await settled();
    const gold = (await stacks()).at(-1)!;
    expect(gold).toMatchObject({ material: 2, amount: "3", location: 0 });
    const listed = await listBrowserStack(m, gold.tokenId, 5n * WEI);
    expect(listed.status, listed.msg).toBe(200);

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    await expect.poll(async () => (await stacks()).length, { timeout: 15_000 }).toBe(2);
    expect(await m.scalar("select owner_address from market_items where id = ?", gold.id)).toBe(
      "0x0000000000000000000000000000000000000000",
    );
    expect(await m.scalar("select count(*) from market_listings where item_id = ? and status = 0", gold.id)).toBe(0);
    expect(await m.scalar("select count(*) from market_materials_events")).toBe(1);

    await send([0n, 0n, 3n]);
    await settled();
    expect((await stacks()).map(({ material, amount }) => [material, amount])).toEqual([
      [0, "100"],
      [1, "20"],
      [2, "3"],
    ]);
    expect(await m.scalar("select count(*) from market_materials_events")).toBe(2);
  });
});
