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
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  BaseError,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeDeployData,
  ExecutionRevertedError,
  getAddress,
  InsufficientFundsError,
  NonceTooLowError,
  RpcRequestError,
  isAddress,
  isHex,
  keccak256,
  parseAbi,
  publicActions,
  TransactionReceiptNotFoundError,
  type AbiParameter,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainTransport, parseRpcUrls } from "~core/chain-transport";
import { selfContainedSources, standardJsonInput } from "./compile";
import { committedSourcesHash, DEPLOYMENT_WIRING } from "./deploy";
import { writeDeployment, type Deployment } from "./deployment";
import { metadataBaseUris } from "./metadata-base";
import { SOURCE_HASH_FILE, readSources, sourcesHash, type SourceHashRecord } from "./source-hash";
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

/** What a deployment was started with: a rerun with other terms would mix two deployments. */
interface JournalPlan {
  chainId: number;
  deployer: Address;
  owner: Address;
  tokens: Partial<GameTokens>;
  claimSigner: Address;
  storeMinter: Address;
  receipt: Address;
  metadataUrl: string;
  sourcesHash: string;
}

interface JournalStep {
  step: string;
  nonce: number;
  hash: Hash;
  /** The signed transaction, broadcast again as it is when it never reached a block. */
  raw: Hex;
}

interface Journal {
  plan: JournalPlan;
  /** When the sale and the stake pools open (unix seconds), fixed at the first run. */
  openedAt: string;
  steps: JournalStep[];
}

export function journalFileOf(outFile: string): string {
  return `${outFile}.journal.json`;
}

export function verifyDirOf(outFile: string): string {
  return path.join(path.dirname(outFile), "verify");
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

/**
 * How long the deployer's nonce may be used without our transaction's receipt before it counts as taken by another
 * transaction: a node's state runs ahead of its receipts for a moment, and nodes behind one provider lag each other.
 */
const RECEIPT_LAG_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** JSON-RPC codes of a node that is busy rather than refusing: a limit (429, -32005, QuickNode's -32007) or an internal error. */
const BUSY_CODES = new Set([429, -32005, -32007, -32603]);

/** Errors a retry cannot fix: the node answered, and refused (a revert, short funds, a used nonce…). */
function isDefinitive(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const answer = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  return Boolean(
    error.walk((e) => e instanceof ExecutionRevertedError || e instanceof InsufficientFundsError || e instanceof NonceTooLowError) ||
      (answer && !BUSY_CODES.has(answer.code)),
  );
}

/** A catch handler answering null for a `kind` error (the node does not know the transaction) and rethrowing others. */
function unless(kind: new (...args: never[]) => Error) {
  return (error: unknown): null => {
    if (error instanceof kind) return null;
    throw error;
  };
}

function writeJson(file: string, value: unknown): void {
  // Written aside and renamed, so a run killed while writing leaves the previous file whole.
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

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
  /** An RPC request, tried again with backoff past the transport's own retries (a provider down for a minute). */
  const rpc = async <T>(read: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (isDefinitive(error) || attempt >= 5) throw error;
        log(`RPC request failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); retrying`);
        await sleep(retryDelayMs * 2 ** (attempt + 3));
      }
    }
  };

  const chainId = await rpc(() => createPublicClient({ transport }).getChainId());
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: rpcUrls } },
  });
  const client = createWalletClient({ account, chain, transport, pollingInterval: pollingIntervalMs }).extend(publicActions);

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
  const saveJournal = () => writeJson(journalFile, journal);
  saveJournal();

  /** Sends the signed transaction; a node that already has it, or has used its nonce, leaves the verdict to settle(). */
  const broadcast = async ({ raw }: JournalStep) => {
    try {
      await rpc(() => client.sendRawTransaction({ serializedTransaction: raw }));
    } catch (error) {
      // Our own transaction sent before (an answer lost on the way, an earlier run), or another one with its nonce:
      // settle() tells them apart by the receipt.
      const usedNonce = error instanceof BaseError && error.walk((e) => e instanceof NonceTooLowError);
      if (!usedNonce && !/already known|known transaction/i.test(String(error))) throw error;
    }
  };

  /**
   * The step's receipt once mined; broadcast again every minute while it is not, in case a node dropped it, and at
   * once for a step a previous run journaled (it may have stopped before broadcasting).
   */
  const settle = async (entry: JournalStep, { journaledBefore }: { journaledBefore: boolean }): Promise<TransactionReceipt> => {
    let rebroadcastAt = journaledBefore ? Date.now() : Date.now() + 60_000;
    let nonceUsedSince: number | undefined;
    for (;;) {
      const receipt = await rpc(() => client.getTransactionReceipt({ hash: entry.hash }).catch(unless(TransactionReceiptNotFoundError)));
      if (receipt) {
        if (receipt.status !== "success") throw new Error(`step "${entry.step}" (${entry.hash}) reverted`);
        return receipt;
      }
      const mined = await rpc(() => client.getTransactionCount({ address: deployer, blockTag: "latest" }));
      if (mined <= entry.nonce) {
        nonceUsedSince = undefined;
        if (Date.now() >= rebroadcastAt) {
          await broadcast(entry);
          rebroadcastAt = Date.now() + 60_000;
        }
      } else if (Date.now() - (nonceUsedSince ??= Date.now()) > RECEIPT_LAG_MS) {
        throw new Error(
          `nonce ${entry.nonce} of ${deployer} was taken by another transaction than step "${entry.step}" (${entry.hash}): ` +
            "is the deployer key used elsewhere?",
        );
      }
      await sleep(pollingIntervalMs);
    }
  };

  let nextIndex = 0;
  let signed = 0;
  const deployments = new Map<Address, { contract: ContractName; args: readonly unknown[] }>();

  /** The step's journaled transaction, or a new one signed, journaled and broadcast; resolves with its receipt. */
  const run = async (step: string, request: { to?: Address; data: Hex; value?: bigint }): Promise<TransactionReceipt> => {
    const index = nextIndex++;
    const journaled = journal.steps[index];
    if (journaled) {
      if (journaled.step !== step) {
        throw new Error(
          `${journalFile} has step ${index} "${journaled.step}", this run's is "${step}": the journal is not this deployment's`,
        );
      }
      return settle(journaled, { journaledBefore: true });
    }
    const pending = await rpc(() => client.getTransactionCount({ address: deployer, blockTag: "pending" }));
    const previous = journal.steps.at(-1);
    const nonce = Math.max(pending, previous ? previous.nonce + 1 : 0);
    const prepared = await rpc(() => client.prepareTransactionRequest({ ...request, nonce }));
    const raw = await account.signTransaction(prepared as TransactionSerializable);
    const entry: JournalStep = { step, nonce, hash: keccak256(raw), raw };
    journal.steps.push(entry);
    saveJournal();
    signed++;
    options.beforeBroadcast?.(index, step);
    await broadcast(entry);
    log(`step ${index} sent (nonce ${nonce}): ${step}`);
    return settle(entry, { journaledBefore: false });
  };

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
  log(`deployed on chain ${chainId}: ${outFile} written, ${signed} transactions signed by this run`);
  return { deployment, journalFile, verifyDir, signed };
}

/** Reads on chain that the owner holds every admin role and the deployer none; throws listing each one that is wrong. */
async function checkHandover(
  reader: Pick<PublicClient, "readContract">,
  rpc: <T>(read: () => Promise<T>) => Promise<T>,
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

/** BscScan wants the compiler as "v0.8.x+commit.abcdef12". */
function explorerCompilerVersion(): string {
  const { solc } = JSON.parse(fs.readFileSync(SOURCE_HASH_FILE, "utf8")) as SourceHashRecord;
  return `v${solc.replace(/\.Emscripten.*$/, "")}`;
}

/** verify/<Contract>.json per deployed contract (GameToken-<SYMBOL>.json for the token copies). */
function writeVerificationInputs(
  verifyDir: string,
  chainId: number,
  contracts: Record<string, Address>,
  deployments: Map<Address, { contract: ContractName; args: readonly unknown[] }>,
): void {
  fs.mkdirSync(verifyDir, { recursive: true });
  const input = standardJsonInput(selfContainedSources());
  const compilerVersion = explorerCompilerVersion();
  for (const [key, address] of Object.entries(contracts)) {
    const deployed = deployments.get(address);
    if (!deployed) continue;
    const { contract, args } = deployed;
    const constructor = CONTRACT_ABIS[contract].find((item) => item.type === "constructor");
    const inputs = (constructor?.inputs ?? []) as readonly AbiParameter[];
    const file = contract === "GameToken" ? `GameToken-${key.toUpperCase()}` : contract;
    writeJson(path.join(verifyDir, `${file}.json`), {
      contractName: `${contract}.sol:${contract}`,
      address,
      chainId,
      compilerVersion,
      // ABI-encoded, without 0x, as BscScan's form and API take them.
      constructorArguments: encodeAbiParameters(inputs, args).slice(2),
      input,
    });
  }
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
