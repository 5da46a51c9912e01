/**
 * `npm run deploy:contracts` (contracts/deploy-operator.ts) on an empty anvil with BSC testnet's chain id: wired as the
 * demo chain, every admin role with the owner, nothing twice after a rerun, a stopped run or a flaky provider.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getContractAddress,
  http,
  parseAbi,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareAnvil, type AnvilNode } from "../../contracts/chain";
import {
  deployerKeyFromEnvironment,
  deployForOperator,
  type OperatorDeployOptions,
  type OperatorDeployResult,
} from "../../contracts/deploy-operator";
import { journalFileOf } from "../../contracts/deploy-journal";
import { verifyDirOf } from "../../contracts/deploy-verify";
import type { Deployment } from "../../contracts/deployment";
import { blindBoxAbi, blindBoxSaleAbi, sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import { DEFAULT_ADMIN_ROLE, MINTER_ROLE } from "../../contracts/wiring";
import { BOX_CATALOGUE } from "~core/boxes";
import { freePort } from "../support/ports";
import { startRpcProxy } from "../support/rpc-proxy";

const BSC_TESTNET = 97;
const SITE = "https://market.sparkera.example";
const ownableAbi = parseAbi(["function owner() view returns (address)"]);
const accessControlAbi = parseAbi(["function hasRole(bytes32 role, address account) view returns (bool)"]);
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

let anvil: AnvilNode;
let publicClient: ReturnType<typeof createPublicClient>;
let testClient: ReturnType<typeof createTestClient>;
const dirs: string[] = [];
/** A clean run, the others' yardstick. */
let reference: { run: OperatorDeployResult; owner: Address; deployer: Address; options: OperatorDeployOptions };

/** A funded deployer nobody else uses, a fresh owner and an --out in a directory of its own. */
async function freshOptions(overrides: Partial<OperatorDeployOptions> = {}): Promise<OperatorDeployOptions> {
  const deployerKey = generatePrivateKey();
  await testClient.setBalance({ address: privateKeyToAccount(deployerKey).address, value: 100n * 10n ** 18n });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-operator-"));
  dirs.push(dir);
  return {
    rpcUrl: anvil.rpcUrl,
    deployerKey,
    owner: privateKeyToAccount(generatePrivateKey()).address,
    outFile: path.join(dir, "deployment.json"),
    metadataUrl: SITE,
    pollingIntervalMs: 20,
    retryDelayMs: 5,
    ...overrides,
  };
}

const nonceOf = (address: Address) => publicClient.getTransactionCount({ address });

/** Addresses the journal's deploy steps created: the deployer's address at each such nonce. */
function journaledContracts(outFile: string, deployer: Address): Address[] {
  const journal = JSON.parse(fs.readFileSync(journalFileOf(outFile), "utf8")) as { steps: { step: string; nonce: number }[] };
  return journal.steps
    .filter(({ step }) => step.startsWith("new "))
    .map(({ nonce }) => getContractAddress({ from: deployer, nonce: BigInt(nonce) }));
}

beforeAll(async () => {
  anvil = await startBareAnvil({ port: await freePort(), chainId: BSC_TESTNET });
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl) });
  testClient = createTestClient({ mode: "anvil", transport: http(anvil.rpcUrl) });
  const options = await freshOptions();
  reference = {
    run: await deployForOperator(options),
    owner: options.owner,
    deployer: privateKeyToAccount(options.deployerKey).address,
    options,
  };
});

afterAll(async () => {
  await anvil?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("deploy:contracts", () => {
  it("writes the record, wires the contracts like the demo chain and leaves every admin role with the owner", async () => {
    const { run, owner, deployer } = reference;
    const { contracts, accounts, seed } = run.deployment;
    expect(run.deployment.chainId).toBe(BSC_TESTNET);
    expect(JSON.parse(fs.readFileSync(reference.options.outFile, "utf8"))).toEqual(run.deployment);
    expect(accounts).toEqual({ deployer: owner, claimSigner: owner, receipt: owner, storeMinter: owner });
    expect(seed).toEqual({ custodyNfts: [], demoFleet: [], chainStacks: [] });
    // The first contract is the FIRE copy.
    const fireReceipt = await publicClient.getTransactionReceipt({
      hash: (JSON.parse(fs.readFileSync(run.journalFile, "utf8")) as { steps: { hash: Hex }[] }).steps[0]!.hash,
    });
    expect(fireReceipt.contractAddress?.toLowerCase()).toBe(contracts.fire.toLowerCase());
    expect(run.deployment.deployedAtBlock).toBe(Number(fireReceipt.blockNumber));
    expect(new Set(Object.values(contracts)).size).toBe(Object.keys(contracts).length);
    expect(new Set(journaledContracts(reference.options.outFile, deployer))).toEqual(new Set(Object.values(contracts)));

    for (const address of [contracts.fire, contracts.quark, contracts.usdt, contracts.boxSale, contracts.assetManager]) {
      expect(await publicClient.readContract({ address, abi: ownableAbi, functionName: "owner" })).toBe(owner);
    }
    for (const address of [contracts.staking, contracts.trading, contracts.rewardManager]) {
      expect(await publicClient.readContract({ address, abi: ownableAbi, functionName: "owner" })).toBe(owner);
    }
    for (const address of [contracts.box, contracts.card, contracts.items, contracts.starship]) {
      const hasRole = (account: Address) =>
        publicClient.readContract({ address, abi: accessControlAbi, functionName: "hasRole", args: [DEFAULT_ADMIN_ROLE, account] });
      expect(await hasRole(owner)).toBe(true);
      expect(await hasRole(deployer)).toBe(false);
    }

    const standard = BOX_CATALOGUE.find((entry) => entry.typeBox === 4)!;
    const read = publicClient.readContract;
    expect(await read({ address: contracts.boxSale, abi: blindBoxSaleAbi, functionName: "priceInToken", args: [4n, contracts.usdt] })).toBe(
      standard.seedPrices.USDT,
    );
    expect(await read({ address: contracts.boxSale, abi: blindBoxSaleAbi, functionName: "receiptAddress" })).toBe(owner);
    expect(await read({ address: contracts.boxSale, abi: blindBoxSaleAbi, functionName: "pseCollection" })).toBe(contracts.card);
    for (const minter of [contracts.opener, contracts.assetManager]) {
      expect(await read({ address: contracts.card, abi: sparkCardAbi, functionName: "hasRole", args: [MINTER_ROLE, minter] })).toBe(true);
    }
    expect(await read({ address: contracts.box, abi: blindBoxAbi, functionName: "hasRole", args: [MINTER_ROLE, owner] })).toBe(true);
    expect(await read({ address: contracts.box, abi: blindBoxAbi, functionName: "queryOpenerAddr" })).toBe(contracts.opener);
    expect(await read({ address: contracts.trading, abi: tradingAbi, functionName: "feeRecipient" })).toBe(contracts.rewardManager);
    expect(await read({ address: contracts.trading, abi: tradingAbi, functionName: "currencyAllowed", args: [zeroAddress] })).toBe(true);
    expect(await read({ address: contracts.items, abi: sparkItemsAbi, functionName: "uri", args: [1n] })).toBe(
      `${SITE}/nft/items/{id}.json`,
    );

    // Verification material: the constructor arguments are the deployment's calldata after the bytecode.
    const verifyFiles = fs.readdirSync(run.verifyDir).sort();
    expect(verifyFiles).toEqual(
      [
        "AssetManager",
        "BlindBox",
        "BlindBoxOpener",
        "BlindBoxSale",
        "FireStaking",
        "GameToken-FIRE",
        "GameToken-QUARK",
        "GameToken-USDT",
        "RewardManager",
        "SparkCard",
        "SparkItems",
        "StarshipManager",
        "Trading",
      ].map((name) => `${name}.json`),
    );
    const boxVerify = JSON.parse(fs.readFileSync(path.join(run.verifyDir, "BlindBox.json"), "utf8")) as {
      contractName: string;
      address: Address;
      compilerVersion: string;
      constructorArguments: string;
      input: { sources: Record<string, unknown> };
    };
    expect(boxVerify.contractName).toBe("BlindBox.sol:BlindBox");
    expect(boxVerify.address).toBe(contracts.box);
    expect(boxVerify.compilerVersion).toMatch(/^v0\.8\.\d+\+commit\.[0-9a-f]{8}$/);
    expect(Object.keys(boxVerify.input.sources)).toEqual(
      expect.arrayContaining(["BlindBox.sol", "@openzeppelin/contracts/access/AccessControl.sol"]),
    );
    const boxStep = (JSON.parse(fs.readFileSync(run.journalFile, "utf8")) as { steps: { step: string; hash: Hex }[] }).steps.find(
      ({ step }) => step.startsWith("new BlindBox("),
    )!;
    expect(boxStep.step).toBe(`new BlindBox(${deployer}, ${SITE}/nft/box/)`);
    const boxTx = await publicClient.getTransaction({ hash: boxStep.hash });
    expect(boxTx.input.endsWith(boxVerify.constructorArguments)).toBe(true);
  });

  it("sends nothing when run again after a complete run, and rewrites the same record", async () => {
    const { options, deployer } = reference;
    const before = fs.readFileSync(options.outFile, "utf8");
    const nonce = await nonceOf(deployer);
    const again = await deployForOperator(options);
    expect(again.signed).toBe(0);
    expect(await nonceOf(deployer)).toBe(nonce);
    expect(fs.readFileSync(options.outFile, "utf8")).toBe(before);
  });

  it("refuses a rerun with other terms than its journal's, and an owner that is the deployer itself", async () => {
    const { options, deployer } = reference;
    await expect(deployForOperator({ ...options, receipt: deployer })).rejects.toThrow("belongs to a deployment with other terms");
    await expect(deployForOperator({ ...options, owner: deployer })).rejects.toThrow("the deployer must end up holding nothing");
  });

  it("fails naming what the deployer still holds when a role came back to it", async () => {
    const { options, owner, deployer } = reference;
    const { box } = reference.run.deployment.contracts;
    // The owner (a multisig in life) gives the deployer a role again.
    await testClient.impersonateAccount({ address: owner });
    await testClient.setBalance({ address: owner, value: 10n ** 18n });
    const asOwner = createWalletClient({ account: owner, transport: http(anvil.rpcUrl) });
    const call = (functionName: "grantRole" | "revokeRole") =>
      asOwner.writeContract({ chain: null, address: box, abi: blindBoxAbi, functionName, args: [MINTER_ROLE, deployer] });
    await publicClient.waitForTransactionReceipt({ hash: await call("grantRole") });
    try {
      await expect(deployForOperator(options)).rejects.toThrow(`${box}: the deployer still holds MINTER_ROLE`);
    } finally {
      await publicClient.waitForTransactionReceipt({ hash: await call("revokeRole") });
      await testClient.stopImpersonatingAccount({ address: owner });
    }
  });

  it("resumes a run stopped before a broadcast and after a provider went down, each contract deployed once", async () => {
    const proxy = await startRpcProxy({ target: anvil.rpcUrl });
    try {
      const options = await freshOptions({ rpcUrl: proxy.url });
      const deployer = privateKeyToAccount(options.deployerKey).address;
      // Stopped with SparkCard's deployment signed and journaled, never broadcast.
      await expect(
        deployForOperator({
          ...options,
          beforeBroadcast: (_index, step) => {
            if (step.startsWith("new SparkCard(")) throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      // Then the provider goes away for good right after a wiring transaction was broadcast (the run logs "sent").
      await expect(
        deployForOperator({
          ...options,
          log: (message) => {
            if (message.startsWith("step 30 sent")) proxy.setDown(true);
          },
        }),
      ).rejects.toThrow();
      expect(proxy.stats.dropped).toBeGreaterThan(0);
      proxy.setDown(false);
      const finished = await deployForOperator(options);

      const expected = await nonceOf(reference.deployer);
      expect(await nonceOf(deployer)).toBe(expected);
      const journal = JSON.parse(fs.readFileSync(finished.journalFile, "utf8")) as { steps: { nonce: number }[] };
      expect(journal.steps.map(({ nonce }) => nonce)).toEqual([...Array(expected).keys()]);
      expect(new Set(journaledContracts(options.outFile, deployer))).toEqual(new Set(Object.values(finished.deployment.contracts)));
      expect(Object.keys(finished.deployment.contracts)).toEqual(Object.keys(reference.run.deployment.contracts));
      expect(
        await publicClient.readContract({ address: finished.deployment.contracts.trading, abi: ownableAbi, functionName: "owner" }),
      ).toBe(options.owner);
    } finally {
      await proxy.stop();
    }
  });

  it("deploys through a provider answering 429 to a third of the requests and dropping some", async () => {
    const proxy = await startRpcProxy({ target: anvil.rpcUrl, rateLimitShare: 1 / 3, latencyMs: 1, seed: 41 });
    try {
      const options = await freshOptions({ rpcUrl: proxy.url });
      const run = await deployForOperator({
        ...options,
        beforeBroadcast: (index) => {
          if (index % 10 === 0) proxy.dropNext(2);
        },
      });
      expect(proxy.stats.rateLimited).toBeGreaterThan(50);
      expect(proxy.stats.dropped).toBeGreaterThan(10);
      expect(await nonceOf(privateKeyToAccount(options.deployerKey).address)).toBe(await nonceOf(reference.deployer));
      expect(run.deployment.chainId).toBe(BSC_TESTNET);
    } finally {
      await proxy.stop();
    }
  });

  // A process of its own that polls receipts every second, as on BSC: 12-21 s alone, more on a loaded machine.
  it("runs as a CLI with the key from the environment, and deploys no token when all three are given", async () => {
    const options = await freshOptions();
    const { fire, quark, usdt } = reference.run.deployment.contracts;
    const { stdout } = await promisify(execFile)(
      "npx",
      [
        "tsx",
        "contracts/deploy-operator.ts",
        ...["--rpc", anvil.rpcUrl, "--owner", options.owner, "--out", options.outFile, "--metadata-url", SITE],
        ...["--fire", fire, "--quark", quark, "--usdt", usdt],
      ],
      { cwd: repoRoot, env: { ...process.env, DEPLOYER_KEY: options.deployerKey }, timeout: 80_000 },
    );
    expect(stdout).toContain(`deployed on chain ${BSC_TESTNET}`);
    const deployment = JSON.parse(fs.readFileSync(options.outFile, "utf8")) as Deployment;
    expect({ fire: deployment.contracts.fire, quark: deployment.contracts.quark, usdt: deployment.contracts.usdt }).toEqual({
      fire,
      quark,
      usdt,
    });
    // The reference run's transactions less its three token deployments.
    const deployer = privateKeyToAccount(options.deployerKey).address;
    expect(await nonceOf(deployer)).toBe((await nonceOf(reference.deployer)) - 3);
    expect(fs.readdirSync(verifyDirOf(options.outFile)).filter((file) => file.startsWith("GameToken"))).toEqual([]);
    // The first contract is now the box.
    const first = (JSON.parse(fs.readFileSync(journalFileOf(options.outFile), "utf8")) as { steps: { step: string; hash: Hex }[] })
      .steps[0]!;
    expect(first.step).toMatch(/^new BlindBox\(/);
    expect(deployment.deployedAtBlock).toBe(Number((await publicClient.getTransactionReceipt({ hash: first.hash })).blockNumber));
  }, 90_000);

  it("takes the key from DEPLOYER_KEY or the file DEPLOYER_KEY_FILE names, and refuses to run without one", () => {
    const key = generatePrivateKey();
    const file = path.join(dirs[0]!, "deployer.key");
    fs.writeFileSync(file, `${key.slice(2)}\n`);
    expect(deployerKeyFromEnvironment({ DEPLOYER_KEY_FILE: file })).toBe(key);
    expect(deployerKeyFromEnvironment({ DEPLOYER_KEY: key })).toBe(key);
    expect(() => deployerKeyFromEnvironment({})).toThrow("DEPLOYER_KEY");
  });
});
