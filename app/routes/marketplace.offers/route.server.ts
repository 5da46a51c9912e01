/**
 * The offers page (issue 30), server side: the offer form for the item or the market view its query names, and the
 * offers the signed-in wallet made, each with its cancel, and "Cancel all offers". The action is every offer form's
 * (features/offers/offer-actions.server.ts).
 */
import { json } from "@remix-run/node";
import { loginHref } from "~/domain/login-href";
import { checksummed } from "~/features/market/listing";
import { detailHref, typeLabel } from "~/features/market/market-views.server";
import { collectionTermsOf } from "~/features/offers/collection-filter.server";
import type { OffersDeskData } from "~/features/offers/offers-desk";
import { chainOfferDraftOf, offerSigner } from "~/features/offers/offer-signer.server";
import { collectionText, offerRow } from "~/features/offers/offer-views.server";
import { readTokenRef } from "~/features/market/token-ref";
import { apis, backendProblem, publicApis } from "~/services/apis.server";
import type { OfferRecord } from "~core/api/offers";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { chainCollectionOfferable, pendingOfferOf } from "~/features/offers/chain-offer-rules";

export type OffersView = { state: "visitor"; loginHref: string } | { state: "no-wallet" } | ({ state: "wallet" } & OffersDeskData);

/** What one of the wallet's own offers is for, as its row names and links it. */
export function offerSubject(offer: OfferRecord, back: string): { what: string; href: string | null } {
  if (offer.kind === "item" && offer.tokenId !== null) {
    return {
      what: `${typeLabel(offer.nftType)} #${offer.tokenId}`,
      href: detailHref({ tokenId: offer.tokenId, nftType: offer.nftType }, back),
    };
  }
  return { what: collectionText(offer), href: null };
}

async function targetOf(search: URLSearchParams, here: string) {
  const { ref } = readTokenRef(search);
  if (ref) {
    const detail = await publicApis().market.tokenDetail(ref);
    // A chain-held item's offer is a TradeOffer paid from the wallet (decision 0024); its first step may be an approval.
    const chain = detail.location === "chain" ? ("item" as const) : null;
    return { title: `Offer for ${detail.name}`, href: detailHref(ref, here), terms: ref, chain, key: newIdempotencyKey() };
  }
  const collection = collectionTermsOf(search);
  return (
    collection && {
      title: `Offer on any item of ${collection.label}`,
      href: collection.viewHref,
      terms: { nftType: collection.nftType, filter: collection.filter },
      // A card type's view may be paid from the game balance or from the wallet on chain ("Pay from").
      chain: chainCollectionOfferable(collection.nftType) ? ("choice" as const) : null,
      key: newIdempotencyKey(),
    }
  );
}

export async function offersPage(request: Request) {
  const url = new URL(request.url);
  // The offer a buyer typed before the executor's approval comes back in the URL, to fill the form; the page is the same without it.
  const carried = pendingOfferOf(url.pathname + url.search);
  const here = carried?.page ?? url.pathname + url.search;
  const view = (data: OffersView, status = 200) => json(data, { status, headers: { "Cache-Control": "no-store" } });
  const { user, wallet, offers, orders } = await apis(request);
  if (!user) return view({ state: "visitor", loginHref: loginHref(here) });
  if (!wallet) return view({ state: "no-wallet" });
  const viewer = checksummed(wallet);
  try {
    const [target, mine, signer] = await Promise.all([
      targetOf(url.searchParams, here),
      offers.myOffers(),
      offerSigner({ orders, offers }, user),
    ]);
    const rows = mine.map((offer) => offerRow(offer, { viewer, ...offerSubject(offer, here) }));
    const open = rows.filter((row) => row.cancel);
    // The trading counter voids chain listings too: its button shows only while the wallet has an open chain offer.
    const chainCancelAll = open.some((row) => row.key) ? newIdempotencyKey() : null;
    // A browser wallet signs a chain offer itself: its island needs what the offer names.
    const chainDraft = target && signer?.chain ? await chainOfferDraftOf(url.searchParams, mine) : null;
    return view({
      state: "wallet",
      here,
      target,
      signer,
      chainDraft,
      pending: target ? (carried?.offer ?? null) : null,
      rows,
      openCount: open.filter((row) => !row.key).length,
      chainCancelAll,
      problem: null,
    });
  } catch (error) {
    const problem = backendProblem(error);
    const failed = {
      here,
      target: null,
      signer: null,
      chainDraft: null,
      pending: null,
      rows: [],
      openCount: 0,
      chainCancelAll: null,
      problem: problem.message,
    };
    return view({ state: "wallet", ...failed }, problem.status);
  }
}
