/**
 * Offers on chain-held items (issue 30, decision 0024) through the offers' one action (POST /marketplace/offers): the
 * same intents as game offers, sent to the chain when the offer is one. A managed wallet's make first has the executor
 * raise the trading contract's allowance (trade.offerApprove) to what its open chain offers in that currency need, then
 * the SSO signs the TradeOffer and the market stores it (chainOffer); accept, cancel and cancel all (the trading
 * counter, shared with chain listings) are executor actions followed on their status page. A browser wallet posts the
 * TradeOffer its island signed, forwarded as it is.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { erc20Abi, type Address } from "viem";
import { z } from "zod";
import { tradingAbi } from "../../../contracts/generated/abi";
import type { ActionRequest, Execution } from "~core/api/actions";
import type { ChainOffer } from "~core/api/market";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import { formatPrice, parseTokenAmount, type Currency } from "~core/money";
import { tradingCurrencies } from "~core/trading";
import { safeRedirect } from "~/domain/safe-redirect";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import {
  CHAIN_DOWN_MESSAGE,
  invalid,
  isRefusal,
  managedAction,
  refusal,
  typed,
  type ManagedPost,
  type Refusal,
} from "~/features/actions/managed-action.server";
import { collectionOf } from "~/features/market/chain-trade.server";
import { chainOfferFrom, listingProofFrom, SellSchema } from "~/features/market/trade-action-schemas.server";
import { readTokenRef } from "~/features/market/token-ref";
import { backendProblem, publicApis, type Apis } from "~/services/apis.server";
import { chain, walletFromUserInfo } from "~/services/chain.server";
import { type FollowUpForm, registerActionFeature } from "~/services/action-features.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import type { ChainOfferTerms } from "~/services/offers.server";
import {
  CHAIN_OFFER_BNB,
  CHAIN_OFFER_ITEMS,
  CHAIN_OFFER_UNPAYABLE,
  CHAIN_OFFERS_MANAGED_ONLY,
  chainCollectionOfferable,
  chainOfferAllowance,
  chainOfferCriteria,
  chainOfferNoFunds,
  pendingOfferOf,
  PAY_FROM,
  withPendingOffer,
} from "./chain-offer-rules";
import { collectionTermsOf } from "./collection-filter.server";
import { type OfferActionData, OFFERS_PATH } from "./offer-views";

const uint = z
  .string()
  .regex(/^\d{1,78}$/)
  .optional();
/** The offer form, with what a browser wallet's island signed of the TradeOffer (salt, expiry, counter, signature). */
const ChainOfferSchema = SellSchema.omit({ nonce: true, chainId: true, expiry: true }).extend({ salt: uint, expiry: uint, counter: uint });

const OFFER_FIELDS = ["price", "currency", "days", "payFrom"] as const;

/** What the offers page's URL makes a chain offer on: a chain-held card or loot box, or (paid from the wallet) a card type. */
export type ChainTarget = { kind: "item"; tokenId: string; collection: Address | null } | { kind: "collection"; nftType: number };

/** The chain offer a post is about; null when it is a game offer (the ledger's path). */
type ChainSubject =
  | { intent: "offer"; target: ChainTarget }
  | { intent: "offer-accept"; offer: ChainOffer; tokenId: string; payable: boolean }
  | { intent: "offer-cancel"; offer: ChainOffer }
  | { intent: "offer-chain-cancel-all" };

/** The chain target of an "offer" post: a chain-held item of the URL, or its card-type view with "Pay from: wallet on chain". */
export async function chainTargetOf(search: URLSearchParams, payFrom: FormDataEntryValue | null): Promise<ChainTarget | null> {
  const { ref } = readTokenRef(search);
  if (ref) {
    const detail = await publicApis().market.tokenDetail(ref);
    if (detail.location !== "chain") return null;
    return { kind: "item", tokenId: ref.tokenId, collection: collectionOf(ref, chain().deployment.contracts) };
  }
  const collection = collectionTermsOf(search);
  if (!collection || payFrom !== PAY_FROM.chain || !chainCollectionOfferable(collection.nftType)) return null;
  return { kind: "collection", nftType: collection.nftType };
}

const id = z.string().regex(/^[1-9]\d{0,14}$/);
const AcceptFields = z.object({ offerId: id, tokenId: z.string().regex(/^\d{1,78}$/), nftType: z.coerce.number().int().min(0).max(8) });

/** Which chain offer a post is about, read from the market (the form names it, the market's record is what is sent). */
async function chainSubjectOf(request: Request, form: FormData, apis: Pick<Apis, "offers">): Promise<ChainSubject | null> {
  const intent = form.get("intent");
  if (intent === "offer") {
    const target = await chainTargetOf(new URL(request.url).searchParams, form.get("payFrom"));
    return target && { intent, target };
  }
  // A chain offer's accept and cancel post the offer whole: a second post of the form names the same executor action.
  const offer = chainOfferFrom(String(form.get("chainOffer") ?? "").slice(0, 4000));
  if (intent === "offer-accept" && offer) {
    const posted = AcceptFields.safeParse(Object.fromEntries(form));
    if (!posted.success) return null;
    const { offerId, tokenId, nftType } = posted.data;
    const open = (await apis.offers.itemOffers({ tokenId, nftType }, { offerId })).records.find((record) => record.id === offerId);
    return { intent, offer, tokenId, payable: open?.payable ?? true };
  }
  if (intent === "offer-cancel" && offer) return { intent, offer };
  return intent === "offer-chain-cancel-all" ? { intent } : null;
}

/** The collection and criteria a chain offer on `target` signs; null for a material stack, which offers cannot name. */
export function chainOfferNames(target: ChainTarget) {
  const { contracts } = chain().deployment;
  const collection = target.kind === "item" ? target.collection : contracts.card;
  if (!collection || collection === contracts.items) return null;
  return { collection, ...chainOfferCriteria(target.kind === "item" ? { tokenId: target.tokenId } : { nftType: target.nftType }) };
}

/** The chain offer's terms from the form and its target, or why not (BNB, a stack, a bad price). */
function offerTerms(form: FormData, target: ChainTarget, wallet: Address) {
  const submission = parseWithZod(form, { schema: ChainOfferSchema });
  if (submission.status !== "success") return invalid(submission.error);
  const value = submission.value;
  if (value.currency === "BNB") return refusal(CHAIN_OFFER_BNB, { field: "currency" });
  const names = chainOfferNames(target);
  if (!names) return refusal(CHAIN_OFFER_ITEMS);
  const terms: ChainOfferTerms = {
    buyer: wallet,
    ...names,
    currency: tradingCurrencies(chain().deployment.contracts)[value.currency],
    price: parseTokenAmount(value.price)!,
  };
  return { terms, value, currency: value.currency as Exclude<Currency, "BNB"> };
}

/** Stores the offer; the page it was made from again with a toast, or the market's refusal. */
async function storeOffer(
  request: Request,
  back: string,
  apis: Apis,
  made: Exclude<ReturnType<typeof offerTerms>, Refusal>,
  signing: Parameters<Apis["offers"]["chainOffer"]>[1],
) {
  try {
    await apis.offers.chainOffer(made.terms, signing);
  } catch (error) {
    const problem = backendProblem(error);
    return refusal(problem.message, { status: problem.status });
  }
  return redirectWithToast(request, back, makeToast("success", `Offer made on chain: ${formatPrice(made.terms.price, made.currency)}.`));
}

/**
 * A managed buyer's offer: refused when the wallet's balance is short; else the executor's approval first when the
 * allowance does not cover this price and the wallet's other open chain offers in the currency; then signed and stored.
 */
async function managedOffer(
  { form, wallet, idempotencyKey, apis }: ManagedPost<string>,
  target: ChainTarget,
  request: Request,
  back: string,
) {
  const made = offerTerms(form, target, wallet);
  if (isRefusal(made)) return made;
  const { client, deployment } = chain();
  const token = { address: made.terms.currency, abi: erc20Abi } as const;
  const read = await Promise.all([
    client.readContract({ ...token, functionName: "balanceOf", args: [wallet] }),
    client.readContract({ ...token, functionName: "allowance", args: [wallet, deployment.contracts.trading] }),
    client.readContract({ address: deployment.contracts.trading, abi: tradingAbi, functionName: "counterOf", args: [wallet] }),
  ]).catch(() => null);
  if (!read) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  const [balance, allowance, counter] = read;
  if (balance < made.terms.price) return refusal(chainOfferNoFunds(made.currency), { status: 409, field: "price" });
  const needed = chainOfferAllowance(await apis.offers.myOffers(), made.currency, made.terms.price, Math.floor(Date.now() / 1000));
  if (allowance < needed)
    return {
      action: "trade.offerApprove",
      params: { currency: made.terms.currency, amount: needed.toString() },
      idempotencyKey,
    } satisfies ActionRequest;
  const custodial = {
    custodian: true as const,
    counter,
    ttlSeconds: made.value.days * 86_400,
    chainId: deployment.chainId,
    trading: deployment.contracts.trading,
  };
  return storeOffer(request, back, apis, made, custodial);
}

async function plan(
  post: ManagedPost<string>,
  subject: ChainSubject,
  request: Request,
  back: string,
): Promise<ActionRequest | Refusal | Response> {
  const { idempotencyKey } = post;
  switch (subject.intent) {
    case "offer":
      return managedOffer(post, subject.target, request, back);
    case "offer-accept":
      // The market's payability, read from the chain just now: acceptOffer would refuse it in the same words. An offer
      // no longer open is left to the executor: the same form's action again, or its refusal in words.
      if (!subject.payable) return refusal(CHAIN_OFFER_UNPAYABLE, { status: 409 });
      return { action: "trade.acceptOffer", params: { offer: subject.offer, tokenId: subject.tokenId }, idempotencyKey };
    case "offer-cancel":
      return { action: "trade.cancelOffer", params: { offer: subject.offer }, idempotencyKey };
    case "offer-chain-cancel-all":
      return { action: "trade.cancelAll", params: {}, idempotencyKey };
  }
}

/** A refusal as the offers page shows one (OfferActionData): field errors with the offer form, the rest above it. */
function refused(intent: string, { status, errors }: Refusal, values: Record<string, string>) {
  const { "": whole, ...fields } = errors;
  const result: SubmissionResult<string[]> | null = intent === "offer" ? { status: "error", error: fields, initialValue: values } : null;
  return json<OfferActionData>({ intent, result, failed: whole?.[0] ?? null }, { status });
}

/** A browser wallet's chain offer: the TradeOffer its island signed, stored as signed. */
async function browserOffer(request: Request, form: FormData, target: ChainTarget, user: UserInfo, apis: Apis, back: string) {
  const made = offerTerms(form, target, walletFromUserInfo(user.WalletAddress)!);
  if (isRefusal(made)) return made;
  const proof = listingProofFrom(made.value);
  if (!proof) return refusal("This offer is missing its signature. Sign it again.");
  return storeOffer(request, back, apis, made, proof);
}

/**
 * The offers action's chain half: null when the post is about a game offer. `form` is a copy of the request's form
 * (managedAction reads the request's own); `here` is the offers page posted to.
 */
export async function chainOfferPost(
  request: Request,
  form: FormData,
  { user, apis }: { user: UserInfo; apis: Apis },
  here: string,
): Promise<Response | null> {
  const subject = await chainSubjectOf(request, form, apis);
  if (!subject) return null;
  const { intent } = subject;
  // A pending offer the page was opened with has served its purpose: the offer made, the page shows it among the wallet's.
  const requested = safeRedirect(form.get("back"), here);
  const back = pendingOfferOf(requested)?.page ?? requested;
  if (intent === "offer" && user.BindAddrType !== BIND_ADDR_TYPE.managed && form.get("signature")) {
    const stored = await browserOffer(request, form, subject.target, user, apis, back);
    return isRefusal(stored) ? refused(intent, stored, typed(form, OFFER_FIELDS)) : stored;
  }
  const response = await managedAction<string>(request, {
    intents: [intent],
    managedOnly: CHAIN_OFFERS_MANAGED_ONLY,
    // An offer's approval comes first (the only offer that reaches the status page): its way back carries the offer.
    back: intent === "offer" ? (posted) => withPendingOffer(back, typed(posted, OFFER_FIELDS)) : back,
    echo: (_, posted) => typed(posted, OFFER_FIELDS),
    plan: (post) => plan(post, subject, request, back),
  });
  // A redirect to the status page, or the offer stored (a toast); else managedAction's refusal, shown as the page's.
  if (!("data" in response)) return response;
  const { errors, values } = response.data;
  return refused(intent, { status: response.init?.status ?? 400, errors }, values);
}

/**
 * Once the approval is mined, the offer it was for, one press away on the status page: the form as the buyer typed it
 * (its way back carries it), posted under a new key. The offer is signed then, with the allowance in place.
 */
export async function offerApprovalFollowUp(execution: Execution, back: string): Promise<FollowUpForm | null> {
  const carried = pendingOfferOf(back);
  if (execution.status !== "mined" || !carried) return null;
  const { offer, page } = carried;
  return {
    action: page,
    fields: { intent: "offer", ...offer, back: page, idempotencyKey: newIdempotencyKey() },
    label: `Make the offer: ${offer.price} ${offer.currency}`,
  };
}

// Approvals for offers start from the offers page only: its way back leads there, with the offer as typed.
registerActionFeature("trade.offerApprove", {
  pages: /^\/marketplace\/offers(\?[\w=&%.-]{0,400})?$/,
  home: () => OFFERS_PATH,
  backLabel: () => "Back to your offers",
  followUp: offerApprovalFollowUp,
});
