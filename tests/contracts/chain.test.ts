import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, gameTokenAbi } from "../../contracts/abi";
import { startLocalChain } from "../../contracts/chain";
import { sourcesHash } from "../../contracts/compile";
import { readDeployment } from "../../contracts/deployment";
import { DEMO_TOKEN_GRANT } from "../../contracts/deploy";
import { DEMO_BROWSER_ACCOUNT } from "../../backend/demo";
import { LOCAL_CHAIN_ID } from "../../app/domain/constants";
import { freshPlayer, startTestChain, type TestChain } from "./harness";

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

describe("build outputs", () => {
  it("were regenerated from the current contracts/src (run `npx tsx contracts/compile.ts` after editing a .sol)", () => {
    const hash = sourcesHash();
    for (const file of fs.readdirSync(new URL("../../contracts/artifacts/", import.meta.url))) {
      const artifact = JSON.parse(fs.readFileSync(new URL(`../../contracts/artifacts/${file}`, import.meta.url), "utf8")) as {
        sourcesHash: string;
      };
      expect(artifact.sourcesHash, file).toBe(hash);
    }
  });
});

describe("local chain", () => {
  it("writes the deployment record and refuses a port another node already answers on", async () => {
    const t = await start();
    expect(readDeployment(t.deploymentFile)).toEqual(t.deployment);
    expect(t.deployment).toMatchObject({ chainId: LOCAL_CHAIN_ID, rpcUrl: t.rpcUrl, deployedAtBlock: 1 });
    expect(Object.keys(t.deployment.contracts).sort()).toEqual(
      ["assetManager", "box", "boxSale", "card", "fire", "opener", "quark", "staking", "usdt"].sort(),
    );
    expect(await fireOf(t, DEMO_BROWSER_ACCOUNT.wallet)).toBe(DEMO_TOKEN_GRANT);

    const port = Number(new URL(t.rpcUrl).port);
    await expect(startLocalChain({ port, stateFile: `${t.dir}/other.json`, deploymentFile: `${t.dir}/other-deployment.json` })).rejects.toThrow(
      /already in use/,
    );
    await stop(t);
    fs.rmSync(t.dir, { recursive: true, force: true });
  });

  it("keeps balances, boxes and the deployment across stop and restart", async () => {
    const first = await start();
    const player = freshPlayer(3);
    const demo = first.walletFor(privateKeyToAccount(DEMO_BROWSER_ACCOUNT.privateKey));
    await first.mined(demo.writeContract({ address: first.deployment.contracts.fire, abi: gameTokenAbi, functionName: "transfer", args: [player.address, 123n] }));
    const [boxIds] = await first.publicClient.readContract({ address: first.deployment.contracts.box, abi: blindBoxAbi, functionName: "queryUserBoxes", args: [DEMO_BROWSER_ACCOUNT.wallet] });
    await first.mined(demo.writeContract({ address: first.deployment.contracts.box, abi: blindBoxAbi, functionName: "transferFrom", args: [DEMO_BROWSER_ACCOUNT.wallet, player.address, boxIds[0]!] }));
    const blockBefore = await first.publicClient.getBlockNumber();
    await stop(first);
    expect(fs.existsSync(first.stateFile)).toBe(true);

    const second = await start(first.dir);
    expect({ ...second.deployment, rpcUrl: "" }).toEqual({ ...first.deployment, rpcUrl: "" });
    // anvil sometimes restores its head one block past the last mined one; it must never come back behind it.
    expect(await second.publicClient.getBlockNumber()).toBeGreaterThanOrEqual(blockBefore);
    expect(await fireOf(second, player.address)).toBe(123n);
    expect(await fireOf(second, DEMO_BROWSER_ACCOUNT.wallet)).toBe(DEMO_TOKEN_GRANT - 123n);
    const owner = await second.publicClient.readContract({ address: second.deployment.contracts.box, abi: blindBoxAbi, functionName: "ownerOf", args: [boxIds[0]!] });
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
