/**
 * A loot box drop (issue 44, item 5): the V3-Galaxy sale (type 18, QUARK, 2 per address per 24 h) opens at a set chain
 * time and everyone presses Buy at once. On a server of its own (tests/bench/drop-server.ts: server.ts plus a socket
 * that creates managed accounts with the SSO's own functions), on its own anvil:
 *   - `--players` managed accounts, each funded (BNB for gas, QUARK for `--presses` boxes), press Buy `--presses`
 *     times at the opening through the SSO's real HTTP API (POST /sso/actions, as the app's form does); the executor
 *     approves and buys for each;
 *   - `--wallets` browser wallets (derived from anvil's mnemonic, funded with anvil_setBalance and minted QUARK) send
 *     the sale's transactions themselves, as the island does: an exact approval, a simulation, the purchase;
 *   - `--page-clients` clients fetch the market page and the loot box page, rendered (not from the page cache), all
 *     through the drop.
 * The sale's supply is set to `--supply` boxes (default: fewer than the 2 per buyer asked for, so it sells out).
 * Prints the time from the opening until every purchase is mined or refused, the executor's actions and transactions
 * per second, the pages' p95 during the drop, and checks that the limits held: no wallet bought more than 2 boxes in
 * the window, the supply was never exceeded, every accepted purchase was mined exactly once (one BoxesPurchased of its
 * wallet per mined execution, no transaction twice), and every refusal was a sentence, never a 5xx.
 *   npx tsx tests/bench/drop.ts [--players 1000] [--wallets 200] [--presses 3] [--supply 2000] [--page-clients 4]
 *     [--engine sqlite|postgres]
 * DROP_PROFILE=file writes a CPU profile of the server's process through the drop (open it in Chrome's DevTools).
 * The server's log is left in data/bench-drop/server.log.
 * Its server runs on DROP_PORT (3717) with its chain on DROP_CHAIN_PORT (8717). Exits 1 when an invariant broke.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type EncodeFunctionDataParameters,
  type Hex,
  http as httpTransport,
  parseEther,
  parseEventLogs,
  toHex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { blindBoxSaleAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { localChain, readDeployment } from "../../contracts/deployment";
import { UNCACHED } from "./load";
import type { DropAccount } from "./drop-server";
import { buyFromWallets } from "./drop-wallets";
import { ensureBuild, runDir, startServer } from "./server";
import { CLUSTER_URL_ENV, createTestDatabase, startPostgresCluster } from "../support/postgres";
import { nodeRpc } from "../../contracts/node-rpc";

const { values } = parseArgs({
  options: {
    players: { type: "string", default: "1000" },
    wallets: { type: "string", default: "200" },
    presses: { type: "string", default: "3" },
    supply: { type: "string" },
    "page-clients": { type: "string", default: "4" },
    engine: { type: "string", default: "sqlite" },
  },
});
const PLAYERS = Number(values.players);
const WALLETS = Number(values.wallets);
const PRESSES = Number(values.presses);
const LIMIT_PER_DAY = 2;
/** Fewer boxes than the buyers may take (2 each): the drop sells out, so the supply check has something to hold. */
const SUPPLY = values.supply ? Number(values.supply) : Math.max(1, Math.floor((PLAYERS + WALLETS) * LIMIT_PER_DAY * 0.85));
const PAGE_CLIENTS = Number(values["page-clients"]);
const PORT = Number(process.env.DROP_PORT ?? 3717);
const CHAIN_PORT = Number(process.env.DROP_CHAIN_PORT ?? 8717);
const BOX_TYPE = 18n;
const PAGES = ["/lootbox/18", "/marketplace/market"];
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

// Another bench's server on these ports would answer in its place.
if (
  await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
    () => true,
    () => false,
  )
)
  throw new Error(`port ${PORT} is taken: set DROP_PORT`);
if (values.engine !== "sqlite" && values.engine !== "postgres") throw new Error("--engine: expected sqlite or postgres");
const dir = runDir("bench-drop");
// On PostgreSQL the backends run on a throwaway cluster (decision 0011), which this script stops at the end.
const cluster = values.engine === "postgres" ? await startPostgresCluster() : null;
if (cluster) process.env[CLUSTER_URL_ENV] = cluster.url;
const databaseUrl = cluster ? await createTestDatabase() : null;
ensureBuild();
const server = await startServer({
  port: PORT,
  chainPort: CHAIN_PORT,
  database: path.join(dir, "spark.db"),
  script: "tests/bench/drop-server.ts",
  env: { LOG_LEVEL: "warn", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
});
const problems: string[] = [];

/** One call to the bench's socket of the server (drop-server.ts). */
function helper<T>(route: string, input: unknown = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: path.join(dir, "drop.sock"), method: "POST", path: route }, async (res) => {
      let body = "";
      for await (const chunk of res) body += chunk;
      if (res.statusCode === 200) resolve(JSON.parse(body) as T);
      else reject(new Error(`${route}: ${body}`));
    });
    req.on("error", reject);
    req.end(JSON.stringify(input));
  });
}

const rpcUrl = `http://127.0.0.1:${CHAIN_PORT}`;
const rpc = <T>(method: string, params: unknown[] = []): Promise<T> => nodeRpc<T>(rpcUrl, method, params);

try {
  const deployment = readDeployment(path.join(dir, "chain", "deployment.json"));
  if (!deployment) throw new Error("no deployment");
  const { contracts, accounts } = deployment;
  const chain = localChain(rpcUrl);
  const client = createPublicClient({ chain, transport: httpTransport(rpcUrl), pollingInterval: 100 });

  /** The deployer (unlocked on anvil) sends one call and waits for it (automine). */
  async function asDeployer(call: EncodeFunctionDataParameters, to: Address) {
    const hash = await rpc<Hex>("eth_sendTransaction", [{ from: accounts.deployer, to, data: encodeFunctionData(call) }]);
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`deployer call ${hash} reverted`);
  }

  // --- setup: accounts, funds, the sale's terms ---
  const setupStarted = performance.now();
  const players: DropAccount[] = [];
  for (let from = 0; from < PLAYERS; from += 100) {
    players.push(...(await helper<DropAccount[]>("/accounts", { prefix: "drop", from, count: Math.min(100, PLAYERS - from) })));
  }
  const wallets = Array.from({ length: WALLETS }, (_, i) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 100 + i }));
  const price = await client.readContract({
    address: contracts.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "priceInToken",
    args: [BOX_TYPE, contracts.quark],
  });
  for (const address of [...players.map((p) => p.wallet), ...wallets.map((w) => w.address)]) {
    await rpc("anvil_setBalance", [address, toHex(parseEther("1"))]);
    await asDeployer({ abi: gameTokenAbi, functionName: "mint", args: [address, price * BigInt(PRESSES)] }, contracts.quark);
  }
  const sold = await client.readContract({
    address: contracts.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "soldAmount",
    args: [BOX_TYPE],
  });
  const globalLimit = sold + BigInt(SUPPLY);
  await asDeployer(
    { abi: blindBoxSaleAbi, functionName: "configureBoxType", args: [BOX_TYPE, globalLimit, BigInt(LIMIT_PER_DAY)] },
    contracts.boxSale,
  );
  const latest = await client.getBlock();
  const opensAt = latest.timestamp + 3_600n;
  await asDeployer({ abi: blindBoxSaleAbi, functionName: "setBoxTypeStartDate", args: [BOX_TYPE, opensAt] }, contracts.boxSale);

  const press = async (player: DropAccount, n: number) => {
    const response = await fetch(`${server.base}/sso/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", [AUTH_TOKEN_HEADER]: player.token },
      body: JSON.stringify({
        action: "lootbox.buy",
        params: { typeBox: Number(BOX_TYPE), currency: "QUARK", quantity: 1 },
        idempotencyKey: `drop-${player.userId}-${n}-${Date.now()}`,
      }),
    });
    const text = await response.text();
    let body: { success?: boolean; msg?: string; data?: { id: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not the API's envelope: the server's own answer (a 408 after its requestTimeout, say), said as such.
      return { status: response.status, id: null, msg: "" };
    }
    return { status: response.status, id: body.data?.id ?? null, msg: body.msg ?? "" };
  };
  // Before the opening, the form is refused in words.
  if (players.length) {
    const early = await press(players[0]!, -1);
    if (early.status !== 400 || !/not on sale yet/i.test(early.msg))
      problems.push(`a press before the opening answered ${early.status} ${early.msg}`);
  }
  console.log(
    `setup: ${PLAYERS} managed players, ${WALLETS} browser wallets, supply ${SUPPLY}, ${PRESSES} presses each, in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s`,
  );

  // --- the drop ---
  await rpc("evm_setNextBlockTimestamp", [Number(opensAt)]);
  await rpc("evm_mine");
  const fromBlock = (await client.getBlockNumber()) + 1n;
  if (process.env.DROP_PROFILE) await helper("/profile/start");
  type Usage = { cpu: { user: number; system: number }; elu: { idle: number; active: number } };
  const usageBefore = await helper<Usage>("/usage");
  const dropStarted = performance.now();
  let dropOver = false;

  // Pages, rendered for each request, as long as the drop lasts.
  const pageLatencies: number[] = [];
  const pageErrors: string[] = [];
  let nextPage = 0;
  const pageClient = async () => {
    while (!dropOver) {
      const url = `${server.base}${PAGES[nextPage++ % PAGES.length]}`;
      const started = performance.now();
      try {
        const response = await fetch(url, { headers: UNCACHED, redirect: "manual" });
        await response.arrayBuffer();
        if (response.status !== 200) pageErrors.push(`${url}: ${response.status}`);
        else pageLatencies.push(performance.now() - started);
      } catch (error) {
        pageErrors.push(`${url}: ${(error as Error).message}`);
      }
    }
  };
  const pages = Promise.all(Array.from({ length: PAGE_CLIENTS }, pageClient));

  // Managed players: every press at once.
  const accepted: { player: DropAccount; id: string }[] = [];
  const refusals = new Map<string, number>();
  const serverErrors: string[] = [];
  const managed = Promise.all(
    players.flatMap((player) =>
      Array.from({ length: PRESSES }, async (_, n) => {
        try {
          const answer = await press(player, n);
          if (answer.status === 200 && answer.id) accepted.push({ player, id: answer.id });
          else if (answer.status >= 500 || !answer.msg) serverErrors.push(`${answer.status} ${answer.msg || "(no envelope)"}`);
          else refusals.set(`${answer.status} ${answer.msg}`, (refusals.get(`${answer.status} ${answer.msg}`) ?? 0) + 1);
        } catch (error) {
          const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
          serverErrors.push(`no answer: ${(error as Error).message} (${cause?.code ?? cause?.message ?? "no cause"})`);
        }
      }),
    ),
  );
  const pressesAnswered = managed.then(() => performance.now() - dropStarted);

  // Browser wallets: each presses PRESSES times, one after another, as a person in a wallet pop-up does.
  const browser = buyFromWallets({ wallets, presses: PRESSES, boxType: BOX_TYPE, price, contracts, chain, rpcUrl, client, dropStarted });

  // Until every accepted purchase is mined or refused.
  await managed;
  const answeredMs = await pressesAnswered;
  const browserBought = await browser;
  let depth: Record<string, number> = {};
  for (;;) {
    depth = await helper<Record<string, number>>("/queue");
    if (Object.values(depth).every((count) => !count)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const settledMs = performance.now() - dropStarted;
  const usageAfter = await helper<Usage>("/usage");
  const cpuSeconds = (usageAfter.cpu.user + usageAfter.cpu.system - usageBefore.cpu.user - usageBefore.cpu.system) / 1e6;
  const loopBusySeconds = (usageAfter.elu.active - usageBefore.elu.active) / 1000;
  if (process.env.DROP_PROFILE) await helper("/profile/stop", { file: path.resolve(process.env.DROP_PROFILE) });
  dropOver = true;
  await pages;

  // --- figures and invariants ---
  const { rows, steps } = await helper<{
    rows: { seq: number; id: string; wallet: string; status: string; error: string | null; created_at: string; updated_at: string }[];
    steps: { execution_seq: number; kind: string; status: string; tx_hash: string | null }[];
  }>("/executions");
  const acceptedIds = new Set(accepted.map((a) => a.id));
  const dropRows = rows.filter((row) => acceptedIds.has(row.id));
  const minedRows = dropRows.filter((row) => row.status === "mined");
  const failedRows = dropRows.filter((row) => row.status === "failed");
  const seqs = new Set(dropRows.map((row) => row.seq));
  const dropSteps = steps.filter((step) => seqs.has(step.execution_seq));
  const sentSteps = dropSteps.filter((step) => step.tx_hash);
  const minedSteps = dropSteps.filter((step) => step.status === "mined");
  const executionRefusals = new Map<string, number>();
  for (const row of failedRows)
    executionRefusals.set(row.error ?? "(no reason)", (executionRefusals.get(row.error ?? "(no reason)") ?? 0) + 1);
  const firstCreated = Math.min(...dropRows.map((row) => Date.parse(row.created_at)));
  const lastUpdated = Math.max(...dropRows.map((row) => Date.parse(row.updated_at)));
  const executorSeconds = (lastUpdated - firstCreated) / 1000;

  // The chain's own record: every BoxesPurchased of type 18 since the opening.
  const logs = await client.getLogs({ address: contracts.boxSale, fromBlock, toBlock: "latest" });
  const purchases = parseEventLogs({ abi: blindBoxSaleAbi, eventName: "BoxesPurchased", logs }).filter(
    (log) => log.args.boxType === BOX_TYPE,
  );
  const perWallet = new Map<string, number>();
  for (const log of purchases)
    perWallet.set(log.args.buyer.toLowerCase(), (perWallet.get(log.args.buyer.toLowerCase()) ?? 0) + Number(log.args.quantity));
  const over = [...perWallet].filter(([, count]) => count > LIMIT_PER_DAY);
  if (over.length)
    problems.push(`${over.length} wallets hold more than ${LIMIT_PER_DAY} boxes of the drop (first: ${over[0]![0]} with ${over[0]![1]})`);
  const soldAfter = await client.readContract({
    address: contracts.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "soldAmount",
    args: [BOX_TYPE],
  });
  const boxesSold = purchases.reduce((sum, log) => sum + log.args.quantity, 0n);
  if (soldAfter > globalLimit) problems.push(`sold ${soldAfter} boxes, over the supply's ${globalLimit}`);
  if (soldAfter - sold !== boxesSold) problems.push(`the sale counts ${soldAfter - sold} boxes sold, its events ${boxesSold}`);
  // Each mined execution: exactly one purchase of its wallet on chain, by its own buy transaction.
  const purchaseHashes = new Map<string, number>();
  for (const log of purchases) purchaseHashes.set(log.transactionHash, (purchaseHashes.get(log.transactionHash) ?? 0) + 1);
  const buySteps = new Map(
    dropSteps.filter((step) => step.kind === "buy" && step.status === "mined").map((step) => [step.execution_seq, step]),
  );
  let notOnChain = 0;
  for (const row of minedRows) {
    const hash = buySteps.get(row.seq)?.tx_hash;
    if (!hash || purchaseHashes.get(hash) !== 1) notOnChain++;
  }
  if (notOnChain) problems.push(`${notOnChain} mined executions have no purchase of their own on chain`);
  const managedWallets = new Set(players.map((p) => p.wallet.toLowerCase()));
  const managedBoxes = purchases.filter((log) => managedWallets.has(log.args.buyer.toLowerCase())).length;
  if (managedBoxes !== minedRows.length) problems.push(`${managedBoxes} managed purchases on chain, ${minedRows.length} executions mined`);
  const hashes = sentSteps.map((step) => step.tx_hash);
  if (new Set(hashes).size !== hashes.length) problems.push("a transaction was stored for two steps");
  if (dropRows.length !== accepted.length) problems.push(`${accepted.length} presses accepted, ${dropRows.length} executions stored`);
  if (failedRows.some((row) => !row.error || /went wrong on our side/.test(row.error)))
    problems.push("an execution failed without a reason the player can act on");
  if (serverErrors.length) problems.push(`${serverErrors.length} presses answered 5xx or not at all (first: ${serverErrors[0]})`);
  if (pageErrors.length) problems.push(`${pageErrors.length} page requests failed (first: ${pageErrors[0]})`);
  if (browserBought.mined.length !== purchases.length - managedBoxes)
    problems.push("browser wallets' purchases on chain and mined disagree");

  pageLatencies.sort((a, b) => a - b);
  const pct = (p: number) => pageLatencies[Math.min(pageLatencies.length - 1, Math.floor(pageLatencies.length * p))] ?? 0;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\ndrop of box type ${BOX_TYPE} (${values.engine}): ${PLAYERS} managed players x ${PRESSES} presses, ${WALLETS} browser wallets x ${PRESSES}`,
  );
  console.log(
    `  presses answered:             ${s(answeredMs)} after the opening (${accepted.length} accepted, ${[...refusals.values()].reduce((a, b) => a + b, 0)} refused)`,
  );
  console.log(`  browser wallets done:         ${s(browserBought.lastMinedMs)} (${browserBought.mined.length} bought)`);
  console.log(`  every purchase settled:       ${s(settledMs)} after the opening`);
  console.log(
    `  executor:                     ${dropRows.length} actions (${minedRows.length} mined, ${failedRows.length} refused) in ${executorSeconds.toFixed(1)} s: ` +
      `${(dropRows.length / executorSeconds).toFixed(1)} actions/s, ${(minedRows.length / executorSeconds).toFixed(1)} purchases/s, ${(minedSteps.length / executorSeconds).toFixed(1)} transactions/s`,
  );
  console.log(
    `  server process:               ${cpuSeconds.toFixed(1)} s of CPU (${((cpuSeconds * 1000) / Math.max(1, dropRows.length)).toFixed(1)} ms per action), ` +
      `event loop busy ${loopBusySeconds.toFixed(1)} s of the ${s(settledMs)}`,
  );
  console.log(
    `  pages during the drop:        ${pageLatencies.length} rendered, p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms`,
  );
  console.log(
    `  sold: ${soldAfter - sold} of ${SUPPLY} (${managedBoxes} to managed wallets, ${browserBought.mined.length} to browser wallets); most per wallet: ${Math.max(0, ...perWallet.values())}`,
  );
  for (const [reason, count] of refusals) console.log(`  press refused ${count}x: ${reason}`);
  for (const [reason, count] of executionRefusals) console.log(`  action refused ${count}x: ${reason}`);
  for (const [reason, count] of browserBought.refusals) console.log(`  browser refused ${count}x: ${reason}`);
} catch (error) {
  problems.push(String((error as Error).stack ?? error));
} finally {
  server.stop();
  fs.writeFileSync(path.join(dir, "server.log"), server.output());
  // The server's process group gets a moment to let go of its connections.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await cluster?.stop();
}
console.log(problems.length ? `FAILED:\n${problems.map((problem) => `  ${problem}`).join("\n")}` : "The limits held.");
process.exit(problems.length ? 1 : 0);
