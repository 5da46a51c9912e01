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
import { erc721Abi, getAddress, zeroAddress, type Address } from "viem";
import { tradingAbi } from "../../../contracts/generated/abi";
import type { ActionRequest, TradeOrderParams } from "~core/api/actions";
import type { ChainOrder, TokenRef } from "~core/api/market";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { chainStackOf } from "~core/item-moves";
import { type Currency, formatPrice, isCurrency, parseTokenAmount, shownAmount } from "~core/money";
import { tradingFee } from "~core/trading";
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
import { readBridgeWallet } from "~/features/bridge/bridge.server";
import { registerActionFeature } from "~/services/action-features.server";
import { backendProblem, publicApis, signedInApis, type Apis } from "~/services/apis.server";
import { chain, walletFromUserInfo } from "~/services/chain.server";
import type { ListingTerms } from "~/services/orders.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { feePercent, type ChainIntent, type ChainTrade, type KeyedChainIntent } from "./chain-trade";
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
/** The executor approves the card collection only (backend/sso/executor/trading.ts). */
export const BOX_NEEDS_BROWSER_WALLET =
  "A loot box is listed on chain from a browser wallet for now: the wallet service approves the card collection only.";

/** The token address a Trading listing names for each currency; the zero address for BNB. */
export function chainCurrencies(contracts: Contracts): Record<Currency, Address> {
  return { FIRE: contracts.fire, QUARK: contracts.quark, USDT: contracts.usdt, BNB: zeroAddress };
}

/** The ERC-721 collection an item is a token of: the card collection, or the loot box's; none for a chain stack. */
export function collectionOf(item: { nftType: number; tokenId: string }, contracts: Contracts): Address | null {
  if (item.nftType === NFT_TYPE.lootbox) return contracts.box;
  if (CARD_COLLECTION_TYPES.includes(item.nftType) && chainStackOf(item.tokenId) === null) return contracts.card;
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
 * The loader's `chainTrade`: for the owner of a chain-held card or loot box, and for a signed-in buyer of a chain
 * listing (a loot box only for a browser wallet). Null for anything else, and while the chain cannot be read (the
 * page then offers no chain form).
 */
export async function chainTradeOf(
  item: { nftType: number; tokenId: string; location: string; isOwner: boolean },
  chainOrder: ChainOrder | null,
  bound: { address: string; bindAddrType: number } | null,
): Promise<ChainTrade | null> {
  if (item.location !== "chain" || !bound || (!item.isOwner && !chainOrder)) return null;
  const wallet = bound.address;
  const { deployment } = chain();
  const collection = collectionOf(item, deployment.contracts);
  if (!collection) return null;
  // The executor approves, moves and fills the card collection only: a managed wallet is offered nothing else.
  if (bound.bindAddrType === BIND_ADDR_TYPE.managed && collection !== deployment.contracts.card) return null;
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
      currencies: chainCurrencies(deployment.contracts),
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

const SELL_FIELDS = ["price", "currency", "days"] as const;

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

/** The sell form's terms, read and checked; the collection is the item type's (a chain stack has none to list in). */
function sellTerms(form: FormData, ref: TokenRef, wallet: Address) {
  const submission = parseWithZod(form, { schema: ChainSellSchema });
  if (submission.status !== "success") return invalid(submission.error);
  const { contracts } = chain().deployment;
  const collection = collectionOf(ref, contracts);
  if (!collection) return refusal("This item cannot be listed on chain.");
  const value = submission.value;
  const terms: ListingTerms = {
    seller: wallet,
    collection,
    tokenId: ref.tokenId,
    currency: chainCurrencies(contracts)[value.currency],
    price: parseTokenAmount(value.price)!,
  };
  return { terms, value };
}

/** A browser wallet's sell: the listing its island signed, posted as it is. */
async function browserSell(request: Request, ref: TokenRef, back: string) {
  const apis = await signedInApis(request, { returnTo: back });
  const wallet = walletFromUserInfo(apis.user.WalletAddress);
  const form = await request.formData();
  const values = typed(form, SELL_FIELDS);
  if (!wallet) return refused("chain-sell", refusal(BIND_WALLET_MESSAGE), values);
  const sell = sellTerms(form, ref, wallet);
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
  const sell = sellTerms(form, ref, wallet);
  if (isRefusal(sell)) return sell;
  const { terms, value } = sell;
  const { deployment } = chain();
  const approved = await readApproved(wallet, terms.collection).catch(() => null);
  if (approved === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (!approved) {
    if (terms.collection !== deployment.contracts.card) return refusal(BOX_NEEDS_BROWSER_WALLET);
    return { action: "trade.approve", params: {}, idempotencyKey } satisfies ActionRequest;
  }
  const [feeBps, counter] = await Promise.all([readFeeBps(), readCounter(wallet)]).catch(() => [null, null] as const);
  if (feeBps === null || counter === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (!value.confirmed) {
    const fee = tradingFee(terms.price, feeBps);
    return answer({
      intent: "chain-sell",
      errors: {},
      values: { ...typed(form, SELL_FIELDS), idempotencyKey: newIdempotencyKey() },
      review: {
        price: formatPrice(terms.price, value.currency),
        fee: `${formatPrice(fee, value.currency)} (${feePercent(feeBps)})`,
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
      return { action: "trade.transferNft", params: { to: getAddress(submission.value.to), tokenIds: [ref.tokenId] }, idempotencyKey };
    }
    case "chain-send": {
      const submission = parseWithZod(form, { schema: ChainSendSchema });
      if (submission.status !== "success") return invalid(submission.error);
      return { action: "trade.sendNft", params: { tokenId: ref.tokenId, account: getAddress(submission.value.account) }, idempotencyKey };
    }
    case "chain-buy": {
      // The order the buyer confirmed, whole: a listing filled since is refused by the executor in its words.
      const order = chainOrderFrom(String(form.get("order") ?? "").slice(0, 4000));
      if (!order || order.tokenId !== ref.tokenId) return refusal(STALE_FORM_MESSAGE);
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
  const currency = Object.entries(chainCurrencies(chain().deployment.contracts)).find(
    ([, address]) => order && address.toLowerCase() === order.currency.toLowerCase(),
  )?.[0];
  if (!order || !currency || !isCurrency(currency)) return refused("chain-confirm-buy", refusal(NOT_ON_SALE, { status: 409 }));
  const read = await Promise.all([readFeeBps(), readBridgeWallet(wallet)]).catch(() => null);
  if (!read) return refused("chain-confirm-buy", refusal(CHAIN_DOWN_MESSAGE, { status: 503 }));
  const [feeBps, balances] = read;
  const price = BigInt(order.price);
  return answer({
    intent: "chain-confirm-buy",
    errors: {},
    values: {},
    confirm: {
      price: formatPrice(price, currency),
      currency,
      fee: `${formatPrice(tradingFee(price, feeBps), currency)} (${feePercent(feeBps)})`,
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
      ...typed(form, posted === "chain-sell" ? SELL_FIELDS : ["to", "account"], 100),
      // Nothing was sent: the form shown again posts under a key of its own.
      idempotencyKey: newIdempotencyKey(),
    }),
    plan: (post) => plan(post, ref, request, back),
    // The executor refuses a wallet with no game profile: its words go next to the address typed.
    refusalField: (posted) => (posted === "chain-send" ? "account" : posted === "chain-transfer" ? "to" : undefined),
  });
}

registerActionFeature("trade.", {
  pages: /^\/marketplace\/detail\?[\w=&%.-]{1,400}$/,
  home: () => "/marketplace/storage",
  backLabel: () => "Back to the item",
});
