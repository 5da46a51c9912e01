/**
 * A browser wallet's trades of a chain-held item through the trading contract (issue 28; docs/decisions/0015), as
 * plain functions over viem clients: sign a listing (the collection approved for the contract first), buy one with
 * quickSale (an exact ERC-20 approval first), cancel one, cancel all, transfer (tokens, or an amount of a stack), send
 * into a player's game inventory.
 * Each call is simulated before the wallet is asked, so a refusal costs nothing; a transaction that reverts anyway
 * (a rival mined first) is replayed to name its refusal. Errors pass through for chainErrorMessage.
 */
import { bytesToHex, zeroAddress, isAddressEqual, type Address, type Hash, type Hex, type TransactionReceipt } from "viem";
import { getTransactionReceipt, readContract, signTypedData, simulateContract, writeContract } from "viem/actions";
import { gameTokenAbi, tradingAbi } from "../../../contracts/generated/abi";
import type { ChainOrder } from "~core/api/market";
import { INSUFFICIENT_BALANCE } from "~core/chain-errors";
import { expiryIn } from "~core/orders";
import { LISTING_STANDARD, listingOfOrder, listingTypedData, tradingFee, type Listing } from "~core/trading";
import { approveExactly, approveOperator, confirmed, type StepReport } from "~/islands/transaction-steps";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

/** The deployment's trading contract and the collection traded. */
export interface ChainTradeContracts {
  chainId: number;
  trading: Address;
  collection: Address;
}

export type ChainTradeStep = "approve" | "sign" | "buy" | "cancel" | "cancel-all" | "transfer" | "send";
export type ChainTradeReport = StepReport<ChainTradeStep>;

/**
 * What the seller typed: the price in wei, the currency's token (zero for BNB) and how many days it lasts; for a
 * material stack, the amount of its SparkItems id (`tokenId`) sold whole in one ERC-1155 listing.
 */
export interface ListingTerms {
  tokenId: bigint;
  currency: Address;
  price: bigint;
  days: number;
  amount?: bigint;
}

/** The fee the contract keeps and what the seller receives, shown before anyone signs. */
export function saleProceeds(price: bigint, feeBps: number): { fee: bigint; proceeds: bigint } {
  const fee = tradingFee(price, feeBps);
  return { fee, proceeds: price - fee };
}

/** A random 256-bit salt: relisting the same item at the same price makes a new order. */
export function listingSalt(): bigint {
  return BigInt(bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32))));
}

/** The Listing a seller signs: one ERC-721 token or an amount of a stack, under their current counter, expiring `days` from now. */
export function buildListing(
  seller: Address,
  contracts: Pick<ChainTradeContracts, "collection">,
  terms: ListingTerms,
  { counter, salt = listingSalt(), nowMs = Date.now() }: { counter: bigint; salt?: bigint; nowMs?: number },
): Listing {
  return {
    seller,
    collection: contracts.collection,
    standard: terms.amount === undefined ? LISTING_STANDARD.erc721 : LISTING_STANDARD.erc1155,
    tokenId: terms.tokenId,
    amount: terms.amount ?? 1n,
    currency: terms.currency,
    price: terms.price,
    expiry: expiryIn(terms.days * 86_400, nowMs),
    salt,
    counter,
  };
}

/** Approves the trading contract as the wallet's operator on the collection unless it is: listing, transfers and sends move through it. */
function approveTrading(clients: WalletClients, contracts: ChainTradeContracts, report: ChainTradeReport) {
  return approveOperator(clients, { collection: contracts.collection, operator: contracts.trading }, "approve", report);
}

/** One call of the trading contract, checked by viem against its ABI where the callers build it. */
type TradingCall = { functionName: string; args: readonly unknown[]; value?: bigint };

/**
 * Simulates, sends and follows one trading call. A transaction mined as reverted (the simulation passed, then a rival's
 * landed first) is simulated again on the block that refused it, so the contract's own refusal is what the user reads.
 */
export async function send<S extends string>(
  clients: WalletClients,
  contracts: Pick<ChainTradeContracts, "trading">,
  step: S,
  call: TradingCall,
  report: StepReport<S>,
): Promise<TransactionReceipt> {
  const target = { ...call, abi: tradingAbi, address: contracts.trading, account: clients.walletClient.account } as never;
  report(step, "wallet");
  const { request } = await simulateContract(clients.publicClient, target);
  const hash = await writeContract(clients.walletClient, request);
  try {
    return await confirmed(clients, step, hash, report);
  } catch (error) {
    if (error instanceof ShownError) {
      const { blockNumber } = await getTransactionReceipt(clients.publicClient, { hash });
      await simulateContract(clients.publicClient, { ...(target as object), blockNumber } as never);
    }
    throw error;
  }
}

/**
 * Signs a listing of one of the wallet's tokens: the trading contract approved for the collection first (and that
 * approval mined), the seller's counter read, then eth_signTypedData_v4. Returns what the market's chainSell stores.
 */
export async function signListing(
  clients: WalletClients,
  contracts: ChainTradeContracts,
  terms: ListingTerms,
  report: ChainTradeReport,
): Promise<{ listing: Listing; signature: Hex }> {
  const account = clients.walletClient.account;
  await approveTrading(clients, contracts, report);
  const counter = await readContract(clients.publicClient, {
    address: contracts.trading,
    abi: tradingAbi,
    functionName: "counterOf",
    args: [account.address],
  });
  const listing = buildListing(account.address, contracts, terms, { counter });
  report("sign", "wallet");
  const signature = await signTypedData(clients.walletClient, {
    account,
    ...listingTypedData(listing, contracts.chainId, contracts.trading),
  });
  report("sign", "confirmed");
  return { listing, signature };
}

/**
 * Buys a stored chain listing with quickSale: an ERC-20 price approved exactly first when the allowance is short (after
 * a balance check in the product's words), BNB sent as the value.
 */
export async function buyListing(
  clients: WalletClients,
  contracts: ChainTradeContracts,
  order: ChainOrder,
  report: ChainTradeReport,
): Promise<Hash> {
  const listing = listingOfOrder(order);
  const buyer = clients.walletClient.account.address;
  if (isAddressEqual(listing.seller, buyer)) throw new ShownError("You cannot buy your own listing.");
  const native = isAddressEqual(listing.currency, zeroAddress);
  const balance = native
    ? await clients.publicClient.request({ method: "eth_getBalance", params: [buyer, "latest"] }).then(BigInt)
    : await readContract(clients.publicClient, { address: listing.currency, abi: gameTokenAbi, functionName: "balanceOf", args: [buyer] });
  if (balance < listing.price) throw new ShownError(INSUFFICIENT_BALANCE);
  if (!native)
    await approveExactly(clients, { token: listing.currency, spender: contracts.trading, amount: listing.price }, "approve", report);
  const receipt = await send(
    clients,
    contracts,
    "buy",
    { functionName: "quickSale", args: [listing, order.signature], value: native ? listing.price : 0n },
    report,
  );
  return receipt.transactionHash;
}

/** Cancels one of the wallet's stored listings (Trading.cancel): it can never be filled after. */
export async function cancelListing(clients: WalletClients, contracts: ChainTradeContracts, order: ChainOrder, report: ChainTradeReport) {
  return (await send(clients, contracts, "cancel", { functionName: "cancel", args: [[listingOfOrder(order)]] }, report)).transactionHash;
}

/** Cancel all: incrementCounter makes every listing and offer the wallet signed before unfillable. */
export async function cancelAllListings(
  clients: WalletClients,
  contracts: Pick<ChainTradeContracts, "trading">,
  report: StepReport<"cancel-all">,
) {
  return (await send(clients, contracts, "cancel-all", { functionName: "incrementCounter", args: [] }, report)).transactionHash;
}

/** Transfers the wallet's tokens of the collection to `to` (transferNft), the trading contract approved first. */
export async function transferItems(
  clients: WalletClients,
  contracts: ChainTradeContracts,
  { to, tokenIds }: { to: Address; tokenIds: readonly bigint[] },
  report: ChainTradeReport,
) {
  await approveTrading(clients, contracts, report);
  const call = { functionName: "transferNft", args: [contracts.collection, to, [...tokenIds]] } as const;
  return (await send(clients, contracts, "transfer", call, report)).transactionHash;
}

/** Transfers an amount of the wallet's stack (SparkItems `id`) to `to` (transferItem1155), the trading contract approved first. */
export async function transferStack(
  clients: WalletClients,
  contracts: ChainTradeContracts,
  { to, id, amount }: { to: Address; id: bigint; amount: bigint },
  report: ChainTradeReport,
) {
  await approveTrading(clients, contracts, report);
  const call = { functionName: "transferItem1155", args: [contracts.collection, to, [id], [amount]] } as const;
  return (await send(clients, contracts, "transfer", call, report)).transactionHash;
}

/** Sends one token into the game inventory of the player whose bound wallet is `account` (sendNft). */
export async function sendItem(
  clients: WalletClients,
  contracts: ChainTradeContracts,
  { tokenId, account }: { tokenId: bigint; account: Address },
  report: ChainTradeReport,
) {
  await approveTrading(clients, contracts, report);
  const call = { functionName: "sendNft", args: [contracts.collection, tokenId, account] } as const;
  return (await send(clients, contracts, "send", call, report)).transactionHash;
}
