/**
 * The bridge's sequences for a browser wallet (issue 14), as plain functions over viem clients: submit a claim the
 * game signed (claimToken, claimNft or claimItem1155, by its kind), and move a token amount, a card or an amount of
 * a SparkItems stack into the game (an approval of the asset manager when needed, then the swap). Each checks what the contract would refuse before
 * the wallet is asked, so a refusal costs nothing; wallet, node and contract errors pass through for
 * chainErrorMessage.
 */
import { decodeAbiParameters, isAddressEqual, parseEventLogs, type Address, type Hash, type Hex } from "viem";
import { readContract, simulateContract, writeContract } from "viem/actions";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi } from "../../../contracts/generated/abi";
import { CLAIM_KIND, CLAIM_PARAMS } from "~core/claim";
import { stackText } from "~core/item-moves";
import { formatAmount, formatPrice } from "~core/money";
import { approveExactly, approveOperator, confirmed, type StepReport } from "~/islands/transaction-steps";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

export interface BridgeContracts {
  fire: Address;
  quark: Address;
  card: Address;
  assetManager: Address;
  /** SparkItems, the ERC-1155 stacks. */
  items: Address;
}

/** A claim as the market backend signs it (SignedClaimWire). */
export interface ClaimWire {
  claim_content: string;
  v: string;
  r: string;
  s: string;
}

export type BridgeStep = "approve" | "claim" | "swap";
export type BridgeReport = StepReport<BridgeStep>;

const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;
const GAME_TAG = 1n;

/** Submits a claim from the wallet's account; the simulation brings back the contract's refusal before the wallet asks. */
export async function submitClaim(
  clients: WalletClients,
  contracts: BridgeContracts,
  claim: ClaimWire,
  report: BridgeReport,
): Promise<Hash> {
  const account = clients.walletClient.account.address;
  const [, kind] = decodeAbiParameters(CLAIM_PARAMS, claim.claim_content as Hex);
  report("claim", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account: clients.walletClient.account,
    address: contracts.assetManager,
    abi: managerAbi,
    functionName: kind === CLAIM_KIND.token ? "claimToken" : kind === CLAIM_KIND.item1155 ? "claimItem1155" : "claimNft",
    args: [account, claim.claim_content as Hex, Number(BigInt(claim.v)), claim.r as Hex, claim.s as Hex],
  });
  const hash = await writeContract(clients.walletClient, request);
  await confirmed(clients, "claim", hash, report);
  return hash;
}

function swapIdOf(contracts: BridgeContracts, logs: Parameters<typeof parseEventLogs>[0]["logs"]): bigint {
  const ours = logs.filter((log) => isAddressEqual(log.address, contracts.assetManager));
  const [event] = parseEventLogs({ abi: assetManagerAbi, eventName: ["SwappedToGame", "SwappedItemToGame"], logs: ours });
  if (!event) throw new ShownError("The transaction was confirmed, but the game did not record the move. Reload the page.");
  return event.args.swapId;
}

/** Moves `amount` wei of FIRE or QUARK into the game, approving exactly that amount first when the allowance is short. */
export async function swapTokenIntoGame(
  clients: WalletClients,
  contracts: BridgeContracts,
  { currency, amount }: { currency: "FIRE" | "QUARK"; amount: bigint },
  report: BridgeReport,
): Promise<bigint> {
  const owner = clients.walletClient.account;
  const token = currency === "FIRE" ? contracts.fire : contracts.quark;
  const balance = await readContract(clients.publicClient, {
    address: token,
    abi: gameTokenAbi,
    functionName: "balanceOf",
    args: [owner.address],
  });
  if (balance < amount) {
    throw new ShownError(
      `Your wallet holds ${formatAmount(balance, currency, "balance")}: it cannot move ${formatPrice(amount, currency)}.`,
    );
  }
  await approveExactly(clients, { token, spender: contracts.assetManager, amount }, "approve", report);
  report("swap", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account: owner,
    address: contracts.assetManager,
    abi: managerAbi,
    functionName: "swapTokenToGame",
    args: [token, amount, GAME_TAG],
  });
  const receipt = await confirmed(clients, "swap", await writeContract(clients.walletClient, request), report);
  return swapIdOf(contracts, receipt.logs);
}

/** Moves one card-collection item into the game, approving the asset manager for it first unless it is already. */
export async function swapItemIntoGame(
  clients: WalletClients,
  contracts: BridgeContracts,
  tokenId: bigint,
  report: BridgeReport,
): Promise<bigint> {
  const owner = clients.walletClient.account;
  const card = { address: contracts.card, abi: sparkCardAbi } as const;
  const holder = await readContract(clients.publicClient, { ...card, functionName: "ownerOf", args: [tokenId] }).catch(() => null);
  if (!holder || !isAddressEqual(holder, owner.address)) throw new ShownError(`Item #${tokenId} is not in your wallet.`);
  const approved = await readContract(clients.publicClient, { ...card, functionName: "getApproved", args: [tokenId] });
  if (!isAddressEqual(approved, contracts.assetManager)) {
    report("approve", "wallet");
    const hash = await writeContract(clients.walletClient, {
      ...card,
      functionName: "approve",
      args: [contracts.assetManager, tokenId],
      account: owner,
      chain: clients.walletClient.chain,
    });
    await confirmed(clients, "approve", hash, report);
  }
  report("swap", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account: owner,
    address: contracts.assetManager,
    abi: managerAbi,
    functionName: "swapNftToGame",
    args: [contracts.card, tokenId, GAME_TAG],
  });
  const receipt = await confirmed(clients, "swap", await writeContract(clients.walletClient, request), report);
  return swapIdOf(contracts, receipt.logs);
}

/**
 * Moves `amount` of the wallet's SparkItems stack `id` into the game: the asset manager approved as operator first
 * unless it is (it burns what is swapped in), then swapItem1155ToGame.
 */
export async function swapStackIntoGame(
  clients: WalletClients,
  contracts: BridgeContracts,
  { id, amount }: { id: bigint; amount: bigint },
  report: BridgeReport,
): Promise<bigint> {
  const owner = clients.walletClient.account;
  const items = { address: contracts.items, abi: sparkItemsAbi } as const;
  const held = await readContract(clients.publicClient, { ...items, functionName: "balanceOf", args: [owner.address, id] });
  if (held < amount) throw new ShownError(`Your wallet holds ${stackText(id, held)}: it cannot move ${stackText(id, amount)}.`);
  await approveOperator(clients, { collection: contracts.items, operator: contracts.assetManager }, "approve", report);
  report("swap", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account: owner,
    address: contracts.assetManager,
    abi: managerAbi,
    functionName: "swapItem1155ToGame",
    args: [contracts.items, id, amount, GAME_TAG],
  });
  const receipt = await confirmed(clients, "swap", await writeContract(clients.walletClient, request), report);
  return swapIdOf(contracts, receipt.logs);
}
