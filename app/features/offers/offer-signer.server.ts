/** The signing context of a browser wallet's offer forms; null for a managed wallet, whose orders the SSO signs. */
import { checksummed } from "~/features/market/listing";
import type { Apis } from "~/services/apis.server";
import { chain } from "~/services/chain.server";
import type { OfferRecord } from "~core/api/offers";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import { tradingCurrencies } from "~core/trading";
import { chainOfferNames, chainTargetOf } from "./chain-offer-actions.server";
import { CHAIN_OFFER_CURRENCIES, chainOfferAllowance, PAY_FROM } from "./chain-offer-rules";
import type { OfferSigner } from "./offer-signing";
import type { ChainOfferChain, ChainOfferDraft } from "./offer-views";

/** The trading contract and tokens of the chain, or null when the app runs without one. */
function chainOfferChain(): ChainOfferChain | null {
  try {
    const { deployment } = chain();
    return { chainId: deployment.chainId, trading: deployment.contracts.trading, currencies: tradingCurrencies(deployment.contracts) };
  } catch {
    return null;
  }
}

export async function offerSigner(api: Pick<Apis, "orders" | "offers">, user: UserInfo | null): Promise<OfferSigner | null> {
  if (!user?.WalletAddress || user.BindAddrType === BIND_ADDR_TYPE.managed) return null;
  const address = checksummed(user.WalletAddress);
  const [order, offer] = await Promise.all([api.orders.orderContext(address), api.offers.offerContext(address)]);
  return {
    bound: { address, bindAddrType: user.BindAddrType },
    context: { domain: order.domain, counter: offer.counter },
    chain: chainOfferChain(),
  };
}

/**
 * What a browser wallet's chain offer on the offers page's item or view names, and what its open chain offers already
 * need of each currency's allowance; null when an offer there is not a chain offer.
 */
export async function chainOfferDraftOf(search: URLSearchParams, mine: readonly OfferRecord[]): Promise<ChainOfferDraft | null> {
  const target = await chainTargetOf(search, PAY_FROM.chain);
  const names = target && chainOfferNames(target);
  if (!names) return null;
  const now = Math.floor(Date.now() / 1000);
  return {
    collection: names.collection,
    tokenId: names.tokenId.toString(),
    dataMask: names.dataMask.toString(),
    dataValue: names.dataValue.toString(),
    committed: Object.fromEntries(
      CHAIN_OFFER_CURRENCIES.map((currency) => [currency, chainOfferAllowance(mine, currency, 0n, now).toString()]),
    ),
    whenPaidFromChain: target.kind === "collection",
  };
}
