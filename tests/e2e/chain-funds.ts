/**
 * On-chain funds for a test's own wallet, on the e2e server's local anvil node: BNB through anvil's test RPC,
 * tokens minted and boxes forged by the deployer, as contracts/deploy.ts seeds the demo wallets. For a browser
 * wallet anvil then sends its transactions as it does for its own dev accounts (impersonation), so the injected
 * test wallet works with any fresh key; a managed wallet needs none, since the SSO backend signs with its key.
 * No two tests share a wallet's nonce, balances or box limits.
 */
import {
  type Address,
  encodeFunctionData,
  type EncodeFunctionDataParameters,
  type Hex,
  keccak256,
  type Log,
  parseEther,
  parseEventLogs,
  toHex,
} from "viem";
import { blindBoxAbi, gameTokenAbi, sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import { readDeployment } from "../../contracts/deployment";
import { nodeRpc } from "../../contracts/node-rpc";
import { e2eDataDir } from "./stock";
import { E2E_RPC_URL } from "./wallet";

export interface ChainFunds {
  /** Whole coins and tokens. */
  BNB?: number;
  FIRE?: number;
  QUARK?: number;
  USDT?: number;
  /** Unopened boxes by box type. */
  boxes?: Partial<Record<number, number>>;
}

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));

/** One JSON-RPC call to the e2e server's node (anvil's test methods included). */
export const rpc = <T>(method: string, params: unknown[] = []): Promise<T> => nodeRpc<T>(E2E_RPC_URL, method, params);

/**
 * Sends from an unlocked account and waits for success. Anvil picks the nonce, but two workers sending from the
 * deployer at the same moment can still both be given one: the later send is refused as "nonce too low", or as
 * "replacement transaction underpriced" while the first is still pending, and is tried again.
 */
export async function send(from: Address, to: Address, call: EncodeFunctionDataParameters): Promise<Log[]> {
  let hash: Hex | undefined;
  for (let attempt = 0; !hash; attempt++) {
    try {
      hash = await rpc<Hex>("eth_sendTransaction", [{ from, to, data: encodeFunctionData(call) }]);
    } catch (error) {
      if (attempt >= 5 || !/nonce too low|replacement transaction underpriced/i.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
  for (let tries = 0; tries < 100; tries++) {
    const receipt = await rpc<{ status: Hex; logs: Log[] } | null>("eth_getTransactionReceipt", [hash]);
    if (receipt) {
      if (receipt.status !== "0x1") throw new Error(`Funding transaction ${hash} reverted`);
      return receipt.logs;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Funding transaction ${hash} was not mined`);
}

/** Gives `wallet` the funds and, with `impersonate` (a browser wallet's), lets the node send its transactions. */
export async function fundOnChain(wallet: Address, funds: ChainFunds, { impersonate = true } = {}): Promise<void> {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  if (!deployment) throw new Error("No deployment of the e2e server's chain");
  const { contracts, accounts } = deployment;
  await rpc("anvil_setBalance", [wallet, toHex(parseEther(String(funds.BNB ?? 0)))]);
  if (impersonate) await rpc("anvil_impersonateAccount", [wallet]);
  for (const token of ["FIRE", "QUARK", "USDT"] as const) {
    const amount = funds[token];
    if (!amount) continue;
    const address = { FIRE: contracts.fire, QUARK: contracts.quark, USDT: contracts.usdt }[token];
    await send(accounts.deployer, address, { abi: gameTokenAbi, functionName: "mint", args: [wallet, parseEther(String(amount))] });
  }
  const boxes = Object.entries(funds.boxes ?? {}).filter(([, count]) => count);
  if (boxes.length === 0) return;
  // The deploy gives this role back after seeding; granting it again is idempotent, so it stays for the run.
  await send(accounts.deployer, contracts.box, { abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, accounts.deployer] });
  for (const [boxType, count] of boxes) {
    await send(accounts.deployer, contracts.box, {
      abi: blindBoxAbi,
      functionName: "forge",
      args: [wallet, BigInt(boxType), BigInt(count!)],
    });
  }
}

/**
 * Mints card-collection items (attribute words of core/item-data.ts encodeItem) straight into `wallet`, as the
 * opener would, and returns their token ids in order; the market's indexer lists them like any other mint.
 */
export async function mintItems(wallet: Address, items: readonly bigint[]): Promise<bigint[]> {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  if (!deployment) throw new Error("No deployment of the e2e server's chain");
  const { contracts, accounts } = deployment;
  await send(accounts.deployer, contracts.card, { abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, accounts.deployer] });
  const logs = await send(accounts.deployer, contracts.card, { abi: sparkCardAbi, functionName: "mintBatch", args: [wallet, [...items]] });
  const ours = logs.filter((log) => log.address.toLowerCase() === contracts.card.toLowerCase());
  return parseEventLogs({ abi: sparkCardAbi, eventName: "Transfer", logs: ours }).map((event) => event.args.tokenId);
}

/** Mints `amount` of SparkItems stack `id` (core/item-tokens.ts) straight into `wallet`, as a claim from the game would. */
export async function mintStack(wallet: Address, id: bigint, amount: bigint): Promise<void> {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  if (!deployment) throw new Error("No deployment of the e2e server's chain");
  const { contracts, accounts } = deployment;
  await send(accounts.deployer, contracts.items, { abi: sparkItemsAbi, functionName: "grantRole", args: [MINTER_ROLE, accounts.deployer] });
  await send(accounts.deployer, contracts.items, { abi: sparkItemsAbi, functionName: "mint", args: [wallet, id, amount] });
}
