/**
 * Chain listings on the item page (issue 28, decision 0015), server side: the loader's `chainTrade` (the trading
 * contract's fee and addresses, read from the chain) and the chain forms' posts. A managed wallet's forms go
 * through managedAction: "Sell on chain" first has the executor approve the trading contract (trade.approve) when
 * the wallet has not, else shows the exact fee, then builds the Listing, has the SSO sign it and posts chainSell;
 * cancel, cancel all, transfer, send and buy are the executor's trade.* actions, followed on their status page. A
 * browser wallet's island posts the listing it signed to the same sell form.
 */
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { erc721Abi, getAddress, type Address } from "viem";
import { tradingAbi } from "../../../contracts/generated/abi";
import type { ActionRequest, TradeOrderParams } from "~core/api/actions";
import type { ChainOrder, TokenRef } from "~core/api/market";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { chainStackOf, stackText } from "~core/item-moves";
import { formatPrice, parseTokenAmount, shownAmount } from "~core/money";
import { LISTING_STANDARD, tradingCurrencies, tradingCurrencyOf, tradingFee } from "~core/trading";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
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
import { chainStackAmount, readBridgeWallet, typedStackAmount } from "~/features/bridge/bridge.server";
import { registerActionFeature } from "~/services/action-features.server";
import { backendProblem, publicApis, signedInApis, type Apis } from "~/services/apis.server";
import { chain, walletFromUserInfo } from "~/services/chain.server";
import type { ListingTerms } from "~/services/orders.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { chainMovesOf, feePercent, type ChainIntent, type ChainTrade, type KeyedChainIntent } from "./chain-trade";
import type { ChainAnswer } from "./trade-state";
import { chainOrderFrom, ChainSellSchema, ChainSendSchema, chainTransferSchema, listingProofFrom } from "./trade-action-schemas.server";

type Contracts = ReturnType<typeof chain>["deployment"]["contracts"];

const MANAGED_INTENTS = [
  "chain-sell",
  "chain-cancel",
  "chain-cancel-all",
  "chain-transfer",
  "chain-send",
  "chain-buy",
] as const satisfies readonly KeyedChainIntent[];

export const CHAIN_MANAGED_ONLY =
  "These forms are for accounts with a managed wallet. With a browser wallet, trade on chain with your wallet (it needs JavaScript).";
export const LISTED_ON_CHAIN = "Listed on chain.";
export const NOT_ON_SALE = "This item is not on sale any more.";

/** The collection an item is a token of: the card collection, the loot box's, or SparkItems for a chain stack. */
export function collectionOf(item: { nftType: number; tokenId: string }, contracts: Contracts): Address | null {
  if (item.nftType === NFT_TYPE.lootbox) return contracts.box;
  if (chainStackOf(item.tokenId)) return item.nftType === NFT_TYPE.material ? contracts.items : null;
  if (CARD_COLLECTION_TYPES.includes(item.nftType)) return contracts.card;
  return null;
}

const readFeeBps = () => {
  const { client, deployment } = chain();
  return client.readContract({ address: deployment.contracts.trading, abi: tradingAbi, functionName: "feeBps" });
};

const readApproved = (wallet: Address, collection: Address) => {
  const { client, deployment } = chain();
  return client.readContract({
    address: collection,
    abi: erc721Abi,
    functionName: "isApprovedForAll",
    args: [wallet, deployment.contracts.trading],
  });
};

const readCounter = (wallet: Address) => {
  const { client, deployment } = chain();
  return client.readContract({ address: deployment.contracts.trading, abi: tradingAbi, functionName: "counterOf", args: [wallet] });
};

/**
 * The loader's `chainTrade`: for the owner of a chain-held card, loot box or material stack, and for a signed-in buyer
 * of a chain listing. Null for anything else, and while the chain cannot be read (the page then offers no chain form).
 */
export async function chainTradeOf(
  item: { nftType: number; tokenId: string; location: string; isOwner: boolean; amount: string },
  chainOrder: ChainOrder | null,
  bound: { address: string; bindAddrType: number } | null,
): Promise<ChainTrade | null> {
  if (item.location !== "chain" || !bound || (!item.isOwner && !chainOrder)) return null;
  const wallet = bound.address;
  const { deployment } = chain();
  const collection = collectionOf(item, deployment.contracts);
  if (!collection) return null;
  const stack = chainStackOf(item.tokenId);
  try {
    const [feeBps, approved] = await Promise.all([
      readFeeBps(),
      // A browser wallet's island approves and signs in one go: only a managed owner is shown the approval as a step.
      item.isOwner && bound.bindAddrType === BIND_ADDR_TYPE.managed ? readApproved(getAddress(wallet), collection) : Promise.resolve(null),
    ]);
    return {
      chainId: deployment.chainId,
      trading: deployment.contracts.trading,
      collection,
      moves: chainMovesOf(item.nftType),
      stack: stack && { id: stack.id.toString(), held: item.amount },
      currencies: tradingCurrencies(deployment.contracts),
      feeBps,
      chainOrder,
      approved,
      keys: Object.fromEntries(MANAGED_INTENTS.map((intent) => [intent, newIdempotencyKey()])) as ChainTrade["keys"],
    };
  } catch {
    return null;
  }
}

const answer = (data: ChainAnswer, status = 200) => json<ChainAnswer>(data, { status });

/** A refusal of a chain form outside managedAction, shaped as its answers are. */
const refused = (intent: ChainIntent, { status, errors }: Refusal, values: Record<string, string> = {}) =>
  answer({ intent, errors, values }, status);

const SELL_FIELDS = ["amount", "price", "currency", "days"] as const;

/** Posts a listing to chainSell: the item page again with a toast, or the market's refusal next to the form. */
async function listOnChain(
  request: Request,
  back: string,
  apis: Apis,
  terms: ListingTerms,
  signing: Parameters<Apis["orders"]["chainSell"]>[1],
) {
  try {
    await apis.orders.chainSell(terms, signing);
  } catch (error) {
    const problem = backendProblem(error);
    return refusal(problem.message, { status: problem.status });
  }
  return redirectWithToast(request, back, makeToast("success", LISTED_ON_CHAIN));
}

/**
 * The sell form's terms, read and checked; the collection is the item type's. A card or loot box is listed whole; a
 * chain stack lists `amount` of its SparkItems id (checked against the wallet's stack by the caller).
 */
function sellTerms(form: FormData, ref: TokenRef, wallet: Address, amount = 1n) {
  const submission = parseWithZod(form, { schema: ChainSellSchema });
  if (submission.status !== "success") return invalid(submission.error);
  const { contracts } = chain().deployment;
  const collection = collectionOf(ref, contracts);
  if (!collection) return refusal("This item cannot be listed on chain.");
  const value = submission.value;
  const stack = chainStackOf(ref.tokenId);
  const terms: ListingTerms = {
    seller: wallet,
    collection,
    standard: stack ? LISTING_STANDARD.erc1155 : LISTING_STANDARD.erc721,
    tokenId: stack ? stack.id.toString() : ref.tokenId,
    amount: stack ? amount : 1n,
    currency: tradingCurrencies(contracts)[value.currency],
    price: parseTokenAmount(value.price)!,
  };
  return { terms, value };
}

/**
 * A browser wallet's sell: the listing its island signed, posted as it is; a stack's amount checked against what the
 * wallet holds now, as a managed wallet's is (the market then checks the signature over that amount).
 */
async function browserSell(request: Request, ref: TokenRef, back: string) {
  const apis = await signedInApis(request, { returnTo: back });
  const wallet = walletFromUserInfo(apis.user.WalletAddress);
  const form = await request.formData();
  const values = typed(form, SELL_FIELDS);
  if (!wallet) return refused("chain-sell", refusal(BIND_WALLET_MESSAGE), values);
  const amount = await stackAmount(form, ref, wallet);
  if (amount && isRefusal(amount)) return refused("chain-sell", amount, values);
  const sell = sellTerms(form, ref, wallet, amount?.amount);
  if (isRefusal(sell)) return refused("chain-sell", sell, values);
  const proof = listingProofFrom(sell.value);
  if (!proof) return refused("chain-sell", refusal(STALE_FORM_MESSAGE), values);
  const listed = await listOnChain(request, back, apis, sell.terms, proof);
  return isRefusal(listed) ? refused("chain-sell", listed, values) : listed;
}

/**
 * A managed wallet's sell: the executor's approval first when the trading contract may not move the item; then the
 * listing's exact amounts to review; once confirmed, the listing built, signed by the SSO and posted.
 */
async function managedSell(
  { form, wallet, idempotencyKey, apis }: ManagedPost<ChainIntent>,
  ref: TokenRef,
  request: Request,
  back: string,
) {
  const amount = await stackAmount(form, ref, wallet);
  if (amount && isRefusal(amount)) return amount;
  const sell = sellTerms(form, ref, wallet, amount?.amount);
  if (isRefusal(sell)) return sell;
  const { terms, value } = sell;
  const { deployment } = chain();
  const approved = await readApproved(wallet, terms.collection).catch(() => null);
  if (approved === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (!approved) return { action: "trade.approve", params: {}, idempotencyKey } satisfies ActionRequest;
  const [feeBps, counter] = await Promise.all([readFeeBps(), readCounter(wallet)]).catch(() => [null, null] as const);
  if (feeBps === null || counter === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (!value.confirmed) {
    const fee = tradingFee(terms.price, feeBps);
    return answer({
      intent: "chain-sell",
      errors: {},
      values: { ...typed(form, SELL_FIELDS), idempotencyKey: newIdempotencyKey() },
      review: {
        ...(amount && { amount: stackText(terms.tokenId, terms.amount) }),
        price: formatPrice(terms.price, value.currency),
        fee: shownAmount(fee, value.currency, "cost"),
        feePercent: feePercent(feeBps),
        receive: formatPrice(terms.price - fee, value.currency),
        days: String(value.days),
      },
    });
  }
  const custodial = {
    custodian: true as const,
    counter,
    ttlSeconds: value.days * 86_400,
    chainId: deployment.chainId,
    trading: deployment.contracts.trading,
  };
  return listOnChain(request, back, apis, terms, custodial);
}

/**
 * How much of a chain stack the form names (all of it when left empty), checked against what the wallet holds now;
 * null for an item that is no stack.
 */
async function stackAmount(form: FormData, ref: TokenRef, wallet: Address): Promise<{ id: bigint; amount: bigint } | null | Refusal> {
  const stack = chainStackOf(ref.tokenId);
  if (!stack) return null;
  const requested = typedStackAmount(form);
  if (typeof requested === "object") return requested;
  const amount = await chainStackAmount(stack, wallet, requested);
  return typeof amount === "bigint" ? { id: stack.id, amount } : amount;
}

/** The item's chain listing now, as the executor takes it; null when it has none. */
async function chainOrderNow(ref: TokenRef, wallet: Address): Promise<TradeOrderParams["order"] | null> {
  const detail = await publicApis().market.tokenDetail(ref, wallet);
  return detail.listing?.venue === "chain" ? detail.listing.chainOrder : null;
}

/** The executor's request for a chain form of a managed wallet, or why not, or the sell's own answer. */
async function plan(
  post: ManagedPost<ChainIntent>,
  ref: TokenRef,
  request: Request,
  back: string,
): Promise<ActionRequest | Refusal | Response> {
  const { intent, form, wallet, idempotencyKey } = post;
  switch (intent) {
    case "chain-sell":
      return managedSell(post, ref, request, back);
    case "chain-cancel": {
      const order = await chainOrderNow(ref, wallet);
      return order ? { action: "trade.cancel", params: { order }, idempotencyKey } : refusal(NOT_ON_SALE, { status: 409 });
    }
    case "chain-cancel-all":
      return { action: "trade.cancelAll", params: {}, idempotencyKey };
    case "chain-transfer": {
      const submission = parseWithZod(form, { schema: chainTransferSchema(wallet) });
      if (submission.status !== "success") return invalid(submission.error);
      const to = getAddress(submission.value.to);
      const stack = await stackAmount(form, ref, wallet);
      if (stack && isRefusal(stack)) return stack;
      return stack
        ? {
            action: "trade.transferItems",
            params: { to, items: [{ id: stack.id.toString(), amount: stack.amount.toString() }] },
            idempotencyKey,
          }
        : {
            action: "trade.transferNft",
            params: { to, tokenIds: [ref.tokenId], ...(ref.nftType === NFT_TYPE.lootbox && { collection: "box" as const }) },
            idempotencyKey,
          };
    }
    case "chain-send": {
      const submission = parseWithZod(form, { schema: ChainSendSchema });
      if (submission.status !== "success") return invalid(submission.error);
      return { action: "trade.sendNft", params: { tokenId: ref.tokenId, account: getAddress(submission.value.account) }, idempotencyKey };
    }
    case "chain-buy": {
      // The order the buyer confirmed, whole: a listing filled since is refused by the executor in its words.
      const order = chainOrderFrom(String(form.get("order") ?? "").slice(0, 4000));
      // A stack's listing names its SparkItems id, not the market's token id of the seller's stack.
      const listed = chainStackOf(ref.tokenId)?.id.toString() ?? ref.tokenId;
      if (!order || order.tokenId !== listed) return refusal(STALE_FORM_MESSAGE);
      return { action: "trade.buy", params: { order }, idempotencyKey };
    }
    default:
      return refusal("Unknown action.");
  }
}

/** The buyer's confirmation: the listing read now, its fee, and the buyer's chain balance of its currency. */
async function confirmBuy(request: Request, ref: TokenRef, back: string) {
  const { user } = await signedInApis(request, { returnTo: back });
  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet) return refused("chain-confirm-buy", refusal(BIND_WALLET_MESSAGE));
  let order;
  try {
    order = await chainOrderNow(ref, wallet);
  } catch (error) {
    const problem = backendProblem(error);
    return refused("chain-confirm-buy", refusal(problem.message, { status: problem.status }));
  }
  const currency = order && tradingCurrencyOf(chain().deployment.contracts, order.currency);
  if (!order || !currency) return refused("chain-confirm-buy", refusal(NOT_ON_SALE, { status: 409 }));
  const read = await Promise.all([readFeeBps(), readBridgeWallet(wallet)]).catch(() => null);
  if (!read) return refused("chain-confirm-buy", refusal(CHAIN_DOWN_MESSAGE, { status: 503 }));
  const [feeBps, balances] = read;
  const price = BigInt(order.price);
  return answer({
    intent: "chain-confirm-buy",
    errors: {},
    values: {},
    confirm: {
      ...(order.standard === LISTING_STANDARD.erc1155 && { amount: stackText(order.tokenId, order.amount) }),
      price: formatPrice(price, currency),
      currency,
      fee: shownAmount(tradingFee(price, feeBps), currency, "cost"),
      feePercent: feePercent(feeBps),
      seller: getAddress(order.seller),
      balance: shownAmount(balances[currency], currency, "balance"),
      affordable: balances[currency] >= price,
      order: JSON.stringify(order),
    },
  });
}

/**
 * A chain form's post to the item page (`back`); `posted` is a copy of its form (the request's body is read again). The buyer's confirmation reads for any wallet; a sell carrying a
 * browser wallet's signature is posted as signed; everything else is a managed wallet's, through managedAction.
 */
export async function chainTradePost(request: Request, posted: FormData, ref: TokenRef, back: string) {
  const intent = posted.get("intent");
  if (intent === "chain-confirm-buy") return confirmBuy(request, ref, back);
  if (intent === "chain-sell" && posted.get("signature")) return browserSell(request, ref, back);
  return managedAction<ChainIntent>(request, {
    intents: MANAGED_INTENTS,
    managedOnly: CHAIN_MANAGED_ONLY,
    back,
    echo: (posted, form) => ({
      ...typed(form, posted === "chain-sell" ? SELL_FIELDS : ["to", "amount", "account"], 100),
      // Nothing was sent: the form shown again posts under a key of its own.
      idempotencyKey: newIdempotencyKey(),
    }),
    plan: (post) => plan(post, ref, request, back),
    // The executor refuses a wallet with no game profile: its words go next to the address typed.
    refusalField: (posted) => (posted === "chain-send" ? "account" : posted === "chain-transfer" ? "to" : undefined),
  });
}

// Chain offers (features/offers/chain-offer-actions.server.ts) start trade.* actions from the offers page and storage too.
registerActionFeature("trade.", {
  pages: /^\/marketplace\/(detail\?[\w=&%.-]{1,400}|offers(\?[\w=&%.-]{0,400})?|storage(\?[\w=&%.-]{0,400})?)$/,
  home: () => "/marketplace/storage",
  backLabel: (page) =>
    page.startsWith("/marketplace/offers")
      ? "Back to your offers"
      : page.startsWith("/marketplace/storage")
        ? "Back to storage"
        : "Back to the item",
});
