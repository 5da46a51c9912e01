/** The signing context of a browser wallet's offer forms; null for a managed wallet, whose orders the SSO signs. */
import { checksummed } from "~/features/market/listing";
import type { Apis } from "~/services/apis.server";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import type { OfferSigner } from "./offer-signing";

export async function offerSigner(api: Pick<Apis, "orders" | "offers">, user: UserInfo | null): Promise<OfferSigner | null> {
  if (!user?.WalletAddress || user.BindAddrType === BIND_ADDR_TYPE.managed) return null;
  const address = checksummed(user.WalletAddress);
  const [order, offer] = await Promise.all([api.orders.orderContext(address), api.offers.offerContext(address)]);
  return { bound: { address, bindAddrType: user.BindAddrType }, context: { domain: order.domain, counter: offer.counter } };
}
