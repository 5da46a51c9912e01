import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPublicClient, createTestClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { chainPidFile, startBareAnvil, startLocalChain, stopStaleChain } from "../../contracts/chain";
import { localChain, readDeployment } from "../../contracts/deployment";
import { DEMO_TOKEN_GRANT } from "../../contracts/deploy";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { freshPlayer, startTestChain, type TestChain } from "./harness";
import { freePort } from "../support/ports";

const running: TestChain[] = [];
afterAll(async () => {
  for (const chain of running) await chain.close();
});

async function start(dir?: string) {
  const chain = await startTestChain(dir ? { dir } : undefined);
  running.push(chain);
  return chain;
}

async function stop(chain: TestChain) {
  running.splice(running.indexOf(chain), 1);
  await chain.close({ keepFiles: true });
}

const fireOf = (t: TestChain, owner: `0x${string}`) =>
  t.publicClient.readContract({ address: t.deployment.contracts.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });

describe("local chain", () => {
  it("writes the deployment record and refuses a port another node already answers on", async () => {
    const t = await start();
    expect(readDeployment(t.deploymentFile)).toEqual(t.deployment);
    expect(t.deployment).toMatchObject({ chainId: LOCAL_CHAIN_ID, rpcUrl: t.rpcUrl, deployedAtBlock: 1 });
    expect(Object.keys(t.deployment.contracts).sort()).toEqual(
      [
        "assetManager",
        "box",
        "boxSale",
        "card",
        "fire",
        "items",
        "opener",
        "quark",
        "rewardManager",
        "staking",
        "starship",
        "trading",
        "usdt",
      ].sort(),
    );
    // Contracts added later are deployed after the seed, so the addresses in contracts/README.md never move.
    expect(t.deployment.contracts).toMatchObject({
      fire: "0x95bD8D42f30351685e96C62EDdc0d0613bf9a87A",
      card: "0xc039b3B46814D8388e5205D37Dd0D154D806F1f4",
      assetManager: "0x3f476891E3018329580DA8Cd03b6AA370F2Fb645",
      starship: "0xc48078a734c2e22D43F54B47F7a8fB314Fa5A601",
      items: "0xC386d0f840A782B726419ECb7B2068360486CAa7",
      trading: "0xeF47031f87aC44377e1BF6Ba705b183bAb46dcfa",
      rewardManager: "0x28dCa9C03cacb20Af1a18e9e495AB3e381Fc165A",
    });
    expect(await fireOf(t, DEMO_BROWSER_ACCOUNT.wallet)).toBe(DEMO_TOKEN_GRANT);

    const port = Number(new URL(t.rpcUrl).port);
    await expect(
      startLocalChain({ port, stateFile: `${t.dir}/other.json`, deploymentFile: `${t.dir}/other-deployment.json` }),
    ).rejects.toThrow(/already in use/);
    // Without the check above (two free-port picks that met): the new node cannot listen, and the one that answers
    // on the port is not taken for it.
    await expect(startBareAnvil({ port, chainId: LOCAL_CHAIN_ID })).rejects.toThrow(/anvil exited with code 1: .*in use/i);
    await stop(t);
    fs.rmSync(t.dir, { recursive: true, force: true });
  });

  it("keeps balances, boxes and the deployment across stop and restart", async () => {
    const first = await start();
    const player = freshPlayer(3);
    const demo = first.walletFor(privateKeyToAccount(DEMO_BROWSER_ACCOUNT.privateKey));
    await first.mined(
      demo.writeContract({
        address: first.deployment.contracts.fire,
        abi: gameTokenAbi,
        functionName: "transfer",
        args: [player.address, 123n],
      }),
    );
    const [boxIds] = await first.publicClient.readContract({
      address: first.deployment.contracts.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [DEMO_BROWSER_ACCOUNT.wallet],
    });
    await first.mined(
      demo.writeContract({
        address: first.deployment.contracts.box,
        abi: blindBoxAbi,
        functionName: "transferFrom",
        args: [DEMO_BROWSER_ACCOUNT.wallet, player.address, boxIds[0]!],
      }),
    );
    const blockBefore = await first.publicClient.getBlockNumber();
    await stop(first);
    expect(fs.existsSync(first.stateFile)).toBe(true);

    const second = await start(first.dir);
    expect({ ...second.deployment, rpcUrl: "" }).toEqual({ ...first.deployment, rpcUrl: "" });
    // anvil sometimes restores its head one block past the last mined one; it must never come back behind it.
    expect(await second.publicClient.getBlockNumber()).toBeGreaterThanOrEqual(blockBefore);
    expect(await fireOf(second, player.address)).toBe(123n);
    expect(await fireOf(second, DEMO_BROWSER_ACCOUNT.wallet)).toBe(DEMO_TOKEN_GRANT - 123n);
    const owner = await second.publicClient.readContract({
      address: second.deployment.contracts.box,
      abi: blindBoxAbi,
      functionName: "ownerOf",
      args: [boxIds[0]!],
    });
    expect(owner).toBe(player.address);
    await stop(second);

    // Without the state file the record points at empty addresses: the chain is deployed and seeded afresh.
    fs.rmSync(second.stateFile);
    const third = await start(first.dir);
    expect(await fireOf(third, player.address)).toBe(0n);
    expect(await fireOf(third, DEMO_BROWSER_ACCOUNT.wallet)).toBe(DEMO_TOKEN_GRANT);
    expect(readDeployment(third.deploymentFile)).toEqual(third.deployment);
  });
});

/** The chain CLI in its own node process, as `npm start` runs the chain in its: resolves once it has deployed. */
async function startChainCli(port: number, stateFile: string, deploymentFile: string): Promise<ChildProcess> {
  const cli = spawn(
    process.execPath,
    ["--import", "tsx", "contracts/chain.ts", "--port", String(port), "--state", stateFile, "--deployment", deploymentFile],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  cli.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes("deployedAtBlock")) {
    if (cli.exitCode !== null) throw new Error(`chain CLI exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return cli;
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
}

/** The scratch directories of the anvils that process `starter` started (contracts/chain.ts names them so). */
const scratchOf = (starter: number) => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`anvil-${starter}-`));

const anvilPidOf = (stateFile: string) => (JSON.parse(fs.readFileSync(chainPidFile(stateFile), "utf8")) as { pid: number }).pid;

/** A live process (not a zombie: an orphan's new parent may never reap it, but it holds nothing). Linux's /proc. */
function isRunning(pid: number): boolean {
  try {
    return !fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").pop()!.startsWith("Z");
  } catch {
    return false;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Sends 77 FIRE from the demo account to a fresh player on the chain at `rpcUrl`: something only its state holds. */
async function transferFire(rpcUrl: string, fire: `0x${string}`) {
  const publicClient = createPublicClient({ chain: localChain(rpcUrl), transport: http(rpcUrl), pollingInterval: 50 });
  const demo = createWalletClient({
    account: privateKeyToAccount(DEMO_BROWSER_ACCOUNT.privateKey),
    chain: localChain(rpcUrl),
    transport: http(rpcUrl),
  });
  const player = freshPlayer(4);
  const hash = await demo.writeContract({ address: fire, abi: gameTokenAbi, functionName: "transfer", args: [player.address, 77n] });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return {
    publicClient,
    balance: () => publicClient.readContract({ address: fire, abi: gameTokenAbi, functionName: "balanceOf", args: [player.address] }),
  };
}

describe("a killed server takes its anvil with it (issue 41, item 3d)", () => {
  it("kill -9 of the process that started the chain: anvil saves its state, exits within seconds and frees the port", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-chain-"));
    const [stateFile, deploymentFile] = [path.join(dir, "state.json"), path.join(dir, "deployment.json")];
    const port = await freePort();
    const cli = await startChainCli(port, stateFile, deploymentFile);
    try {
      const anvilPid = anvilPidOf(stateFile);
      const { balance } = await transferFire(`http://127.0.0.1:${port}`, readDeployment(deploymentFile)!.contracts.fire);
      await killed(cli);

      const killedAt = Date.now();
      // Its watchdog removes the past states anvil moved to disk once anvil is gone.
      while (isRunning(anvilPid) || !(await portIsFree(port)) || scratchOf(cli.pid!).length > 0) {
        expect(Date.now() - killedAt, `anvil ${anvilPid} outlived its starter`).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      // It stopped as on SIGTERM: what it held is in its state file, and the next start runs on it.
      const logged: string[] = [];
      const restarted = await startLocalChain({ port, stateFile, deploymentFile, log: (line) => logged.push(line) });
      try {
        expect(logged.some((line) => line.startsWith("stopped a stale anvil"))).toBe(false);
        expect(logged).toContain(`contracts found from ${deploymentFile}`);
        expect(await balance()).toBe(77n);
      } finally {
        await restarted.stop();
      }
    } finally {
      if (cli.exitCode === null) cli.kill("SIGKILL");
      await stopStaleChain(stateFile);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("a chain left behind by a killed server (issue 10, item 8)", () => {
  it("is stopped at the next start, which then runs on everything the old node held", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-chain-"));
    const [stateFile, deploymentFile] = [path.join(dir, "state.json"), path.join(dir, "deployment.json")];
    const port = await freePort();
    const cli = await startChainCli(port, stateFile, deploymentFile);
    try {
      // Its watchdog killed first, then the CLI, as by kill -9 of both (an OOM kill, a container's): anvil, their
      // child, lives on and holds the port.
      const orphanPid = anvilPidOf(stateFile);
      const children = fs.readFileSync(`/proc/${cli.pid}/task/${cli.pid}/children`, "utf8").trim().split(" ").map(Number);
      const watchdogs = children.filter((pid) => pid !== orphanPid);
      expect(watchdogs).toHaveLength(1);
      process.kill(watchdogs[0], "SIGKILL");
      await killed(cli);

      // The orphan still answers, and takes a transaction after its starter died.
      const deployment = readDeployment(deploymentFile)!;
      const { balance } = await transferFire(`http://127.0.0.1:${port}`, deployment.contracts.fire);

      expect(scratchOf(cli.pid!)).toHaveLength(1);
      const logged: string[] = [];
      const restarted = await startLocalChain({ port, stateFile, deploymentFile, log: (line) => logged.push(line) });
      try {
        expect(logged[0]).toBe(`stopped a stale anvil (pid ${orphanPid}) left by a previous run`);
        // No process was left to remove the orphan's scratch: the next start did, once the orphan had stopped.
        expect(scratchOf(cli.pid!)).toEqual([]);
        expect(restarted.pid).not.toBe(orphanPid);
        expect(restarted.deployment.contracts).toEqual(deployment.contracts);
        expect(await balance()).toBe(77n);
      } finally {
        await restarted.stop();
      }
      expect(fs.existsSync(chainPidFile(stateFile))).toBe(false);
    } finally {
      if (cli.exitCode === null) cli.kill("SIGKILL");
      await stopStaleChain(stateFile);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("never stops another process, another state file's anvil, or an anvil whose server still runs", async () => {
    const t = await start();
    const port = Number(new URL(t.rpcUrl).port);
    const answers = async () => (await t.publicClient.getChainId()) === LOCAL_CHAIN_ID;

    // Its own server (this process) still runs: a second start on the same state finds the port in use.
    await expect(startLocalChain({ port, stateFile: t.stateFile, deploymentFile: t.deploymentFile })).rejects.toThrow(/already in use/);
    expect(await answers()).toBe(true);

    // A record naming it as the orphan of another state file.
    const other = path.join(t.dir, "other.json");
    fs.writeFileSync(chainPidFile(other), JSON.stringify({ pid: t.pid, parent: 1 }));
    await stopStaleChain(other);
    expect(await answers()).toBe(true);

    // A record naming a process that is not anvil at all (this test's own).
    fs.writeFileSync(chainPidFile(other), JSON.stringify({ pid: process.pid, parent: 1 }));
    await stopStaleChain(other);
    expect(fs.existsSync(chainPidFile(other))).toBe(false);
    expect(fs.existsSync(chainPidFile(t.stateFile))).toBe(true);
  });
});

describe("a test run's thousands of blocks do not fill the disk", () => {
  it("keeps the past states anvil moves out of memory in its own scratch, and removes them when it stops", async () => {
    const foundryStates = path.join(os.homedir(), ".foundry", "anvil", "tmp");
    const before = fs.existsSync(foundryStates) ? fs.readdirSync(foundryStates) : [];
    const node = await startBareAnvil({ port: await freePort(), chainId: LOCAL_CHAIN_ID });
    try {
      const client = createTestClient({ mode: "anvil", chain: localChain(node.rpcUrl), transport: http(node.rpcUrl) });
      // anvil keeps the last 500 states in memory.
      await client.mine({ blocks: 600 });
      const states = path.join(node.scratch, "states");
      const stateFiles = () => (fs.existsSync(states) ? fs.readdirSync(states, { recursive: true }).length : 0);
      const movedAt = Date.now();
      while (stateFiles() === 0) {
        expect(Date.now() - movedAt, "anvil moved no state to disk").toBeLessThan(10_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await node.stop();
    }
    expect(fs.existsSync(node.scratch)).toBe(false);
    expect(fs.existsSync(foundryStates) ? fs.readdirSync(foundryStates) : []).toEqual(before);
  });
});
