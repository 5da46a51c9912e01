/**
 * How the market's chain indexer keeps its place, on a real chain and a real SQLite file without the demo seed:
 * confirmation depth, resuming after a restart, and a node that goes away and comes back.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Address } from "viem";
import { sparkCardAbi } from "../../contracts/generated/abi";
import { encodeItem } from "~core/item-data";
import { startBackends } from "../../backend";
import { openDatabase } from "../../backend/schema";
import { demoMarketOptions } from "../../backend/market/seed";
import { DEMO_CHAIN_STACKS } from "../../contracts/deploy";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { testBackendOptions } from "./harness";
import { MarketDb } from "../../backend/market/shared/db";
import { type ChainIndexer, createChainIndexer } from "../../backend/market/indexer/indexer";
import type { BackendChain, BackendLog } from "../../backend/types";
import { backendChainOf, freshPlayer, grantDeployer, startTestChain, type TestChain } from "../contracts/harness";
import { freshDatabase } from "./engine";
import { startRpcProxy } from "../support/rpc-proxy";
import { openedPerTest, quiet } from "./indexer-fixture";

let chain: TestChain;
let dir: string;
const open = openedPerTest();

beforeAll(async () => {
  chain = await startTestChain();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-indexer-"));
  await grantDeployer(chain, chain.deployment.contracts.card, "MINTER_ROLE");
});
afterAll(async () => {
  await chain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const options = (overrides: Partial<BackendChain> = {}): BackendChain => backendChainOf(chain, overrides);

async function store(name: string): Promise<MarketDb> {
  const backendDb = await openDatabase(await freshDatabase(dir, name));
  open.stores.push(backendDb);
  return new MarketDb(backendDb);
}

function indexer(db: MarketDb, chainOptions: BackendChain, log: BackendLog = quiet()): ChainIndexer {
  const created = createChainIndexer(db, chainOptions, { log });
  open.indexers.push(created);
  created.start();
  return created;
}

async function mint(to: Address) {
  const receipt = await chain.mined(
    chain.deployer.writeContract({
      address: chain.deployment.contracts.card,
      abi: sparkCardAbi,
      functionName: "mint",
      args: [to, encodeItem.egg(3)],
    }),
  );
  const tokenId = await chain.publicClient.readContract({
    address: chain.deployment.contracts.card,
    abi: sparkCardAbi,
    functionName: "totalMinted",
  });
  return { block: receipt.blockNumber, tokenId: tokenId.toString() };
}

const itemOf = async (db: MarketDb, tokenId: string) =>
  db.get<{ owner_address: string; nft_type: number; updated_at: number }>(
    "select * from market_items where nft_type = 5 and token_id = ?",
    [tokenId],
  );
const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });

describe("the chain indexer's position", () => {
  it("shows a mint at once, and applies its block to the paying streams only once it is `confirmations` deep", async () => {
    const db = await store("depth");
    const deep = indexer(db, options({ confirmations: 2 }));
    const { block, tokenId } = await mint(freshPlayer(6).address);
    // The transfers stream follows the head; the paying streams stop two blocks below it (decision 0029).
    await expect.poll(() => itemOf(db, tokenId)).toMatchObject({ owner_address: freshPlayer(6).address, nft_type: 5 });
    await deep.waitForBlock(block - 2n);
    expect(deep.syncedBlock()).toBe(block - 2n);

    await chain.testClient.mine({ blocks: 1 });
    await deep.waitForBlock(block - 1n);
    expect(deep.syncedBlock()).toBe(block - 1n);
    await chain.testClient.mine({ blocks: 1 });
    await deep.waitForBlock(block);
    expect(deep.syncedBlock()).toBe(block);
  });

  it("resumes from its cursor after a restart: nothing before it is applied again", async () => {
    const db = await store("restart");
    const first = indexer(db, options());
    const earlier = await mint(freshPlayer(7).address);
    await first.waitForBlock(earlier.block);
    const before = (await itemOf(db, earlier.tokenId))!;
    const count = (await db.get<{ n: number }>("select count(*) as n from market_items"))!.n;
    await first.stop();

    const later = await mint(freshPlayer(7).address);
    const second = indexer(db, options());
    await second.waitForBlock(later.block);
    // The restart's first range starts after the cursor: the earlier item was not written again.
    expect(await itemOf(db, earlier.tokenId)).toEqual(before);
    expect(await itemOf(db, later.tokenId)).toBeDefined();
    expect((await db.get<{ n: number }>("select count(*) as n from market_items"))!.n).toBe(count + 1);
  });

  it("the backends run it when given a chain: after the demo seed (which fills only an empty market), until closed", async () => {
    const backends = await startBackends(await freshDatabase(dir, "wired"), { ...testBackendOptions, chain: options() });
    try {
      await backends.indexer!.waitForBlock(await head());
      const count = async (where: string) =>
        ((await backends.store.sql.get(`select count(*) as n from market_items where ${where}`)) as { n: number }).n;
      // A chain stack's id (a SparkItems id and its holder, 50+ digits) is neither, and no bigint.
      const id = "case when length(token_id) < 19 then cast(token_id as bigint) end";
      expect(await count(`${id} > ${GAME_TOKEN_ID_BASE}`)).toBe(demoMarketOptions(0).items);
      expect(await count(`${id} < ${GAME_TOKEN_ID_BASE}`)).toBeGreaterThan(0);
      expect(await count("length(token_id) >= 19")).toBe(DEMO_CHAIN_STACKS.length);
    } finally {
      await backends.close();
    }
  });

  it("through a provider that refuses wide log ranges, limits and drops: from the deployment block, a card minted after 250 empty blocks", async () => {
    // A tenth of a public node's 1,000-block limit over a tenth of 2,500 blocks: anvil mines a long run of blocks slowly.
    const provider = await startRpcProxy({ target: chain.rpcUrl, maxLogRange: 100, rateLimitShare: 0.1, latencyMs: 1, seed: 2_500 });
    try {
      const deployedAtBlock = await head();
      await chain.testClient.mine({ blocks: 250 });
      const { block, tokenId } = await mint(freshPlayer(4).address);
      provider.dropNext(3);
      const db = await store("provider");
      // Wider than the provider takes: the indexer learns the width from its refusal.
      const follower = indexer(db, options({ rpcUrls: [provider.url], deployedAtBlock: Number(deployedAtBlock), logRange: 500 }));
      // Each 429 and drop costs a backoff of 200 ms and up: a wide margin for a loaded machine.
      await follower.waitForBlock(block, 50_000);
      expect(await itemOf(db, tokenId)).toMatchObject({ owner_address: freshPlayer(4).address });
      expect(provider.stats.lowestLogBlock).toBe(deployedAtBlock);
      expect(provider.stats.refusedLogRanges).toBeGreaterThan(0);
      expect(provider.stats.rateLimited).toBeGreaterThan(0);
      expect(provider.stats.dropped).toBe(3);
    } finally {
      await provider.stop();
    }
  }, 60_000);

  it("a node that is down is retried, logged once per outage, and the indexer catches up when it is back", async () => {
    const node = await startRpcProxy({ target: chain.rpcUrl });
    try {
      const db = await store("outage");
      const log = quiet();
      const follower = indexer(db, options({ rpcUrls: [node.url] }), log);
      await follower.waitForBlock(await head());

      node.setDown(true);
      const { block, tokenId } = await mint(freshPlayer(3).address);
      // A poll fails once its retries are spent (core/chain-transport.ts), and the polls after it fail too.
      await vi.waitFor(() => expect(log.error).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 20 });
      const droppedThen = node.stats.dropped;
      await vi.waitFor(() => expect(node.stats.dropped).toBeGreaterThanOrEqual(droppedThen + 5), { timeout: 10_000, interval: 20 });
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(follower.syncedBlock()).toBeLessThan(block);

      node.setDown(false);
      await follower.waitForBlock(block);
      expect(await itemOf(db, tokenId)).toBeDefined();
      // The outage ends with the first range read whole; it is logged once too.
      await vi.waitFor(() => expect(log.info).toHaveBeenCalledTimes(1), { timeout: 2_000, interval: 20 });
      expect(log.error).toHaveBeenCalledTimes(1);
    } finally {
      await node.stop();
    }
  });
});
