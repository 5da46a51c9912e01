/**
 * What the marketplace routes share on the server: canonical redirects that keep their notices, the viewer,
 * backend failures as page messages, and the view models of cards and trades.
 */
import { createCookie, redirect } from "@remix-run/node";
import { NFT_TYPE_LABELS, isCanonical } from "~/domain/filters";
import { gradeLabel, gradeName, isSale, namedAttributes, spaceshipStats } from "~/domain/listing";
import { shortAddress } from "~core/address";
import { formatPrice } from "~core/money";
import { type NftTypeCode, NFT_TYPE } from "~core/nft";
import { safeRedirect } from "~/domain/safe-redirect";
import type { ItemCardModel, TradeRowModel } from "~/components/market/types";
import { getAuth } from "~/services/auth.server";
import { getEnv } from "~/services/env.server";
import { BackendError } from "~/services/http-client.server";
import type { ListingRecord, TradeRecord } from "~core/api/market";

/** At most this many notices travel across the redirect (a cookie holds about 4 KB). */
const NOTICES_ACROSS_REDIRECT = 8;

let noticeCookie: ReturnType<typeof createCookie> | undefined;
function notices() {
  noticeCookie ??= createCookie("__market_notices", {
    path: "/marketplace",
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().publicUrl.startsWith("https:"),
    secrets: getEnv().sessionSecrets,
    // Only the redirect's own target reads it, right away.
    maxAge: 60,
  });
  return noticeCookie;
}

/**
 * A view's URL must be its canonical one: otherwise this throws a redirect there, with the parse notices in a
 * short-lived signed cookie addressed to that URL. On the canonical URL it returns the notices to show (the
 * parse's own plus those carried over) and the header that clears the cookie.
 */
export async function canonicalView(
  request: Request,
  { path, canonical, parseNotices }: { path: string; canonical: string; parseNotices: string[] },
): Promise<{ notices: string[]; headers: Headers }> {
  const url = new URL(request.url);
  const target = canonical ? `${path}?${canonical}` : path;
  const headers = new Headers();
  if (!isCanonical(url.search, canonical)) {
    const kept = parseNotices.slice(0, NOTICES_ACROSS_REDIRECT);
    if (parseNotices.length > kept.length) kept.push(`…and ${parseNotices.length - kept.length} more.`);
    if (kept.length) headers.append("Set-Cookie", await notices().serialize({ target, notices: kept }));
    throw redirect(target, { headers });
  }
  const carried = (await notices().parse(request.headers.get("Cookie"))) as { target?: string; notices?: unknown } | null;
  if (!carried) return { notices: parseNotices, headers };
  headers.append("Set-Cookie", await notices().serialize("", { maxAge: 0 }));
  const valid = carried.target === target && Array.isArray(carried.notices) && carried.notices.every((n) => typeof n === "string");
  return { notices: valid ? [...(carried.notices as string[]), ...parseNotices] : parseNotices, headers };
}

/** The session's token and bound wallet (empty when none is bound). */
export async function viewer(request: Request) {
  const { token, user } = await getAuth(request);
  return { token, user, wallet: user?.WalletAddress || undefined };
}

/**
 * A backend failure as a message on the page (the filters and links stay usable); a 401 is not one of these,
 * it goes through withSession. The status is the page's: 502 when the backend failed, 400 when it refused.
 */
export function backendProblem(error: unknown): { message: string; status: number } {
  if (error instanceof BackendError) {
    return error.status >= 500 || error.status === 429
      ? { message: `The market could not be reached: ${error.message}`, status: error.status === 429 ? 503 : 502 }
      : { message: error.message, status: 400 };
  }
  throw error;
}

/** The detail page of an item, remembering where the visitor came from. */
export function detailHref(ref: { tokenId: string; nftType: number }, back: string): string {
  return `/marketplace/detail?nftType=${ref.nftType}&tokenId=${ref.tokenId}&back=${encodeURIComponent(back)}`;
}

/** Where the detail page's back link may go: a marketplace page of this site, else the market. */
export function safeBack(back: string | null): string {
  const to = safeRedirect(back, "/marketplace/market");
  return to === "/marketplace" || to.startsWith("/marketplace/") || to.startsWith("/marketplace?") ? to : "/marketplace/market";
}

export function typeLabel(nftType: number): string {
  return NFT_TYPE_LABELS[nftType as NftTypeCode] ?? "Item";
}

/** "2026-11-20 14:03 UTC" */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function cardView(record: ListingRecord, back: string): ItemCardModel {
  const stats = record.nftType === NFT_TYPE.spaceship ? spaceshipStats(record) : undefined;
  const grade = gradeLabel(record);
  // The grade is the card's badge already; the other attributes describe the item.
  const attributes = namedAttributes(record).filter((attribute) => attribute.label !== gradeName(record.nftType));
  return {
    key: `${record.nftType}-${record.tokenId}`,
    href: detailHref(record, back),
    name: record.name,
    image: record.image,
    typeLabel: typeLabel(record.nftType),
    grade: grade ? { label: gradeName(record.nftType), value: grade } : null,
    attributes: [...attributes.slice(0, 4), ...(stats ? [{ label: "Total", value: String(stats.total) }] : [])],
    price: isSale(record) ? formatPrice(record.price!, record.currency) : null,
    favorites: record.favorites,
    views: record.views,
  };
}

export function tradeView(trade: TradeRecord, index: number, back: string): TradeRowModel {
  return {
    key: `${trade.nftType}-${trade.tokenId}-${trade.at}-${index}`,
    href: detailHref(trade, back),
    name: trade.name,
    image: trade.image,
    typeLabel: typeLabel(trade.nftType),
    price: formatPrice(trade.price, trade.currency),
    seller: shortAddress(trade.sellerAddress),
    buyer: trade.buyerAddress ? shortAddress(trade.buyerAddress) : null,
    at: formatTime(trade.at),
  };
}

/** The request's own path and query: where a form posts back to. */
export function here(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}
