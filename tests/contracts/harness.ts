/**
 * A deployed, seeded local chain per test file: anvil on a free port with a temporary state file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type Account,
  type Address,
  type Hash,
  keccak256,
  toHex,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { startLocalChain, type LocalChain } from "../../contracts/chain";
import { MANAGED_DEMO_WALLETS } from "../../contracts/deploy";
import { localChain } from "../../contracts/deployment";
import {
  assetManagerAbi,
  blindBoxAbi,
  gameTokenAbi,
  rewardManagerAbi,
  sparkCardAbi,
  sparkErrorsAbi,
  sparkItemsAbi,
  tradingAbi,
} from "../../contracts/generated/abi";
import type { SignedClaim } from "../../contracts/claim";
import type { BackendChain } from "../../backend/types";
import { DEFAULT_LOG_RANGE } from "~core/chain-transport";
import type { ClaimFields } from "~core/claim";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { DEV_DEPLOYER_KEY } from "~core/demo";
import { WEI_PER_TOKEN } from "~core/money";
import { chainErrorMessage } from "~/islands/chain-errors";
import { LISTING_STANDARD, type Listing, type TradeOffer } from "~core/trading";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../support/ports";
import { startRpcProxy } from "../support/rpc-proxy";

/**
 * The backends' view of a test chain: through its provider-like proxy, its contracts from the deployment's first
 * block, at depth 0, polled every 50 ms, logs read in the default range.
 */
export function backendChainOf(chain: Pick<TestChain, "provider" | "deployment">, overrides: Partial<BackendChain> = {}): BackendChain {
  return {
    rpcUrls: [chain.provider.url],
    logRange: DEFAULT_LOG_RANGE,
    chainId: chain.deployment.chainId,
    contracts: chain.deployment.contracts,
    deployedAtBlock: chain.deployment.deployedAtBlock,
    confirmations: 0,
    pollIntervalMs: 50,
    ...overrides,
  };
}

/** anvil's public development mnemonic; accounts #0-#9 start with DEV_ACCOUNT_BNB. */
const DEV_ACCOUNT_BNB = 10_000n * WEI_PER_TOKEN;
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Anvil accounts #3-#7 hold no tokens or boxes after seeding: fresh players for the tests. */
export function freshPlayer(index: 3 | 4 | 5 | 6 | 7): Account {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

export async function startTestChain(files?: { dir: string }) {
  const dir = files?.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "spark-chain-"));
  const stateFile = path.join(dir, "state.json");
  const deploymentFile = path.join(dir, "deployment.json");
  const port = await freePort();
  const chain: LocalChain = await startLocalChain({ port, stateFile, deploymentFile });
  // What the backends under test reach the node through: a provider's limits, now and then a 429 (issue 41).
  const provider = await startRpcProxy({ target: chain.rpcUrl, maxLogRange: 1_000, rateLimitShare: 0.02, seed: port });
  const viemChain = localChain(chain.rpcUrl);
  const transport = http(chain.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 50 });
  const testClient = createTestClient({ mode: "anvil", chain: viemChain, transport });
  // The suites send from the managed demo wallets' keys as plain chain actors (anvil dev accounts #1 and #2): they
  // get back the BNB the demo world takes from them.
  for (const address of MANAGED_DEMO_WALLETS) await testClient.setBalance({ address, value: DEV_ACCOUNT_BNB });
  const walletFor = (account: Account) => createWalletClient({ account, chain: viemChain, transport });

  return {
    ...chain,
    dir,
    stateFile,
    deploymentFile,
    publicClient,
    testClient,
    walletFor,
    deployer: walletFor(privateKeyToAccount(DEV_DEPLOYER_KEY)),
    /** The node behind a provider-like proxy (tests/support/rpc-proxy.ts), for the backends. */
    provider,
    /** Waits for a sent transaction and fails the test unless it succeeded. */
    async mined(hash: Hash | Promise<Hash>) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50 });
      if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
      return receipt;
    },
    /** Moves the chain clock forward and mines a block at the new time. */
    async advanceTime(seconds: number) {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
    async close({ keepFiles = false } = {}) {
      await provider.stop();
      await chain.stop();
      if (!keepFiles) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a Trading listing and offer of `account`'s share: one SparkCard (token 0), a random salt, its counter now. */
async function cardOrderOf(chain: TestChain, account: Address) {
  const { card, trading } = chain.deployment.contracts;
  return {
    collection: card,
    standard: LISTING_STANDARD.erc721,
    tokenId: 0n,
    amount: 1n,
    salt: BigInt(Math.floor(Math.random() * 2 ** 48)),
    counter: await chain.publicClient.readContract({ address: trading, abi: tradingAbi, functionName: "counterOf", args: [account] }),
  };
}

/**
 * A Trading listing of `seller`'s under the seller's counter now on `chain`: one SparkCard (token 0 unless `terms`
 * name one) with a random salt; `terms` gives its currency, price and expiry and may override the rest.
 */
export async function listingOf(
  chain: TestChain,
  seller: Address,
  terms: Pick<Listing, "currency" | "price" | "expiry"> & Partial<Listing>,
): Promise<Listing> {
  return { seller, ...(await cardOrderOf(chain, seller)), ...terms };
}

/**
 * A Trading offer of `buyer`'s under the buyer's counter now on `chain`: 100 FIRE for card 0 with a random salt,
 * expiring in an hour of chain time; `terms` override any of it (a token, criteria, another price or currency).
 */
export async function offerOf(chain: TestChain, buyer: Address, terms: Partial<TradeOffer> = {}): Promise<TradeOffer> {
  return {
    buyer,
    ...(await cardOrderOf(chain, buyer)),
    dataMask: 0n,
    dataValue: 0n,
    currency: chain.deployment.contracts.fire,
    price: 100n * WEI_PER_TOKEN,
    expiry: (await chain.publicClient.getBlock()).timestamp + 3600n,
    ...terms,
  };
}

/**
 * Gives the deployer `role` on one of our AccessControl contracts (the card, box or items collection): it gave its
 * seeding roles back at deploy, and tests mint and mutate as the game's minters and the starship manager do.
 */
export async function grantDeployer(
  chain: Pick<TestChain, "deployer" | "deployment" | "mined">,
  contract: Address,
  role: "MINTER_ROLE" | "MUTATOR_ROLE",
): Promise<void> {
  await chain.mined(
    chain.deployer.writeContract({
      address: contract,
      abi: sparkCardAbi,
      functionName: "grantRole",
      args: [keccak256(toHex(role)), chain.deployment.accounts.deployer],
    }),
  );
}

/** Forges `quantity` loot boxes of `boxType` to `to` as the deployer, who needs the box's minter role (grantDeployer). */
export const forgeBoxes = (chain: TestChain, to: Address, boxType: number | bigint, quantity: number | bigint) =>
  chain.mined(
    chain.deployer.writeContract({
      address: chain.deployment.contracts.box,
      abi: blindBoxAbi,
      functionName: "forge",
      args: [to, BigInt(boxType), BigInt(quantity)],
    }),
  );

/** Mints `amount` of SparkItems stack `id` to `to`, the deployer taking the minter role for it (given back at deploy). */
export async function mintStack(chain: TestChain, to: Address, id: bigint, amount: bigint): Promise<void> {
  const { items } = chain.deployment.contracts;
  await grantDeployer(chain, items, "MINTER_ROLE");
  await chain.mined(chain.deployer.writeContract({ address: items, abi: sparkItemsAbi, functionName: "mint", args: [to, id, amount] }));
}

let claimNonce = 1_000n;
/** A claim nonce no other claim of this test file's has. */
export const nextClaimNonce = () => ++claimNonce;

/**
 * A game-to-chain claim of `account`'s (contracts/claim.ts): `what` it claims through which manager, under a nonce no
 * other claim of this test file's has, valid for ten minutes of chain time; `overrides` replace any field.
 */
export async function claimOf(
  chain: TestChain,
  account: Account,
  what: Pick<ClaimFields, "kind" | "asset" | "idOrAmount" | "data" | "assetManager">,
  overrides: Partial<ClaimFields> = {},
): Promise<ClaimFields> {
  const now = (await chain.publicClient.getBlock()).timestamp;
  return {
    account: account.address,
    kind: what.kind,
    asset: what.asset,
    idOrAmount: what.idOrAmount,
    data: what.data,
    nonce: nextClaimNonce(),
    deadline: now + 600n,
    chainId: BigInt(LOCAL_CHAIN_ID),
    assetManager: what.assetManager,
    ...overrides,
  };
}

/**
 * Submits `account`'s signed claim, sent by `submitter` (the account unless named): awardClaim to the reward manager,
 * the others to the asset manager. Their ABIs carry every error, so a refusal decodes whichever contract raised it.
 */
export function submitClaim(
  chain: TestChain,
  functionName: "claimToken" | "claimNft" | "claimItem1155" | "awardClaim",
  account: Account,
  signed: SignedClaim,
  submitter: Account = account,
): Promise<Hash> {
  const wallet = chain.walletFor(submitter);
  const { assetManager, rewardManager } = chain.deployment.contracts;
  const args = [account.address, signed.claim_content, Number(signed.v), signed.r, signed.s] as const;
  return functionName === "awardClaim"
    ? wallet.writeContract({ address: rewardManager, abi: [...rewardManagerAbi, ...sparkErrorsAbi], functionName, args })
    : wallet.writeContract({ address: assetManager, abi: [...assetManagerAbi, ...sparkErrorsAbi], functionName, args });
}

/** How `manager` (the asset or the reward manager: SignedClaims' queryClaim on both) records claim `nonce` of `account`'s. */
export const claimStatus = (chain: TestChain, manager: Address, account: Account, nonce: bigint) =>
  chain.publicClient.readContract({ address: manager, abi: assetManagerAbi, functionName: "queryClaim", args: [account.address, nonce] });

/** `owner`'s balance of the ERC-20 `token`. */
export const tokenBalanceOf = (chain: TestChain, token: Address, owner: Address) =>
  chain.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });

/** How much of the ERC-20 `token` `owner` lets `spender` take. */
export const allowanceOf = (chain: TestChain, token: Address, owner: Address, spender: Address) =>
  chain.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "allowance", args: [owner, spender] });

/** A listing (or a Trading offer) as the market API and the SSO take it: uint256 fields as decimal strings. */
export function listingJson(listing: Listing | TradeOffer): Record<string, string | number> {
  return Object.fromEntries(Object.entries(listing).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v]));
}

/** One chain for the calling test file: started before its tests (then handed to `ready`), stopped after them. */
export function setUpTestChain(ready: (chain: TestChain) => void): void {
  let chain: TestChain | undefined;
  beforeAll(async () => {
    chain = await startTestChain();
    ready(chain);
  });
  afterAll(async () => {
    await chain?.close();
  });
}

/**
 * One chain and what `start` runs on it (a market, the executor's backends) for the calling test file: both started
 * before its tests (then handed to `ready`), both stopped after them, what runs on the chain first.
 */
export function setUpChainWith<T extends { close(): Promise<unknown> }>(
  start: (chain: TestChain) => Promise<T>,
  ready: (chain: TestChain, started: T) => void,
): void {
  let chain: TestChain | undefined;
  let started: T | undefined;
  beforeAll(async () => {
    chain = await startTestChain();
    started = await start(chain);
    ready(chain, started);
  });
  afterAll(async () => {
    await started?.close();
    await chain?.close();
  });
}

/** The asset manager's record of swap `swapId` into the game (who sent what, of which kind, for which game). */
export const swapRecord = (chain: TestChain, swapId: bigint) =>
  chain.publicClient.readContract({
    address: chain.deployment.contracts.assetManager,
    abi: assetManagerAbi,
    functionName: "querySwap",
    args: [swapId],
  });

/** `from` moves its SparkCard `tokenId` to `to`; the ABI carries every error, so a refusal (a lock, say) decodes. */
export const transferCard = (chain: TestChain, from: Account, to: Address, tokenId: bigint) =>
  chain.walletFor(from).writeContract({
    address: chain.deployment.contracts.card,
    abi: [...sparkCardAbi, ...sparkErrorsAbi],
    functionName: "transferFrom",
    args: [from.address, to, tokenId],
  });

/** Runs a transaction sequence expected to fail: its error, and the words the app shows for it. */
export async function sequenceRefusal(call: Promise<unknown>): Promise<{ error: unknown; message: string }> {
  const error = await call.then(
    () => {
      throw new Error("expected the sequence to fail");
    },
    (e: unknown) => e,
  );
  return { error, message: chainErrorMessage(error) };
}

/** Runs a contract call expected to revert and returns the decoded custom error. */
export async function revertOf(call: Promise<unknown>): Promise<{ name: string; args: readonly unknown[] }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError) {
        return { name: reverted.data?.errorName ?? reverted.reason ?? "unknown", args: reverted.data?.args ?? [] };
      }
    }
    throw error;
  }
  throw new Error("expected the call to revert, but it succeeded");
}
