/**
 * An item's detail page, server side: the item, its trade state and move, and the trade actions (sell, cancel,
 * confirm-buy, buy, transfer). routes/marketplace.detail/route.tsx only delegates, so the page ships none of it.
 */
import type { SubmissionResult } from "@conform-to/react";
import { json } from "@remix-run/node";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { checksummed, isOwner, isSale } from "~/features/market/listing";
import { isAddress } from "viem";
import { loginHref } from "~/domain/login-href";
import { safeRedirect } from "~/domain/safe-redirect";
import { parseWithZod } from "@conform-to/zod";
import { BuySchema, ProofSchema, SellSchema, transferSchema } from "~/features/market/trade-action-schemas.server";
import type { TradeActionData } from "~/features/market/trade-state";
import { emitAnalytics, emitItemView } from "~/services/analytics.server";
import { apis, backendProblem, publicApis, signedInApis } from "~/services/apis.server";
import { itemView, typeLabel } from "~/features/market/market-views.server";
import { proofFrom } from "~/features/market/trade-action-schemas.server";
import { bridgeChainConfig, itemMove } from "~/features/bridge/bridge.server";
import { isChainIntent } from "~/features/market/chain-trade";
import { chainTradeOf, chainTradePost } from "~/features/market/chain-trade.server";
import { custodian, type OrderProof, type OrderSigning } from "~/services/orders.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { itemPageMetadata } from "~/services/token-metadata.server";
import { itemSectionsHtml } from "~/features/market/item-sections.server";
import { serverMarkup } from "~/services/server-html.server";
import { holderLink } from "~/features/players/player.server";
import { itemHistoryHtml } from "~/features/numbers/numbers.server";
import { readTokenRef } from "~/features/market/token-ref";
import { itemOffersView } from "~/features/offers/item-offers.server";
import { offersPageOf } from "~/features/offers/offer-views.server";
import { openOffers, visitorOffersHtml, visitorOffersUntil } from "~/features/offers/visitor-offers.server";
import { PAGE_CACHE_UNTIL_HEADER } from "~/services/page-headers.server";
import { itemShare } from "~/features/share/item-share.server";
import { siteUrl } from "~/services/share-tags.server";

export { readTokenRef };
import type { TokenRef } from "~core/api/market";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import { formatPrice, formatWei, isCurrency, parseTokenAmount, shownAmount } from "~core/money";
import { LISTING_CHANGED_MESSAGE } from "~core/orders";

/** Where the detail page's back link may go: a marketplace page or a player's page of this site, else the market. */
export function safeBack(back: string | null): string {
  const to = safeRedirect(back, "/marketplace/market");
  const listPage = to === "/marketplace" || to.startsWith("/marketplace/") || to.startsWith("/marketplace?") || to.startsWith("/player/");
  return listPage ? to : "/marketplace/market";
}

/** The request's own path and query: where a form posts back to. */
function here(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** The account's wallet for trading: null when none is bound. */
function tradingWallet(user: UserInfo | null | undefined): { address: string; bindAddrType: number } | null {
  return user?.WalletAddress ? { address: checksummed(user.WalletAddress), bindAddrType: user.BindAddrType } : null;
}

/** Who signs the wallet's order: its custodian for a managed wallet (web path), else the proof its island posted. */
function signingOf(wallet: { bindAddrType: number }, proof: OrderProof | undefined, ttlSeconds?: number): OrderSigning {
  return wallet.bindAddrType === BIND_ADDR_TYPE.managed ? custodian(ttlSeconds) : proof;
}

/**
 * The seller and currency of the listing a managed wallet buys, for the order its custodian signs: the confirmation
 * form's (what the buyer reviewed), else the item's listing now; none when it has none (the market says why).
 */
async function listingSigned(ref: TokenRef, wallet: string, form: { seller?: string; currency?: string }) {
  if (form.seller && isAddress(form.seller) && form.currency) return { seller: form.seller, currency: form.currency };
  const detail = await publicApis().market.tokenDetail(ref, wallet);
  return detail.listing && detail.currency ? { seller: detail.listing.sellerAddress, currency: detail.currency } : {};
}

/** The detail page's data: the item by name, its owner ("You" when it is the session's wallet), status and views. */

export async function detailPage(request: Request) {
  const url = new URL(request.url);
  const back = safeBack(url.searchParams.get("back"));
  const { ref, problem } = readTokenRef(url.searchParams);
  const empty = {
    back,
    item: null,
    sections: serverMarkup(""),
    problem,
    redirectTo: here(request),
    trade: null,
    move: null,
    bridgeChain: null,
    chainTrade: null,
    offers: null,
    share: null,
  };
  if (!ref) return json(empty, { status: problem ? 400 : 200 });

  const { token, user, wallet, market, orders, offers } = await apis(request);
  // Product §7: views/add on every visit; the backend counts one per visitor per day. Counting is best effort.
  const viewed = market.addView(ref).catch((error: unknown) => {
    backendProblem(error); // throws anything but a backend failure on, such as the expired-session redirect
    return null;
  });
  let detail;
  try {
    [detail] = await Promise.all([publicApis().market.tokenDetail(ref, wallet), viewed]);
  } catch (error) {
    const failure = backendProblem(error);
    if (failure.status === 404) throw json("We can’t find this item.", { status: 404 });
    return json({ ...empty, problem: failure.message }, { status: failure.status });
  }
  const views = Math.max(detail.views, (await viewed)?.views ?? 0);
  // The item as the purchase event names it, so a view and a sale of one NFT line up.
  emitItemView(request, `${ref.nftType}-${ref.tokenId}`);
  const bound = tradingWallet(user);
  // A browser wallet signs with the order context (domain and counter); a managed wallet never needs it.
  const signs = bound && bound.bindAddrType !== BIND_ADDR_TYPE.managed;
  // product §7: a chain-held item shows its token's metadata, read through tokenURI.
  const [orderContext, chainMetadata, chainTrade, holder, historyHtml] = await Promise.all([
    signs ? orders.orderContext(bound.address).catch(() => null) : null,
    itemPageMetadata(detail),
    // Issue 28: a chain-held item trades through the trading contract; its forms need the contract's fee.
    chainTradeOf(
      { ...detail, isOwner: isOwner(detail.ownerAddress, bound?.address) },
      detail.listing?.venue === "chain" ? detail.listing.chainOrder : null,
      bound,
    ),
    // Issue 29: the holder (the seller, when listed) links to their public player page.
    holderLink(detail.ownerAddress),
    // Issue 30: the item's price history, server markup after its read-only sections.
    itemHistoryHtml(ref, url),
  ]);
  const item = { ...itemView(detail, { wallet, views, chainMetadata }), chainTradable: chainTrade !== null, ...holder };
  // A visitor sees the open offers as read-only markup; a signed-in viewer gets the section with its forms.
  const visitorOffers = token
    ? null
    : await offers.itemOffers(ref).then(
        ({ records, total }) => ({ open: openOffers(records), total }),
        () => null,
      );
  // The read-only sections reach the page as markup; their data is not sent twice.
  const { metadataSource, metadata, named, stats, history, ...shown } = item;
  // A holder's page carries the item move's idempotency key: never from a cache (Back would replay a used key).
  const noStore = bound ? { headers: { "Cache-Control": "no-store" } } : undefined;
  // A cached visitor's page is rendered afresh when its first offer expires.
  const offersUntil = visitorOffers && visitorOffersUntil(visitorOffers.open);
  const init = noStore ?? (offersUntil ? { headers: { [PAGE_CACHE_UNTIL_HEADER]: String(offersUntil) } } : undefined);
  return json(
    {
      trade: { loggedIn: Boolean(token), wallet: bound, loginHref: loginHref(here(request)), orderContext },
      back,
      problem: null,
      redirectTo: here(request),
      item: shown,
      sections: serverMarkup(
        itemSectionsHtml({ tokenId: item.tokenId, metadataSource, metadata, named, stats, history }) +
          (visitorOffers ? visitorOffersHtml(visitorOffers.open, ref, visitorOffers.total) : "") +
          historyHtml,
      ),
      move: bound ? itemMove(item, detailUrl(request)) : null,
      // A browser wallet signs the move itself, in an island that needs the chain's addresses.
      bridgeChain: bound && bound.bindAddrType !== BIND_ADDR_TYPE.managed ? bridgeChainConfig() : null,
      chainTrade,
      // Issue 30: a signed-in viewer's offers section (a visitor's page is cached, and offers change with balances).
      offers: token
        ? await itemOffersView({ orders, offers }, user, ref, item.isOwner, detailUrl(request), offersPageOf(url.searchParams))
        : null,
      // Issue 42: the page's share tags, its schema.org Product among them (root.tsx renders them).
      share: itemShare(item, siteUrl()),
    },
    init,
  );
}

/** The detail URL to come back to after an action (the same page, its query kept). */
function detailUrl(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return url.pathname + url.search;
}

const TOASTS = { sell: "Listed for sale.", cancel: "Sale cancelled.", buy: "Purchase complete.", transfer: "Transferred." } as const;

/**
 * The page's action (sell, cancel, confirm-buy, buy, transfer). Managed wallets post without a proof (the SSO signs
 * their order, orders.server.ts); browser wallets post the proof the island signed. Each answer is a redirect with a
 * toast or one TradeActionData: field errors as Conform replies, refusals as product §8's Failed alert, or the buy to
 * confirm.
 */
export async function detailPost(request: Request) {
  const { ref } = readTokenRef(new URL(request.url).searchParams);
  if (!ref) throw json("We can’t find this item.", { status: 404 });
  const back = detailUrl(request);
  // A chain form (issue 28) reads the body itself: peek at its intent on a copy.
  const posted = await request.clone().formData();
  if (isChainIntent(String(posted.get("intent") ?? ""))) return chainTradePost(request, posted, ref, back);
  const { user, orders } = await signedInApis(request, { returnTo: back });
  const wallet = tradingWallet(user);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const reply = (data: Omit<TradeActionData, "intent">, status = 200) => json<TradeActionData>({ intent, ...data }, { status });
  const invalid = (result: SubmissionResult<string[]>) => reply({ result, failed: null, confirm: null }, 400);
  const fail = (message: string, status = 400) => reply({ result: null, failed: message, confirm: null }, status);
  if (!wallet) return fail(BIND_WALLET_MESSAGE);

  try {
    if (intent === "sell") {
      const submission = parseWithZod(formData, { schema: SellSchema });
      if (submission.status !== "success") return invalid(submission.reply());
      const { price, currency, days } = submission.value;
      const signing = signingOf(wallet, proofFrom(submission.value), days * 86_400);
      await orders.sell(ref, { address: wallet.address, price: parseTokenAmount(price)!.toString(), currency }, signing);
      return redirectWithToast(request, back, makeToast("success", TOASTS.sell));
    }
    if (intent === "cancel") {
      const submission = parseWithZod(formData, { schema: ProofSchema });
      await orders.cancel(
        ref,
        wallet.address,
        signingOf(wallet, submission.status === "success" ? proofFrom(submission.value) : undefined),
      );
      return redirectWithToast(request, back, makeToast("success", TOASTS.cancel));
    }
    if (intent === "transfer") {
      const submission = parseWithZod(formData, { schema: transferSchema(wallet.address) });
      if (submission.status !== "success") return invalid(submission.reply());
      await orders.transfer(ref, { address: wallet.address, to: submission.value.to }, signingOf(wallet, proofFrom(submission.value)));
      return redirectWithToast(request, back, makeToast("success", TOASTS.transfer));
    }
    if (intent === "confirm-buy") {
      const detail = await publicApis().market.tokenDetail(ref, wallet.address);
      if (!isSale(detail) || !detail.listing) return fail("This item is not on sale any more.", 409);
      // The page was showing another listing (the item was relisted since): review it before confirming anything.
      if (formData.get("listingId") !== String(detail.listing.id)) return fail(LISTING_CHANGED_MESSAGE, 409);
      const { balances } = await orders.gameBalances(1);
      const currency = detail.currency ?? "FIRE";
      const balance = (isCurrency(currency) && balances[currency]) || "0";
      const confirm = {
        listingId: String(detail.listing.id),
        seller: checksummed(detail.listing.sellerAddress),
        priceWei: detail.price!,
        currency,
        price: formatPrice(detail.price!, currency),
        balance: shownAmount(balance, currency, "balance"),
        affordable: BigInt(balance) >= BigInt(detail.price!),
      };
      return reply({ result: null, failed: null, confirm });
    }
    if (intent === "buy") {
      const submission = parseWithZod(formData, { schema: BuySchema });
      if (submission.status !== "success") return fail("This purchase is missing its listing or price. Open the item again.");
      const { priceWei, listingId } = submission.value;
      const signing = signingOf(wallet, proofFrom(submission.value));
      const listing = signing && "custodian" in signing ? await listingSigned(ref, wallet.address, submission.value) : {};
      const sale = await orders.buy(ref, { address: wallet.address, price: priceWei, listingId, ...listing }, signing);
      emitAnalytics({
        event: "purchase",
        value: formatWei(sale.sale.price),
        currency: sale.sale.currency,
        transaction_id: sale.sale.transactionId,
        items: [
          {
            item_id: `${ref.nftType}-${ref.tokenId}`,
            item_name: sale.name,
            item_category: typeLabel(sale.nftType),
            price: formatWei(sale.sale.price),
            quantity: 1,
          },
        ],
      });
      return redirectWithToast(request, back, makeToast("success", TOASTS.buy));
    }
  } catch (error) {
    // 409: the item changed under the page (sold, relisted, repriced).
    const problem = backendProblem(error);
    return fail(problem.message, problem.status);
  }
  return fail("Unknown action.");
}

export { loaderCacheControl } from "~/services/page-headers.server";
