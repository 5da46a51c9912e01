/**
 * The market indexer behind a provider (issue 41), on a local anvil chain through tests/support/rpc-proxy.ts with a
 * public BSC node's limits: 1,000-block log ranges, `--latency` ms a request, `--busy` of them answered 429.
 * - catch-up: `--events` card mints spread over `--blocks` blocks, read by a fresh indexer from the deployment block;
 *   prints blocks and events per second;
 * - following: one block a second for `--follow` seconds, a mint in each; prints the lag behind the head (blocks, and
 *   ms from a mint's block to its item in the market) at the production poll interval (CHAIN_POLL_MS 500);
 * - reorgs: a mint's block replaced by a block minting the same token to someone else, `--reorgs` times; prints the
 *   time from the new chain's head to the market showing the new holder.
 *   npx tsx tests/bench/indexer-provider.ts [--blocks 10000] [--events 1000] [--follow 30] [--reorgs 5] [--latency 20] [--busy 0.02]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import type { Address } from "viem";
import { sparkCardAbi } from "../../contracts/generated/abi";
import { openDatabase } from "../../backend/schema";
import { MarketDb } from "../../backend/market/shared/db";
import { createChainIndexer } from "../../backend/market/indexer/indexer";
import { encodeItem } from "~core/item-data";
import { backendChainOf, freshPlayer, grantDeployer, startTestChain } from "../contracts/harness";
import { freshDatabase } from "../backend/engine";
import { startRpcProxy } from "../support/rpc-proxy";

const values = cliOptions({ blocks: "10000", events: "1000", follow: "30", reorgs: "5", latency: "20", busy: "0.02" });
const BLOCKS = Number(values.blocks);
const EVENTS = Number(values.events);
const BATCHES = 10;
const silent = { info() {}, warn() {}, error() {} };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const t = await startTestChain();
const { card } = t.deployment.contracts;
await grantDeployer(t, card, "MINTER_ROLE");
const provider = await startRpcProxy({
  target: t.rpcUrl,
  maxLogRange: 1_000,
  latencyMs: Number(values.latency),
  rateLimitShare: Number(values.busy),
  seed: 41,
});
const head = () => t.publicClient.getBlockNumber({ cacheTime: 0 });
const sendMint = (to: Address, level = 1) =>
  t.deployer.writeContract({
    address: card,
    abi: sparkCardAbi,
    functionName: "mint",
    args: [to, encodeItem.card({ rarity: 1, camp: 0, identity: 2, profession: 1, level })],
  });
const totalMinted = () => t.publicClient.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });

// --- the backlog: EVENTS mints in BATCHES blocks, empty blocks between them, BLOCKS in all ---
const deployedAtBlock = Number(await head()) + 1;
const started = performance.now();
await t.testClient.setAutomine(false);
for (let batch = 0; batch < BATCHES; batch++) {
  for (let i = 0; i < EVENTS / BATCHES; i++) await sendMint(freshPlayer(3).address);
  await t.testClient.mine({ blocks: 1 });
  // anvil_mine slows down as the chain grows: in runs of 250 blocks it stays under the transport's timeout.
  for (let left = BLOCKS / BATCHES - 1; left > 0; left -= 250) await t.testClient.mine({ blocks: Math.min(250, left) });
}
await t.testClient.setAutomine(true);
const backlogHead = await head();
console.log(
  `backlog: ${EVENTS} mints over ${backlogHead - BigInt(deployedAtBlock) + 1n} blocks, made in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-indexer-bench-"));
const store = await openDatabase(await freshDatabase(dir, "bench"));
const db = new MarketDb(store);
const indexer = createChainIndexer(
  db,
  backendChainOf(t, { rpcUrls: [provider.url], deployedAtBlock, logRange: 1_000, pollIntervalMs: 500 }),
  { log: silent },
);
const catchUp = performance.now();
indexer.start();
await indexer.waitForBlock(backlogHead, 30 * 60_000);
const seconds = (performance.now() - catchUp) / 1000;
const indexedCards = (await db.get<{ n: number }>("select count(*) as n from market_items where owner_address = ?", [
  freshPlayer(3).address,
]))!.n;
console.log(
  `catch-up through the proxy (${values.latency} ms, ${Number(values.busy) * 100}% 429): ${seconds.toFixed(1)} s, ` +
    `${(Number(backlogHead - BigInt(deployedAtBlock) + 1n) / seconds).toFixed(0)} blocks/s, ${(indexedCards / seconds).toFixed(0)} events/s ` +
    `(${indexedCards} items; ${provider.stats.requests} HTTP requests, ${provider.stats.rateLimited} answered 429, ${provider.stats.refusedLogRanges} ranges refused)`,
);

// --- following the head at one block a second ---
const itemOf = (tokenId: bigint) =>
  db.get<{ owner_address: string }>("select owner_address from market_items where nft_type = 0 and token_id = ?", [tokenId.toString()]);
const lags: number[] = [];
const delays: number[] = [];
for (let second = 0; second < Number(values.follow); second++) {
  const tick = performance.now();
  await t.mined(sendMint(freshPlayer(4).address));
  const tokenId = await totalMinted();
  const block = await head();
  lags.push(Number(block - (indexer.syncedBlock() ?? 0n)));
  while (!(await itemOf(tokenId))) await new Promise((resolve) => setTimeout(resolve, 10));
  delays.push(performance.now() - tick);
  const rest = 1_000 - (performance.now() - tick);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
}
console.log(
  `following at 1 block/s: lag behind the head when a block is mined, median ${median(lags)} max ${Math.max(...lags)} blocks; ` +
    `mint to market median ${median(delays).toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms`,
);

// --- reorgs: the block that minted a token to one player replaced by one minting it to another ---
const reorgTimes: number[] = [];
for (let i = 0; i < Number(values.reorgs); i++) {
  const snapshot = await t.testClient.snapshot();
  await t.mined(sendMint(freshPlayer(5).address));
  const tokenId = await totalMinted();
  await indexer.waitForBlock(await head(), 60_000);
  await t.testClient.revert({ id: snapshot });
  await t.mined(sendMint(freshPlayer(6).address, 2));
  // The new chain is longer than the old one, as a reorg's winner is.
  await t.testClient.mine({ blocks: 1 });
  const reorged = performance.now();
  while ((await itemOf(tokenId))?.owner_address !== freshPlayer(6).address) await new Promise((resolve) => setTimeout(resolve, 10));
  reorgTimes.push(performance.now() - reorged);
}
console.log(
  `reorg to market: median ${median(reorgTimes).toFixed(0)} ms, max ${Math.max(...reorgTimes).toFixed(0)} ms over ${reorgTimes.length} reorgs`,
);

await indexer.stop();
await store.close();
await provider.stop();
await t.close();
fs.rmSync(dir, { recursive: true, force: true });
