/**
 * The offers' one action (POST /marketplace/offers): make an offer (for the item or the market view the page's URL
 * names), cancel one, cancel all, accept one. The item page and storage post their offer forms here with `back`, the
 * page to return to with a toast. Managed wallets post without a proof (the SSO signs); browser wallets post the proof
 * their island signed. A refusal is a 4xx with the form's field errors or the backend's words.
 */
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { z } from "zod";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { safeRedirect } from "~/domain/safe-redirect";
import { checksummed } from "~/features/market/listing";
import { proofFields, proofFrom, SellSchema } from "~/features/market/trade-action-schemas.server";
import { readTokenRef } from "~/features/market/token-ref";
import { backendProblem, signedInApis } from "~/services/apis.server";
import type { OfferTerms } from "~/services/offers.server";
import { custodian, type OrderProof } from "~/services/orders.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { formatPrice, parseTokenAmount } from "~core/money";
import { chainOfferPost } from "./chain-offer-actions.server";
import { collectionTermsOf } from "./collection-filter.server";
import type { OfferActionData } from "./offer-views";

export const NO_TERMS = "Open an item, or a market view of one item type, to make an offer on it.";
export const NOT_OPEN = "This offer is no longer open.";

const id = z.string().regex(/^[1-9]\d{0,14}$/);
const CancelSchema = z.object({ offerId: id, ...proofFields });
const CancelAllSchema = z.object({
  counter: z
    .string()
    .regex(/^\d{1,78}$/)
    .optional(),
  ...proofFields,
});
const AcceptSchema = z.object({
  offerId: id,
  tokenId: z.string().regex(/^\d{1,78}$/),
  nftType: z.coerce.number().int().min(0).max(8),
  ...proofFields,
});

/** What the page's URL makes an offer on: its item (tokenId and nftType), else its market view's items. */
export function offerTermsOf(search: URLSearchParams): Omit<OfferTerms, "price" | "currency"> | null {
  const { ref } = readTokenRef(search);
  if (ref) return { nftType: ref.nftType, tokenId: ref.tokenId };
  const collection = collectionTermsOf(search);
  return collection && { nftType: collection.nftType, filter: collection.filter, label: collection.label };
}

export async function offerPost(request: Request) {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  const signedIn = await signedInApis(request, { returnTo: here });
  const { user, offers } = signedIn;
  // A copy: a chain offer's managed action reads the request's own form.
  const formData = await request.clone().formData();
  const intent = String(formData.get("intent") ?? "");
  const back = safeRedirect(formData.get("back"), here);
  const reply = (data: Omit<OfferActionData, "intent">, status: number) => json<OfferActionData>({ intent, ...data }, { status });
  const fail = (message: string, status = 400) => reply({ result: null, failed: message }, status);
  if (!user.WalletAddress) return fail(BIND_WALLET_MESSAGE);
  const address = checksummed(user.WalletAddress);
  const signing = (proof: OrderProof | undefined, ttlSeconds?: number) =>
    user.BindAddrType === BIND_ADDR_TYPE.managed ? custodian(ttlSeconds) : proof;
  const done = (message: string) => redirectWithToast(request, back, makeToast("success", message));

  try {
    const onChain = await chainOfferPost(request, formData, { user, apis: signedIn }, here);
    if (onChain) return onChain;
    if (intent === "offer") {
      const submission = parseWithZod(formData, { schema: SellSchema });
      if (submission.status !== "success") return reply({ result: submission.reply(), failed: null }, 400);
      const terms = offerTermsOf(url.searchParams);
      if (!terms) return fail(NO_TERMS);
      const { price, currency, days } = submission.value;
      const wei = parseTokenAmount(price)!.toString();
      await offers.make(address, { ...terms, price: wei, currency }, signing(proofFrom(submission.value), days * 86_400));
      return await done(`Offer made: ${formatPrice(wei, currency)}.`);
    }
    if (intent === "offer-cancel") {
      const submission = parseWithZod(formData, { schema: CancelSchema });
      if (submission.status !== "success") return fail("This form is missing its offer. Reload the page.");
      await offers.cancel(address, submission.value.offerId, signing(proofFrom(submission.value)));
      return await done("Offer cancelled.");
    }
    if (intent === "offer-cancel-all") {
      const submission = parseWithZod(formData, { schema: CancelAllSchema });
      if (submission.status !== "success") return fail("This form is missing its counter. Reload the page.");
      const proof = proofFrom(submission.value);
      const result = await offers.cancelAll(address, submission.value.counter, signing(proof));
      return await done(result.cancelled === 1 ? "Cancelled 1 offer." : `Cancelled ${result.cancelled} offers.`);
    }
    if (intent === "offer-accept") {
      const submission = parseWithZod(formData, { schema: AcceptSchema });
      if (submission.status !== "success") return fail("This form is missing its offer or item. Reload the page.");
      const { offerId, tokenId, nftType } = submission.value;
      const ref = { tokenId, nftType };
      // The accept order names the offer's buyer, price and currency: the market's, never the form's.
      const offer = (await offers.itemOffers(ref, { offerId })).records.find((open) => open.id === offerId);
      if (!offer) return fail(NOT_OPEN, 409);
      const { sale } = await offers.accept(address, offer, ref, signing(proofFrom(submission.value)));
      return await done(`Offer accepted: sold for ${formatPrice(sale.price, sale.currency)}.`);
    }
  } catch (error) {
    const problem = backendProblem(error);
    return fail(problem.message, problem.status);
  }
  return fail("Unknown action.");
}
