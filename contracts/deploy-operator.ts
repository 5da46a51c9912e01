/**
 * The operator's deployment (issue 41, decision 0026): every contract the app uses, wired as the demo chain is, no
 * demo seed, every admin role handed to the owner (a multisig), and the deployer left holding nothing.
 *
 *   DEPLOYER_KEY=0x… npm run deploy:contracts -- --rpc <url> --owner <address> --out <file> --metadata-url <site>
 *     [--fire <address>] [--quark <address>] [--usdt <address>]   BSC's tokens; GameToken copies when not given
 *     [--claim-signer <address>] [--store-minter <address>] [--receipt <address>]   default: the owner
 *
 * The key comes from DEPLOYER_KEY or from the file DEPLOYER_KEY_FILE names, never from the command line. Each
 * transaction is signed and written to a journal next to --out (`<out>.journal.json`) before it is broadcast, so a
 * run stopped anywhere resumes from the journal and the chain: a journaled transaction is waited for (or broadcast
 * again as the same bytes), never signed anew, so no contract is deployed twice. Writes --out (the Deployment record)
 * and `verify/<Contract>.json` beside it: the standard-JSON input, compiler version and constructor arguments for a
 * block explorer's source verification.
 *
 * The journal and the deployer's client are deploy-journal.ts; the verification inputs, deploy-verify.ts. This file
 * plans the deployment, runs the wiring through the journal, hands the roles over and checks that it did.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  createPublicClient,
  encodeDeployData,
  getAddress,
  isAddress,
  isHex,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainTransport, parseRpcUrls } from "~core/chain-transport";
import { committedSourcesHash, DEPLOYMENT_WIRING } from "./deploy";
import {
  deployerClient,
  journaledSteps,
  journalFileOf,
  retryingRpc,
  writeJson,
  type Journal,
  type JournalPlan,
  type Rpc,
} from "./deploy-journal";
import { verifyDirOf, writeVerificationInputs } from "./deploy-verify";
import { writeDeployment, type Deployment } from "./deployment";
import { metadataBaseUris } from "./metadata-base";
import { readSources, sourcesHash } from "./source-hash";
import {
  CONTRACT_ABIS,
  DEFAULT_ADMIN_ROLE,
  LOCKER_ROLE,
  MINTER_ROLE,
  MUTATOR_ROLE,
  bytecodeOf,
  configureSaleCatalogue,
  configureSaleVariants,
  contractCall,
  createStakePools,
  deployGameContracts,
  deployGameToken,
  deployItems,
  deployRewardManager,
  deployTrading,
  wireGameContracts,
  type ContractCall,
  type ContractName,
  type DeployedContract,
  type GameTerms,
  type GameTokens,
  type Transactor,
} from "./wiring";

export interface OperatorDeployOptions {
  /** One URL or a comma-separated list, tried in turn as CHAIN_RPC_URL's are (core/chain-transport.ts). */
  rpcUrl: string;
  deployerKey: Hex;
  /** Gets every admin role: owner() of the Ownable contracts, DEFAULT_ADMIN_ROLE of the AccessControl ones. */
  owner: Address;
  /** The Deployment record; the journal and verify/ go beside it. */
  outFile: string;
  /** The site serving the metadata: cards at <site>/nft/card/, items at <site>/nft/items/, boxes at <site>/nft/box/. */
  metadataUrl: string;
  /** Existing tokens (BSC's); each one not given is deployed as a GameToken owned by the owner. */
  tokens?: Partial<GameTokens>;
  claimSigner?: Address;
  storeMinter?: Address;
  /** Receives box payments, ship repairs and slot openings. */
  receipt?: Address;
  /** How often a transaction's receipt is polled; BSC makes a block every few seconds. */
  pollingIntervalMs?: number;
  /** First delay between retries of a failed RPC request (over every URL), doubled on each retry. */
  retryDelayMs?: number;
  log?: (message: string) => void;
  /** Called for each new transaction once it is journaled, before it is broadcast (tests stop a run here). */
  beforeBroadcast?: (index: number, step: string) => void;
}

export interface OperatorDeployResult {
  deployment: Deployment;
  journalFile: string;
  verifyDir: string;
  /** Transactions signed by this run (0 when a finished deployment is run again). */
  signed: number;
}

const ownableAbi = parseAbi(["function owner() view returns (address)", "function transferOwnership(address newOwner)"]);
const accessControlAbi = parseAbi([
  "function hasRole(bytes32 role, address account) view returns (bool)",
  "function grantRole(bytes32 role, address account)",
  "function renounceRole(bytes32 role, address callerConfirmation)",
]);
const ROLES: readonly { name: string; role: Hex }[] = [
  { name: "DEFAULT_ADMIN_ROLE", role: DEFAULT_ADMIN_ROLE },
  { name: "MINTER_ROLE", role: MINTER_ROLE },
  { name: "MUTATOR_ROLE", role: MUTATOR_ROLE },
  { name: "LOCKER_ROLE", role: LOCKER_ROLE },
];

export async function deployForOperator(options: OperatorDeployOptions): Promise<OperatorDeployResult> {
  const log = options.log ?? (() => {});
  const pollingIntervalMs = options.pollingIntervalMs ?? 1_000;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const account = privateKeyToAccount(options.deployerKey);
  const deployer = account.address;
  const owner = getAddress(options.owner);
  if (owner === deployer) throw new Error("--owner is the deployer's own address: the deployer must end up holding nothing");
  if (sourcesHash(readSources()) !== committedSourcesHash()) {
    throw new Error("contracts/src changed since contracts/generated was compiled: run `npm run compile:contracts` first");
  }
  if (!/^https?:$/.test(new URL(options.metadataUrl).protocol))
    throw new Error(`--metadata-url ${options.metadataUrl} is not a web address`);
  const site = options.metadataUrl.replace(/\/+$/, "");

  const rpcUrls = parseRpcUrls(options.rpcUrl);
  const transport = chainTransport(rpcUrls, { timeoutMs: 30_000, retryCount: 6, retryDelayMs });
  const rpc = retryingRpc(retryDelayMs, log);

  const chainId = await rpc(() => createPublicClient({ transport }).getChainId());
  const client = deployerClient(account, chainId, rpcUrls, transport, pollingIntervalMs);

  const given: Partial<GameTokens> = {};
  for (const token of ["fire", "quark", "usdt"] as const) {
    const address = options.tokens?.[token];
    if (address) given[token] = getAddress(address);
  }
  for (const [token, address] of Object.entries(given)) {
    const code = await rpc(() => client.getCode({ address }));
    if (!code || code === "0x") throw new Error(`--${token} ${address}: no contract at that address on chain ${chainId}`);
  }
  const plan: JournalPlan = {
    chainId,
    deployer,
    owner,
    tokens: given,
    claimSigner: getAddress(options.claimSigner ?? owner),
    storeMinter: getAddress(options.storeMinter ?? owner),
    receipt: getAddress(options.receipt ?? owner),
    metadataUrl: site,
    sourcesHash: committedSourcesHash(),
  };

  const outFile = path.resolve(options.outFile);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const journalFile = journalFileOf(outFile);
  const journal: Journal = fs.existsSync(journalFile)
    ? (JSON.parse(fs.readFileSync(journalFile, "utf8")) as Journal)
    : { plan, openedAt: String((await rpc(() => client.getBlock())).timestamp), steps: [] };
  if (JSON.stringify(journal.plan) !== JSON.stringify(plan)) {
    throw new Error(
      `${journalFile} belongs to a deployment with other terms (${JSON.stringify(journal.plan)}); ` +
        "rerun with those, or give another --out to start a new deployment",
    );
  }
  writeJson(journalFile, journal);

  const deployments = new Map<Address, { contract: ContractName; args: readonly unknown[] }>();
  const { run, signed: signedCount } = journaledSteps({
    client,
    account,
    journal,
    journalFile,
    rpc,
    log,
    pollingIntervalMs,
    beforeBroadcast: options.beforeBroadcast,
  });

  const tx: Transactor = {
    async deploy(contract, args): Promise<DeployedContract> {
      const abi = CONTRACT_ABIS[contract];
      const data = encodeDeployData({ abi, bytecode: bytecodeOf(contract), args } as Parameters<typeof encodeDeployData>[0]);
      const constructorArgs = args as readonly unknown[];
      const receipt = await run(`new ${contract}(${constructorArgs.map(String).join(", ")})`, { data });
      if (!receipt.contractAddress) throw new Error(`${contract} deployment returned no address`);
      const address = getAddress(receipt.contractAddress);
      deployments.set(address, { contract, args: constructorArgs });
      return { address, blockNumber: receipt.blockNumber };
    },
    async send({ to, data, value, step }: ContractCall) {
      await run(step, { to, data, value });
    },
  };

  // --- the contracts, wired as deployAndSeed wires them ---
  const terms: GameTerms = {
    admin: deployer,
    receipt: plan.receipt,
    claimSigner: plan.claimSigner,
    storeMinter: plan.storeMinter,
    openedAt: BigInt(journal.openedAt),
    ...metadataBaseUris(site),
  };
  const deployedBlocks: bigint[] = [];
  const tokenAddress = async (token: keyof GameTokens) => {
    const existing = given[token];
    if (existing) return existing;
    // A copy nobody but the owner can mint: no wiring needs the deployer to own it.
    const copy = await deployGameToken(tx, token, owner);
    deployedBlocks.push(copy.blockNumber);
    return copy.address;
  };
  const tokens: GameTokens = { fire: await tokenAddress("fire"), quark: await tokenAddress("quark"), usdt: await tokenAddress("usdt") };
  const { firstBlock, ...game } = await deployGameContracts(tx, tokens, terms);
  deployedBlocks.push(firstBlock);
  await wireGameContracts(tx, tokens, game, plan.storeMinter);
  await configureSaleCatalogue(tx, tokens, game.boxSale);
  await createStakePools(tx, game.staking, tokens.fire, terms.openedAt);
  const items = await deployItems(tx, terms, game.assetManager);
  const trading = await deployTrading(tx, tokens, deployer, game.assetManager);
  const rewardManager = await deployRewardManager(tx, terms, trading);
  await configureSaleVariants(tx, tokens, game.boxSale, game.card);

  // --- every admin role to the owner ---
  const ownable = [game.boxSale, game.assetManager, game.staking, trading, rewardManager];
  const accessControlled = [game.box, game.card, items, game.starship];
  for (const address of ownable) await tx.send(contractCall(address, ownableAbi, "transferOwnership", [owner]));
  for (const address of accessControlled) {
    await tx.send(contractCall(address, accessControlAbi, "grantRole", [DEFAULT_ADMIN_ROLE, owner]));
    await tx.send(contractCall(address, accessControlAbi, "renounceRole", [DEFAULT_ADMIN_ROLE, deployer]));
  }

  const contracts = { ...tokens, ...game, items, trading, rewardManager };
  const ownedTokens = (Object.keys(tokens) as (keyof GameTokens)[]).filter((token) => !given[token]).map((token) => tokens[token]);
  await checkHandover(client, rpc, { owner, deployer, ownable: [...ownable, ...ownedTokens], accessControlled });

  const deployment: Deployment = {
    chainId,
    // For the record only: the app reads CHAIN_RPC_URL.
    rpcUrl: rpcUrls[0]!,
    sourcesHash: committedSourcesHash(),
    wiring: DEPLOYMENT_WIRING,
    deployedAtBlock: Number(deployedBlocks.reduce((a, b) => (a < b ? a : b))),
    contracts,
    accounts: { deployer: owner, claimSigner: plan.claimSigner, receipt: plan.receipt, storeMinter: plan.storeMinter },
    seed: { custodyNfts: [], demoFleet: [], chainStacks: [] },
  };
  writeDeployment(outFile, deployment);
  const verifyDir = verifyDirOf(outFile);
  writeVerificationInputs(verifyDir, chainId, contracts, deployments);
  const signed = signedCount();
  log(`deployed on chain ${chainId}: ${outFile} written, ${signed} transactions signed by this run`);
  return { deployment, journalFile, verifyDir, signed };
}

/** Reads on chain that the owner holds every admin role and the deployer none; throws listing each one that is wrong. */
async function checkHandover(
  reader: Pick<PublicClient, "readContract">,
  rpc: Rpc,
  roles: { owner: Address; deployer: Address; ownable: Address[]; accessControlled: Address[] },
): Promise<void> {
  const wrong: string[] = [];
  for (const address of roles.ownable) {
    const current = await rpc(() => reader.readContract({ address, abi: ownableAbi, functionName: "owner" }));
    if (current !== roles.owner) wrong.push(`${address}: owner() is ${current}, not ${roles.owner}`);
  }
  for (const address of roles.accessControlled) {
    const hasRole = (role: Hex, account: Address) =>
      rpc(() => reader.readContract({ address, abi: accessControlAbi, functionName: "hasRole", args: [role, account] }));
    if (!(await hasRole(DEFAULT_ADMIN_ROLE, roles.owner))) wrong.push(`${address}: the owner lacks DEFAULT_ADMIN_ROLE`);
    for (const { name, role } of ROLES) {
      if (await hasRole(role, roles.deployer)) wrong.push(`${address}: the deployer still holds ${name}`);
    }
  }
  if (wrong.length > 0) throw new Error(`the roles were not handed over:\n${wrong.join("\n")}`);
}

function addressOption(name: string, value: string | undefined): Address | undefined {
  if (value === undefined) return undefined;
  if (!isAddress(value, { strict: false })) throw new Error(`--${name} ${value} is not an address`);
  return getAddress(value);
}

/** DEPLOYER_KEY, or the contents of the file DEPLOYER_KEY_FILE names: never a command-line argument, which others can read. */
export function deployerKeyFromEnvironment(env: Record<string, string | undefined> = process.env): Hex {
  const text = env.DEPLOYER_KEY ?? (env.DEPLOYER_KEY_FILE ? fs.readFileSync(env.DEPLOYER_KEY_FILE, "utf8") : undefined);
  if (!text) throw new Error("set DEPLOYER_KEY, or DEPLOYER_KEY_FILE naming a file that holds it");
  const key = text.trim().replace(/^(0x)?/, "0x");
  if (!isHex(key) || key.length !== 66) throw new Error("the deployer key is not 32 bytes of hex");
  return key;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rpc: { type: "string" },
      owner: { type: "string" },
      out: { type: "string" },
      "metadata-url": { type: "string" },
      fire: { type: "string" },
      quark: { type: "string" },
      usdt: { type: "string" },
      "claim-signer": { type: "string" },
      "store-minter": { type: "string" },
      receipt: { type: "string" },
    },
  });
  const missing = (["rpc", "owner", "out", "metadata-url"] as const).filter((name) => !values[name]);
  if (missing.length > 0) throw new Error(`missing ${missing.map((name) => `--${name}`).join(", ")}`);
  const tokens: Partial<GameTokens> = {};
  for (const token of ["fire", "quark", "usdt"] as const) {
    const address = addressOption(token, values[token]);
    if (address) tokens[token] = address;
  }
  await deployForOperator({
    rpcUrl: values.rpc!,
    deployerKey: deployerKeyFromEnvironment(),
    owner: addressOption("owner", values.owner)!,
    outFile: values.out!,
    metadataUrl: values["metadata-url"]!,
    tokens,
    claimSigner: addressOption("claim-signer", values["claim-signer"]),
    storeMinter: addressOption("store-minter", values["store-minter"]),
    receipt: addressOption("receipt", values.receipt),
    log: (message) => console.log(message),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
