import { json } from "@remix-run/node";
import { checksummed, flattenAttributes, gradeLabel, gradeName, isOwner, isSale, namedAttributes, spaceshipStats } from "~/domain/listing";
import { formatPrice, formatWei, isCurrency, parseTokenAmount } from "~core/money";
import { parseWithZod } from "@conform-to/zod";
import { BuySchema, ProofSchema, SellSchema, transferSchema } from "~/components/market/trade-panel";
import { expiryIn, LISTING_CHANGED_MESSAGE } from "~core/orders";
import { loginHref } from "~/domain/safe-redirect";
import { requireUser, withSession } from "~/services/auth.server";
import { emitAnalytics } from "~/services/analytics.server";
import { ordersApi, proofFrom } from "~/services/orders.server";
import { type UserInfo, BIND_ADDR_TYPE } from "~core/api/sso";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { backendClients } from "~/services/backends.server";
import { BackendError } from "~/services/http-client.server";
import type { ActivityEvent, HistoryEvent, OrderContext, TokenRef } from "~core/api/market";
import { marketApi } from "~/services/market.server";
import { shortAddress } from "~core/address";
import { backendProblem, formatTime, here, safeBack, typeLabel, viewer } from "./marketplace.shared.server";
import { NFT_TYPE } from "~core/nft";

const EVENT_NAMES: Record<ActivityEvent, string> = { list: "Listed", sale: "Sold", cancel: "Sale cancelled", transfer: "Transferred" };

/** One row of the item's history; a transfer has no price. */
export function historyRow(event: HistoryEvent, index: number) {
  return {
    key: `${event.at}-${index}`,
    event: EVENT_NAMES[event.event],
    price: event.event === "transfer" ? "—" : formatPrice(event.price, event.currency),
    from: shortAddress(checksummed(event.fromAddress)),
    to: event.toAddress ? shortAddress(checksummed(event.toAddress)) : null,
    at: formatTime(event.at),
  };
}

/** tokenId and nftType from the query: both absent (no item chosen), both valid, or a message saying what is wrong. */
export function readTokenRef(params: URLSearchParams): { ref: TokenRef | null; problem: string | null } {
  const tokenId = params.get("tokenId")?.trim() ?? "";
  const nftType = params.get("nftType")?.trim() ?? "";
  if (!tokenId && !nftType) return { ref: null, problem: null };
  if (!/^\d{1,78}$/.test(tokenId)) return { ref: null, problem: "This link does not name an item: tokenId must be a whole number." };
  if (!/^[0-8]$/.test(nftType)) return { ref: null, problem: "This link does not name an item: nftType must be a type code from 0 to 8." };
  return { ref: { tokenId: BigInt(tokenId).toString(), nftType: Number(nftType) }, problem: null };
}

/** The detail page's data: the item by name, its owner ("You" when it is the session's wallet), status and views. */
export async function loadDetail(request: Request) {
  const url = new URL(request.url);
  const back = safeBack(url.searchParams.get("back"));
  const { ref, problem } = readTokenRef(url.searchParams);
  const empty = { back, item: null, problem, redirectTo: here(request), trade: null };
  if (!ref) return json(empty, { status: problem ? 400 : 200 });

  const { token, user, wallet } = await viewer(request);
  const market = marketApi(backendClients(token).market);
  // SPEC §7: views/add on every visit; the backend counts one per visitor per day. Counting is best effort.
  const viewed = withSession(request, () => market.addView(ref)).catch((error: unknown) => {
    if (error instanceof BackendError) return null;
    throw error;
  });
  let detail;
  try {
    [detail] = await Promise.all([marketApi(backendClients(null).market).tokenDetail(ref, wallet), viewed]);
  } catch (error) {
    if (error instanceof BackendError && error.status === 404) throw json("We can’t find this item.", { status: 404 });
    const failure = backendProblem(error);
    return json({ ...empty, problem: failure.message }, { status: failure.status });
  }
  const views = Math.max(detail.views, (await viewed)?.views ?? 0);
  const owner = checksummed(detail.ownerAddress);
  const onSale = isSale(detail);
  const stats = detail.nftType === NFT_TYPE.spaceship ? spaceshipStats(detail) : undefined;
  const bound = tradingWallet(user);
  // A browser wallet signs with the order context (domain and counter); a managed wallet never needs it.
  let orderContext: OrderContext | null = null;
  if (bound && bound.bindAddrType !== BIND_ADDR_TYPE.managed) {
    orderContext = await ordersApi(backendClients(token).market)
      .orderContext(bound.address)
      .catch(() => null);
  }
  return json({
    trade: {
      loggedIn: Boolean(token),
      wallet: bound,
      loginHref: loginHref(here(request)),
      orderContext,
    },
    back,
    problem: null,
    redirectTo: here(request),
    item: {
      tokenId: detail.tokenId,
      nftType: detail.nftType,
      name: detail.name,
      image: detail.image,
      typeLabel: typeLabel(detail.nftType),
      grade: gradeLabel(detail) ? { label: gradeName(detail.nftType), value: gradeLabel(detail)! } : null,
      amount: detail.amount,
      location: detail.location,
      owner,
      isOwner: isOwner(owner, wallet),
      onSale,
      price: onSale ? formatPrice(detail.price!, detail.currency) : null,
      priceWei: onSale ? detail.price! : null,
      currency: detail.currency ?? null,
      // A Buy names the listing it fills: the page posts the listing it showed, the island signs it with its seller.
      listingId: detail.listing ? String(detail.listing.id) : null,
      seller: detail.listing ? checksummed(detail.listing.sellerAddress) : null,
      listedAt: detail.listedAt ? formatTime(detail.listedAt) : null,
      named: namedAttributes(detail),
      metadata: Object.entries(flattenAttributes(detail.attributes)).map(([name, value]) => ({ name, value: String(value) })),
      stats: stats ?? null,
      views,
      favorite: { tokenId: detail.tokenId, nftType: detail.nftType, isFavorite: detail.isFavorite ?? false, favorites: detail.favorites },
      history: detail.history.map(historyRow),
    },
  });
}

// ---- trade actions (sell / cancel / buy / transfer) ------------------------------------------------------

/** The account's wallet for trading: null when none is bound. */
function tradingWallet(user: UserInfo | null | undefined): { address: string; bindAddrType: number } | null {
  return user?.WalletAddress ? { address: checksummed(user.WalletAddress), bindAddrType: user.BindAddrType } : null;
}

/** The detail URL to come back to after an action (the same page, its query kept). */
function detailUrl(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return url.pathname + url.search;
}

const TOASTS = { sell: "Listed for sale.", cancel: "Sale cancelled.", buy: "Purchase complete.", transfer: "Transferred." } as const;

/**
 * The page's action. Managed wallets post without a proof (the backend signs); browser wallets post the
 * proof the island signed. Field errors come back as Conform replies, backend refusals as SPEC §8's Failed alert.
 */
export async function tradeAction(request: Request) {
  const url = new URL(request.url);
  const { ref } = readTokenRef(url.searchParams);
  if (!ref) throw json("We can’t find this item.", { status: 404 });
  const { token, user } = await requireUser(request);
  const wallet = tradingWallet(user);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (!wallet) return json({ intent, result: null, failed: "Please bind a wallet address", confirm: null }, { status: 400 });
  const orders = ordersApi(backendClients(token).market);
  const back = detailUrl(request);
  const fail = (message: string, status = 400) => json({ intent, result: null, failed: message, confirm: null }, { status });

  try {
    if (intent === "sell") {
      const submission = parseWithZod(formData, { schema: SellSchema });
      if (submission.status !== "success") return json({ intent, result: submission.reply(), failed: null, confirm: null }, { status: 400 });
      const { price, currency, days } = submission.value;
      const proof = proofFrom(submission.value) ?? { expiry: Number(expiryIn(days * 86_400)) };
      await withSession(request, () => orders.sell(ref, { address: wallet.address, price: parseTokenAmount(price)!.toString(), currency }, proof), back);
      return redirectWithToast(request, back, makeToast("success", TOASTS.sell));
    }
    if (intent === "cancel") {
      const submission = parseWithZod(formData, { schema: ProofSchema });
      const proof = submission.status === "success" ? proofFrom(submission.value) : undefined;
      await withSession(request, () => orders.cancel(ref, wallet.address, proof), back);
      return redirectWithToast(request, back, makeToast("success", TOASTS.cancel));
    }
    if (intent === "transfer") {
      const submission = parseWithZod(formData, { schema: transferSchema(wallet.address) });
      if (submission.status !== "success") return json({ intent, result: submission.reply(), failed: null, confirm: null }, { status: 400 });
      const to = submission.value.to;
      await withSession(request, () => orders.transfer(ref, { address: wallet.address, to }, proofFrom(submission.value)), back);
      return redirectWithToast(request, back, makeToast("success", TOASTS.transfer));
    }
    if (intent === "confirm-buy") {
      const detail = await marketApi(backendClients(null).market).tokenDetail(ref, wallet.address);
      if (!isSale(detail) || !detail.listing) return fail("This item is not on sale any more.", 409);
      // The page was showing another listing (the item was relisted since): review it before confirming anything.
      if (formData.get("listingId") !== String(detail.listing.id)) return fail(LISTING_CHANGED_MESSAGE, 409);
      const { balances } = await withSession(request, () => orders.gameBalances(1), back);
      const currency = detail.currency ?? "FIRE";
      const balance = (isCurrency(currency) && balances[currency]) || "0";
      return json({
        intent,
        result: null,
        failed: null,
        confirm: {
          listingId: String(detail.listing.id),
          seller: checksummed(detail.listing.sellerAddress),
          priceWei: detail.price!,
          currency,
          price: formatPrice(detail.price!, currency),
          balance: formatPrice(balance, currency),
          affordable: BigInt(balance) >= BigInt(detail.price!),
        },
      });
    }
    if (intent === "buy") {
      const submission = parseWithZod(formData, { schema: BuySchema });
      if (submission.status !== "success") return fail("This purchase is missing its listing or price. Open the item again.");
      const { priceWei, listingId } = submission.value;
      const sale = await withSession(request, () => orders.buy(ref, { address: wallet.address, price: priceWei, listingId }, proofFrom(submission.value)), back);
      emitAnalytics({
        event: "purchase",
        value: formatWei(sale.sale.price),
        currency: sale.sale.currency,
        transaction_id: sale.sale.transactionId,
        items: [{ item_id: `${ref.nftType}-${ref.tokenId}`, item_name: sale.name, item_category: typeLabel(sale.nftType), price: formatWei(sale.sale.price), quantity: 1 }],
      });
      return redirectWithToast(request, back, makeToast("success", TOASTS.buy));
    }
  } catch (error) {
    if (error instanceof BackendError) {
      if (error.status >= 500) return fail(`The market could not be reached: ${error.message}`, 502);
      // 409: the item changed under the page (sold, relisted, repriced); anything else is a bad request.
      return fail(error.message, error.status === 409 ? 409 : 400);
    }
    throw error;
  }
  return fail("Unknown action.");
}
