/**
 * The embedded local chain: starts anvil with persisted state, deploys and seeds our contracts on first start,
 * and writes the deployment record.
 *
 *   import { startLocalChain } from "./contracts/chain";
 *   const chain = await startLocalChain({ port: 8545 });   // chain.rpcUrl, chain.deployment, chain.stop()
 *
 * CLI (foreground, Ctrl-C to stop): npx tsx contracts/chain.ts [--port 8545] [--state file] [--deployment file]
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createPublicClient, http } from "viem";
import { LOCAL_CHAIN_ID } from "../app/domain/constants";
import { deployAndSeed } from "./deploy";
import { localChain, readDeployment, writeDeployment, type Deployment } from "./deployment";

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
  log?: (message: string) => void;
}

export interface LocalChain {
  rpcUrl: string;
  deployment: Deployment;
  /** Sends SIGTERM (anvil then dumps its state) and resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * The platform binary from @foundry-rs/anvil's optional dependency. Spawned directly rather than through
 * node_modules/.bin/anvil: that wrapper re-raises SIGTERM on itself at once, so it exits before anvil has
 * finished dumping its state and "stopped" would not mean "state on disk".
 */
function anvilBinary(): string {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const binary = path.join(
    repoRoot,
    "node_modules",
    "@foundry-rs",
    `anvil-${os}-${arch}`,
    "bin",
    process.platform === "win32" ? "anvil.exe" : "anvil",
  );
  if (!os || !arch || !fs.existsSync(binary)) {
    throw new Error(`anvil binary not found at ${binary}; run npm install (package @foundry-rs/anvil)`);
  }
  return binary;
}

async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : null;
  } catch {
    return null;
  }
}

/** True when the record belongs to this chain: same chain id and code at every contract address. */
async function isDeployedOn(deployment: Deployment, rpcUrl: string): Promise<boolean> {
  if (deployment.chainId !== LOCAL_CHAIN_ID) return false;
  const client = createPublicClient({ chain: localChain(rpcUrl), transport: http(rpcUrl) });
  const codes = await Promise.all(
    Object.values(deployment.contracts).map((address) => client.getCode({ address })),
  );
  return codes.every((code) => code !== undefined && code !== "0x");
}

export async function startLocalChain(options: StartLocalChainOptions = {}): Promise<LocalChain> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 8545;
  const stateFile = path.resolve(options.stateFile ?? DEFAULT_STATE_FILE);
  const deploymentFile = path.resolve(options.deploymentFile ?? DEFAULT_DEPLOYMENT_FILE);
  const log = options.log ?? (() => {});
  const rpcUrl = `http://${host}:${port}`;

  // Something already answering on the port would be mistaken for our node.
  if ((await rpcChainId(rpcUrl)) !== null) throw new Error(`${rpcUrl} is already in use by another node`);

  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  fs.mkdirSync(path.dirname(deploymentFile), { recursive: true });

  const started = performance.now();
  const child = spawn(
    anvilBinary(),
    [
      "--host", host,
      "--port", String(port),
      "--chain-id", String(LOCAL_CHAIN_ID),
      "--state", stateFile,
      "--state-interval", String(options.stateIntervalSeconds ?? 10),
      "--silent",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = once(child, "exit");
  // If the parent goes away without calling stop(), anvil still gets SIGTERM and saves its state.
  const killOnExit = () => child.kill("SIGTERM");
  process.once("exit", killOnExit);

  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const deadline = Date.now() + 30_000;
    while ((await rpcChainId(rpcUrl)) !== LOCAL_CHAIN_ID) {
      if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    log(`anvil up on ${rpcUrl} in ${Math.round(performance.now() - started)} ms`);

    let deployment = readDeployment(deploymentFile);
    if (deployment && (await isDeployedOn(deployment, rpcUrl))) {
      if (deployment.rpcUrl !== rpcUrl) {
        deployment = { ...deployment, rpcUrl };
        writeDeployment(deploymentFile, deployment);
      }
      log(`contracts found from ${deploymentFile}`);
    } else {
      const deployStarted = performance.now();
      deployment = await deployAndSeed({ rpcUrl, boxBaseUri: options.boxBaseUri });
      writeDeployment(deploymentFile, deployment);
      log(`contracts deployed and seeded in ${Math.round(performance.now() - deployStarted)} ms`);
    }
    return { rpcUrl, deployment, stop };
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
    chain.stop().then(() => process.exit(0), (error: unknown) => {
      console.error(error);
      process.exit(1);
    });
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
