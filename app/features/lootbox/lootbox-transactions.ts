/**
 * The loot box transaction sequences of product §4 ("Loot box flow") as plain functions: buy (balance check,
 * allowance raised only when below the price, purchase, box ids from the receipt) and open (opener approval,
 * batches of at most 10, item ids and attributes). No React and no wagmi: the island passes its wallet's
 * clients, the contract tests pass anvil's. Refusals of their own are LootboxErrors in the product's words;
 * wallet, node and contract errors pass through for chainErrorMessage.
 */
import type { Address, Hash, Log } from "viem";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "viem/actions";
import { blindBoxAbi, blindBoxOpenerAbi, sparkCardAbi, sparkErrorsAbi } from "../../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import type { OpenedItem } from "~/components/item-list";
import { checkPurchase, INVALID_ERC721, openBatches } from "./lootbox-rules";
import type { PaymentCurrency } from "~core/boxes";
import { BATCH_OPEN_GAS_LIMIT } from "~core/constants";
import { plural } from "~core/words";
import type { PublicChainConfig } from "~/services/chain.server";
import { boxIdsFromReceipt, openedItemIds } from "../../../contracts/lootbox-events";
import { purchaseCalls, readBoxPrice, readPaymentBalance, readSaleAllowance } from "../../../contracts/lootbox-sale";
import { openCountCall, readOpener, type OpenerContracts } from "../../../contracts/lootbox-opener";
import { erc721Address, LootboxError } from "./lootbox-chain";
import type { WalletClients } from "~/islands/chain-errors";

export type LootboxContracts = PublicChainConfig["contracts"];

/** Tells the user what is happening now ("Buying: confirm in your wallet…"). */
export type Progress = (text: string) => void;

export interface BuyRequest {
  typeBox: number;
  currency: PaymentCurrency;
  quantity: number;
}

export interface Purchase {
  /** The ids of the boxes minted, from the receipt's BlindBoxForged events. */
  boxIds: bigint[];
  /** Whether an ERC-20 allowance had to be raised first. */
  approved: boolean;
  /** The purchase's transaction, which the server reads for the purchase analytics event. */
  txHash: Hash;
}

const openerAbi = [...blindBoxOpenerAbi, ...sparkErrorsAbi] as const;
const silent: Progress = () => {};

/** "1 box", "3 boxes" (box titles end in "box"). */

function boxContract(contracts: LootboxContracts): Address {
  const box = erc721Address(contracts.box);
  if (!box) throw new LootboxError("invalid-erc721", INVALID_ERC721);
  return box;
}

async function confirm({ publicClient }: WalletClients, hash: Hash, what: string, say: Progress) {
  say(`${what}: waiting for confirmation…`);
  // No timeout: a slow chain is the wallet's to show, not a failure.
  const receipt = await waitForTransactionReceipt(publicClient, { hash, timeout: 0 });
  if (receipt.status !== "success") throw new LootboxError("reverted", `${what} failed on the chain.`);
  return receipt;
}

/** Product §4 and §5: buys `quantity` boxes for the wallet's account and returns their ids. */
export async function buyBoxes(clients: WalletClients, contracts: LootboxContracts, request: BuyRequest, say = silent): Promise<Purchase> {
  const { publicClient, walletClient } = clients;
  const { typeBox, currency, quantity } = request;
  const buyer = walletClient.account;
  const box = boxContract(contracts);
  say("Checking your balance…");
  // The price this wallet pays now (its PSE holder or whitelist price when lower), which the sale will charge.
  const [{ price: unitPrice }, balance, allowance] = await Promise.all([
    readBoxPrice(publicClient, contracts, typeBox, currency, buyer.address),
    readPaymentBalance(publicClient, contracts, buyer.address, currency),
    readSaleAllowance(publicClient, contracts, buyer.address, currency),
  ]);
  const check = checkPurchase({ currency, unitPrice, quantity, balance, allowance });
  if (!check.ok) throw new LootboxError("insufficient-balance", check.message);
  const { approve, buy } = purchaseCalls(contracts, {
    typeBox,
    currency,
    quantity,
    total: check.total,
    needsApproval: check.needsApproval,
  });
  if (approve) {
    say(`Approving ${currency}: confirm in your wallet…`);
    await confirm(clients, await writeContract(walletClient, approve), `Approving ${currency}`, say);
  }
  say("Buying: confirm in your wallet…");
  // Simulated first, so a refusal (daily limit, sold out…) comes back decoded rather than as a failed transaction.
  // The same two calls per branch: viem types a call by its function, so the union is narrowed first.
  const hash =
    buy.functionName === "buyWithErc20"
      ? await writeContract(walletClient, (await simulateContract(publicClient, { account: buyer, ...buy })).request)
      : await writeContract(walletClient, (await simulateContract(publicClient, { account: buyer, ...buy })).request);
  const receipt = await confirm(clients, hash, "Buying", say);
  return { boxIds: boxIdsFromReceipt(receipt.logs, box), approved: check.needsApproval, txHash: hash };
}

type OpenProgress = { say?: Progress; onBatch?: (items: OpenedItem[]) => void; onOpened?: (txHash: string) => void };

/** The registry's opener (queryOpenerAddr) and its asset, after the opener's approval, given first when missing. */
async function approvedOpener(clients: WalletClients, box: Address, say: Progress): Promise<OpenerContracts> {
  const { publicClient, walletClient } = clients;
  const found = await readOpener(publicClient, box);
  const approved = await readContract(publicClient, {
    address: box,
    abi: blindBoxAbi,
    functionName: "isApprovedForAll",
    args: [walletClient.account.address, found.opener],
  });
  if (!approved) {
    say("Approving the opener: confirm in your wallet…");
    const hash = await writeContract(walletClient, {
      address: box,
      abi: blindBoxAbi,
      functionName: "setApprovalForAll",
      args: [found.opener, true],
    });
    await confirm(clients, hash, "Approving the opener", say);
  }
  return found;
}

/** The items an opener call minted, with their attributes read from the asset contract. */
async function mintedItems(
  { publicClient }: WalletClients,
  { opener, asset }: OpenerContracts,
  logs: readonly Log[],
): Promise<OpenedItem[]> {
  const minted = openedItemIds(logs, opener);
  const words = await Promise.all(
    minted.map((id) => readContract(publicClient, { address: asset, abi: sparkCardAbi, functionName: "dataOf", args: [id] })),
  );
  return minted.map((tokenId, i) => ({ tokenId, attributes: decodeItemData(words[i]) }));
}

/**
 * Product §4: opens the given boxes of the wallet's account, approving the opener first when needed, in
 * opener calls of at most 10 (product §9). `onBatch` gets every item so far after each call.
 */
export async function openBoxes(
  clients: WalletClients,
  contracts: LootboxContracts,
  ids: readonly bigint[],
  { say = silent, onBatch, onOpened }: OpenProgress = {},
): Promise<OpenedItem[]> {
  const { publicClient, walletClient } = clients;
  const owner = walletClient.account;
  const box = boxContract(contracts);
  if (ids.length === 0) throw new LootboxError("nothing-to-open", "Choose at least one box to open.");
  const found = await approvedOpener(clients, box, say);
  const batches = openBatches(ids);
  const opened: OpenedItem[] = [];
  for (const [index, batch] of batches.entries()) {
    const what = `Opening ${plural(batch.length, "box")}${batches.length > 1 ? ` (batch ${index + 1} of ${batches.length})` : ""}`;
    say(`${what}: confirm in your wallet…`);
    const { request } = await simulateContract(publicClient, {
      account: owner,
      address: found.opener,
      abi: openerAbi,
      functionName: "batchOpenWithIds",
      args: [[...batch]],
      gas: BATCH_OPEN_GAS_LIMIT,
    });
    const receipt = await confirm(clients, await writeContract(walletClient, request), what, say);
    onOpened?.(receipt.transactionHash);
    say("Reading your new items…");
    opened.push(...(await mintedItems(clients, found, receipt.logs)));
    onBatch?.([...opened]);
  }
  return opened;
}

/**
 * Product §7 "Open N": opens `count` (1-10) of the wallet's boxes of `typeBox` without naming them, in one opener
 * call (batchOpen, or batchOpenOfType when the wallet holds other types too: decision 0018).
 */
export async function openCount(
  clients: WalletClients,
  contracts: LootboxContracts,
  typeBox: number,
  count: number,
  { say = silent, onBatch, onOpened }: OpenProgress = {},
): Promise<OpenedItem[]> {
  const { publicClient, walletClient } = clients;
  const box = boxContract(contracts);
  if (count < 1) throw new LootboxError("nothing-to-open", "Choose at least one box to open.");
  const found = await approvedOpener(clients, box, say);
  const [, types] = await readContract(publicClient, {
    address: box,
    abi: blindBoxAbi,
    functionName: "queryUserBoxes",
    args: [walletClient.account.address],
  });
  const what = `Opening ${plural(count, "box")}`;
  say(`${what}: confirm in your wallet…`);
  const call = openCountCall(found.opener, typeBox, count, types.map(Number));
  // The same two calls per branch: viem types a call by its function, so the union is narrowed first.
  const common = { account: walletClient.account, gas: BATCH_OPEN_GAS_LIMIT } as const;
  const hash =
    call.functionName === "batchOpen"
      ? await writeContract(walletClient, (await simulateContract(publicClient, { ...common, ...call, abi: openerAbi })).request)
      : await writeContract(walletClient, (await simulateContract(publicClient, { ...common, ...call, abi: openerAbi })).request);
  const receipt = await confirm(clients, hash, what, say);
  onOpened?.(receipt.transactionHash);
  say("Reading your new items…");
  const opened = await mintedItems(clients, found, receipt.logs);
  onBatch?.(opened);
  return opened;
}
