/**
 * The bridge's figures (issue 14), on a local anvil chain with the real backends:
 * - swap → credit: from a swapTokenToGame transaction's receipt to the game balance showing it (the indexer's
 *   bridge stream at depth 0 and its poll interval), median of `--swaps` runs;
 * - catch-up: a backlog of `--events` SwappedToGame events (mined with automine off, 150 transactions a block)
 *   read by a fresh indexer from the deployment block; prints events per second.
 *   npx tsx tests/bench/bridge.ts [--swaps 9] [--events 10000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { encodeFunctionData, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { assetManagerAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { startBackends } from "../../backend";
import { MarketDb } from "../../backend/market/shared/db";
import { balanceOf } from "../../backend/market/shared/ledger";
import { createChainIndexer } from "../../backend/market/indexer/indexer";
import type { BackendChain } from "../../backend/types";
import { backendChainOf, startTestChain } from "../contracts/harness";
import { testBackendOptions } from "../backend/harness";
import { WEI_PER_TOKEN } from "~core/money";

const values = cliOptions({ swaps: "9", events: "10000" });
const SWAPS = Number(values.swaps);
const EVENTS = Number(values.events);
const WEI = WEI_PER_TOKEN;
const PER_BLOCK = 150;
const silent = { info() {}, warn() {}, error() {} };

const t = await startTestChain();
const c = t.deployment.contracts;
const chain: BackendChain = backendChainOf(t, { pollIntervalMs: 500 });
const players = [3, 4, 5, 6, 7].map((index) =>
  mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: index }),
);

for (const player of players) {
  await t.mined(
    t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [player.address, 1_000_000n * WEI] }),
  );
  await t.mined(
    t
      .walletFor(player)
      .writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.assetManager, 1_000_000n * WEI] }),
  );
}

// --- swap → credit, with the backends' own indexer polling as in production (CHAIN_POLL_MS 500) ---
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-bridge-bench-"));
const backends = await startBackends(path.join(dir, "bench.db"), { ...testBackendOptions, chain });
const db = new MarketDb(backends.store);
const latencies: number[] = [];
for (let i = 0; i < SWAPS; i++) {
  const player = players[0];
  const before = await balanceOf(db, player.address, "FIRE");
  const receipt = await t.mined(
    t
      .walletFor(player)
      .writeContract({ address: c.assetManager, abi: assetManagerAbi, functionName: "swapTokenToGame", args: [c.fire, WEI, 1n] }),
  );
  const mined = Date.now();
  while ((await balanceOf(db, player.address, "FIRE")) === before) await new Promise((r) => setTimeout(r, 5));
  latencies.push(Date.now() - mined);
  void receipt;
}
latencies.sort((a, b) => a - b);
console.log(
  `swap → credit: median ${latencies[Math.floor(latencies.length / 2)]} ms (min ${latencies[0]}, max ${latencies.at(-1)}) over ${SWAPS} swaps, poll ${chain.pollIntervalMs} ms`,
);
await backends.close();

// --- catch-up: a backlog of EVENTS swaps, then a fresh indexer on a fresh database ---
await t.testClient.setAutomine(false);
const nonces = await Promise.all(players.map((player) => t.publicClient.getTransactionCount({ address: player.address })));
const data = encodeFunctionData({ abi: assetManagerAbi, functionName: "swapTokenToGame", args: [c.fire, 1n, 1n] });
const sending = Date.now();
for (let sent = 0; sent < EVENTS; ) {
  const batch = Math.min(PER_BLOCK, EVENTS - sent);
  await Promise.all(
    Array.from({ length: batch }, (_, i) => {
      const index = (sent + i) % players.length;
      const nonce = nonces[index]++;
      return t
        .walletFor(players[index])
        .sendTransaction({ to: c.assetManager, data: data as Hex, nonce, gas: 300_000n, chain: t.publicClient.chain });
    }),
  );
  await t.testClient.mine({ blocks: 1 });
  sent += batch;
}
// Whatever did not fit in its block goes in the next ones.
while ((await t.testClient.getTxpoolStatus()).pending > 0) await t.testClient.mine({ blocks: 1 });
await t.testClient.setAutomine(true);
const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
console.log(`backlog: ${EVENTS} swaps sent, chain head ${head}, made in ${((Date.now() - sending) / 1000).toFixed(1)} s`);

const fresh = await startBackends(path.join(dir, "catch-up.db"), { ...testBackendOptions });
const freshDb = new MarketDb(fresh.store);
const indexer = createChainIndexer(freshDb, chain, { log: silent });
const started = Date.now();
indexer.start();
await indexer.waitForBlock(head, 600_000);
const seconds = (Date.now() - started) / 1000;
const applied = (await fresh.store.sql.get<{ n: number }>("select count(*) as n from market_bridge_events"))!;
console.log(
  `catch-up: ${applied.n} events in ${seconds.toFixed(2)} s = ${Math.round(applied.n / seconds)} events/s (both streams, from the deployment block)`,
);
await indexer.stop();
await fresh.close();
await t.close();
fs.rmSync(dir, { recursive: true, force: true });
