/**
 * The embedded local chain: starts anvil with persisted state, deploys and seeds our contracts on first start,
 * and writes the deployment record. A watchdog process stops anvil when its starter dies, however (kill -9 too).
 * anvil's pid is also kept next to its state, so that a start after anvil outlived its starter anyway (the watchdog
 * killed with it, or no watchdog could start) stops the leftover node instead of failing on its port.
 *
 *   import { startLocalChain } from "./contracts/chain";
 *   const chain = await startLocalChain({ port: 8545 });   // chain.rpcUrl, chain.deployment, chain.stop()
 *
 * CLI (foreground, Ctrl-C to stop): npx tsx contracts/chain.ts [--port 8545] [--state file] [--deployment file]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createPublicClient, http } from "viem";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { deployAndSeed } from "./deploy";
import { localChain, readDeployment, writeDeployment, type Deployment } from "./deployment";
import { installMulticall3 } from "./multicall";
import { processInfo, rpcChainId, spawnAnvil, type AnvilNode } from "./anvil";

export type { AnvilNode };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const DEFAULT_STATE_FILE = path.join(repoRoot, "data", "chain", "anvil-state.json");
export const DEFAULT_DEPLOYMENT_FILE = path.join(repoRoot, "data", "chain", "deployment.json");

export interface StartLocalChainOptions {
  port?: number;
  host?: string;
  /** anvil state: loaded at start when present, dumped on SIGTERM/SIGINT and every stateIntervalSeconds. */
  stateFile?: string;
  deploymentFile?: string;
  /** How often anvil writes its state while running, so a crash loses at most this much. */
  stateIntervalSeconds?: number;
  /** Box tokenURI prefix used when deploying (tokenURI = base + boxId + "/" + boxType). */
  boxBaseUri?: string;
  /** Card tokenURI prefix used when deploying (tokenURI = base + id + ".json"). */
  cardBaseUri?: string;
  /** SparkItems uri prefix used when deploying (uri = base + "{id}.json"). */
  itemsBaseUri?: string;
  log?: (message: string) => void;
}

export interface LocalChain {
  rpcUrl: string;
  /** anvil's process id, also kept in chainPidFile(stateFile) while it runs. */
  pid: number;
  /** anvil's scratch directory (AnvilNode), removed when it stops. */
  scratch: string;
  deployment: Deployment;
  /** Sends SIGTERM (anvil then dumps its state) and resolves once the process has exited. */
  stop(): Promise<void>;
}

/** True when the record belongs to this chain: same chain id and code at every contract address. */
async function isDeployedOn(deployment: Deployment, rpcUrl: string): Promise<boolean> {
  if (deployment.chainId !== LOCAL_CHAIN_ID) return false;
  const client = createPublicClient({ chain: localChain(rpcUrl), transport: http(rpcUrl) });
  const codes = await Promise.all(Object.values(deployment.contracts).map((address) => client.getCode({ address })));
  return codes.every((code) => code !== undefined && code !== "0x");
}

/** Where the running anvil's pid is kept, next to its state, for the next start to find. */
export function chainPidFile(stateFile: string): string {
  return path.join(path.dirname(stateFile), `${path.basename(stateFile, path.extname(stateFile))}.pid`);
}

interface PidRecord {
  pid: number;
  /** The process that started anvil: while anvil is still its child, that process owns it. */
  parent: number;
}

/** True while pid is an anvil working on stateFile: no other process can be mistaken for ours. */
function isAnvilOn(info: { argv: string[] } | null, stateFile: string): boolean {
  if (!info || path.basename(info.argv[0] ?? "") !== "anvil") return false;
  const at = info.argv.indexOf("--state");
  return at > 0 && info.argv[at + 1] === stateFile;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * Stops the anvil that a previous run started on stateFile and could not stop because it was killed (kill -9),
 * which would otherwise hold the port. SIGTERM lets it dump its state first, so nothing it holds is lost.
 * Left alone: a process that is not anvil on this state file, and an anvil whose starter still runs.
 * Needs /proc (Linux); elsewhere nothing is stopped and the start reports the port in use.
 */
export async function stopStaleChain(stateFile: string, log: (message: string) => void = () => {}): Promise<void> {
  const file = path.resolve(stateFile);
  const pidFile = chainPidFile(file);
  let record: PidRecord;
  try {
    record = JSON.parse(fs.readFileSync(pidFile, "utf8")) as PidRecord;
  } catch {
    return;
  }
  const info = processInfo(record.pid);
  if (isAnvilOn(info, file)) {
    // Still the child of its starter: a running server owns it (and this start will find the port in use).
    if (info!.ppid === record.parent) return;
    signal(record.pid, "SIGTERM");
    const killAt = Date.now() + 15_000;
    while (isAnvilOn(processInfo(record.pid), file)) {
      if (Date.now() > killAt) signal(record.pid, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    log(`stopped a stale anvil (pid ${record.pid}) left by a previous run`);
  }
  fs.rmSync(pidFile, { force: true });
}

/** An empty anvil without persisted state or contracts, e.g. for trying a deployment to another chain id. */
export async function startBareAnvil({
  port,
  chainId,
  host = "127.0.0.1",
}: {
  port: number;
  chainId: number;
  host?: string;
}): Promise<AnvilNode> {
  const node = await spawnAnvil({ host, port, chainId, args: [], log: () => {} });
  // As on BSC and its testnet, which hold Multicall3 before anything of ours.
  await installMulticall3(node.rpcUrl);
  return node;
}

export async function startLocalChain(options: StartLocalChainOptions = {}): Promise<LocalChain> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 8545;
  const stateFile = path.resolve(options.stateFile ?? DEFAULT_STATE_FILE);
  const deploymentFile = path.resolve(options.deploymentFile ?? DEFAULT_DEPLOYMENT_FILE);
  const log = options.log ?? (() => {});
  const rpcUrl = `http://${host}:${port}`;

  await stopStaleChain(stateFile, log);
  // Something already answering on the port would be mistaken for our node.
  if ((await rpcChainId(rpcUrl)) !== null) throw new Error(`${rpcUrl} is already in use by another node`);

  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  fs.mkdirSync(path.dirname(deploymentFile), { recursive: true });

  const started = performance.now();
  const pidFile = chainPidFile(stateFile);
  const anvil = await spawnAnvil({
    host,
    port,
    chainId: LOCAL_CHAIN_ID,
    args: ["--state", stateFile, "--state-interval", String(options.stateIntervalSeconds ?? 10)],
    onSpawn: (pid) => fs.writeFileSync(pidFile, JSON.stringify({ pid, parent: process.pid } satisfies PidRecord)),
    onStop: () => fs.rmSync(pidFile, { force: true }),
    log,
  });
  const { stop } = anvil;
  try {
    log(`anvil up on ${rpcUrl} in ${Math.round(performance.now() - started)} ms`);
    await installMulticall3(rpcUrl);

    let deployment = readDeployment(deploymentFile);
    if (deployment && (await isDeployedOn(deployment, rpcUrl))) {
      if (deployment.rpcUrl !== rpcUrl) {
        deployment = { ...deployment, rpcUrl };
        writeDeployment(deploymentFile, deployment);
      }
      log(`contracts found from ${deploymentFile}`);
    } else {
      const deployStarted = performance.now();
      deployment = await deployAndSeed({
        rpcUrl,
        boxBaseUri: options.boxBaseUri,
        cardBaseUri: options.cardBaseUri,
        itemsBaseUri: options.itemsBaseUri,
      });
      writeDeployment(deploymentFile, deployment);
      log(`contracts deployed and seeded in ${Math.round(performance.now() - deployStarted)} ms`);
    }
    return { rpcUrl, pid: anvil.pid, scratch: anvil.scratch, deployment, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, state: { type: "string" }, deployment: { type: "string" } },
  });
  const chain = await startLocalChain({
    port: values.port ? Number(values.port) : undefined,
    stateFile: values.state,
    deploymentFile: values.deployment,
    log: (message) => console.log(message),
  });
  console.log(JSON.stringify(chain.deployment, null, 2));
  const shutdown = () => {
    chain.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
