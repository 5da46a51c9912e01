import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { ProofSchema } from "~/components/market/trade-panel";
import { checksummed } from "~/domain/listing";
import { requireUser, withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { BackendError } from "~/services/http-client.server";
import type { OrderContext } from "~core/api/market";
import { ordersApi, proofFrom } from "~/services/orders.server";
import { type UserInfo, BIND_ADDR_TYPE } from "~core/api/sso";
import { makeToast, redirectWithToast } from "~/services/session.server";

/** What the Selling tab needs to offer "Cancel all listings": a browser wallet signs with the order context. */
export interface CancelAllOffer {
  browserWallet: { address: string; bindAddrType: number } | null;
  orderContext: OrderContext | null;
}

export async function cancelAllOffer(token: string | null | undefined, user: UserInfo): Promise<CancelAllOffer> {
  if (user.BindAddrType === BIND_ADDR_TYPE.managed) return { browserWallet: null, orderContext: null };
  const address = checksummed(user.WalletAddress);
  const orderContext = await ordersApi(backendClients(token).market)
    .orderContext(address)
    .catch(() => null);
  return { browserWallet: { address, bindAddrType: user.BindAddrType }, orderContext };
}

const CancelAllSchema = ProofSchema.extend({ intent: z.literal("cancel-all"), counter: z.string().regex(/^\d{1,78}$/).optional() });

/**
 * "Cancel all listings": one signed counter bump ends every listing of the wallet. A managed wallet posts
 * nothing to sign (the backend signs with the current counter); a browser wallet posts the counter it signed.
 */
export async function cancelAllAction(request: Request) {
  const { token, user } = await requireUser(request);
  const back = new URL(request.url).pathname + new URL(request.url).search;
  const submission = parseWithZod(await request.formData(), { schema: CancelAllSchema });
  if (submission.status !== "success") return json({ failed: "Unknown action." }, { status: 400 });
  if (!user.WalletAddress) return json({ failed: "Please bind a wallet address" }, { status: 400 });
  const address = checksummed(user.WalletAddress);
  const orders = ordersApi(backendClients(token).market);
  const proof = proofFrom(submission.value);
  const { counter } = submission.value;
  try {
    const result = await withSession(
      request,
      async () => (proof ? orders.cancelAll(address, counter ?? "", proof) : orders.cancelAll(address, counter ?? (await orders.orderContext(address)).counter)),
      back,
    );
    const message = result.cancelled === 1 ? "Cancelled 1 listing." : `Cancelled ${result.cancelled} listings.`;
    return redirectWithToast(request, back, makeToast("success", message));
  } catch (error) {
    if (error instanceof BackendError) return json({ failed: error.message }, { status: error.status >= 500 ? 502 : 400 });
    throw error;
  }
}
