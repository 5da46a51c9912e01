/**
 * A browser wallet's offers on chain-held items (issue 30, decision 0024), as plain functions over viem clients: the
 * buyer signs a TradeOffer (the trading contract approved for the currency first when the allowance is short), the
 * holder fills one with acceptOffer (checked to hold it, then the collection approved), the buyer withdraws one with cancelOffers.
 * Loaded with the chain offer island only.
 */
import { isAddressEqual, type Address, type Hex } from "viem";
import { readContract, signTypedData } from "viem/actions";
import { gameTokenAbi, sparkCardAbi, tradingAbi } from "../../../contracts/generated/abi";
import type { ChainOffer } from "~core/api/market";
import { expiryIn } from "~core/orders";
import { LISTING_STANDARD, offerOfOrder, offerTypedData, type TradeOffer, type TradeOfferTerms } from "~core/trading";
import { listingSalt, send } from "~/features/market/chain-trade-transactions";
import { ShownError, type WalletClients } from "~/islands/chain-errors";
import { approveExactly, approveOperator, type StepReport } from "~/islands/transaction-steps";

export type ChainOfferStep = "approve" | "sign" | "accept" | "withdraw" | "cancel-all";
type Report = StepReport<ChainOfferStep>;

export interface ChainOfferContracts {
  chainId: number;
  trading: Address;
}

/**
 * Signs a TradeOffer. Nothing is escrowed: acceptOffer pulls the price, so the allowance must cover it and the buyer's
 * other open offers in the currency (`committed`); it is raised to that total when short. Returns what the market stores.
 */
export async function signChainOffer(
  clients: WalletClients,
  contracts: ChainOfferContracts,
  draft: TradeOfferTerms & { days: number },
  { committed, noFunds }: { committed: bigint; noFunds: string },
  report: Report,
): Promise<{ offer: TradeOffer; signature: Hex }> {
  const account = clients.walletClient.account;
  const token = { address: draft.currency, abi: gameTokenAbi } as const;
  const balance = await readContract(clients.publicClient, { ...token, functionName: "balanceOf", args: [account.address] });
  if (balance < draft.price) throw new ShownError(noFunds);
  await approveExactly(clients, { token: draft.currency, spender: contracts.trading, amount: committed + draft.price }, "approve", report);
  const counter = await readContract(clients.publicClient, {
    address: contracts.trading,
    abi: tradingAbi,
    functionName: "counterOf",
    args: [account.address],
  });
  const { days, ...terms } = draft;
  const offer: TradeOffer = {
    ...terms,
    buyer: account.address,
    standard: LISTING_STANDARD.erc721,
    amount: 1n,
    expiry: expiryIn(days * 86_400),
    salt: listingSalt(),
    counter,
  };
  report("sign", "wallet");
  const signature = await signTypedData(clients.walletClient, { account, ...offerTypedData(offer, contracts.chainId, contracts.trading) });
  report("sign", "confirmed");
  return { offer, signature };
}

/** The holder fills a stored offer with its token: the trading contract may move the collection first. */
export async function acceptChainOffer(
  clients: WalletClients,
  contracts: ChainOfferContracts,
  order: ChainOffer,
  tokenId: bigint,
  report: Report,
) {
  // Before the approval: a wallet that does not hold the item would pay for an approval and then a failure.
  const owner = await readContract(clients.publicClient, {
    address: order.collection,
    abi: sparkCardAbi,
    functionName: "ownerOf",
    args: [tokenId],
  }).catch(() => null);
  if (!owner || !isAddressEqual(owner, clients.walletClient.account.address))
    throw new ShownError(`Item #${tokenId} is not in your wallet.`);
  await approveOperator(clients, { collection: order.collection, operator: contracts.trading }, "approve", report);
  const call = { functionName: "acceptOffer", args: [offerOfOrder(order), order.signature, tokenId] };
  return (await send(clients, contracts, "accept", call, report)).transactionHash;
}

/** The buyer withdraws one stored offer (cancelOffers): it can never be accepted after. */
export async function withdrawChainOffer(clients: WalletClients, contracts: ChainOfferContracts, order: ChainOffer, report: Report) {
  const call = { functionName: "cancelOffers", args: [[offerOfOrder(order)]] };
  return (await send(clients, contracts, "withdraw", call, report)).transactionHash;
}
