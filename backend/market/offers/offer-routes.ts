import type { Router } from "express";
import { getAddress } from "viem";
import type { Page } from "~core/api/market";
import type { OfferCancelAllResult, OfferContext, OfferRecord, ReceivedOffer } from "~core/api/offers";
import { handle, sendOk } from "../../http";
import { withChainTerms } from "./chain-offers";
import type { MarketCore } from "../core";
import { requireItem } from "../shared/items";
import {
  acceptGameOffer,
  cancelAllOffers,
  cancelOffer,
  makeOffer,
  requireAcceptable,
  requireCancellableOffer,
  requireOfferExpiry,
  requireOfferable,
} from "./offers";
import { offersForItem, offersOfBuyer, offersReceived, toOfferRecord } from "./offer-lists";
import { OFFER_COUNTERS } from "./offer-terms";
import {
  acceptOfferSchema,
  cancelAllOffersSchema,
  cancelOfferSchema,
  itemOffersSchema,
  makeOfferSchema,
  offerContextSchema,
  offersReceivedSchema,
} from "./offer-schemas";
import { authorize, orderCounter } from "../trades";
import { parseMarketInput } from "../shared/params";
import { marketInput, orderRequest, requireCaller } from "../request";

/**
 * Offers over HTTP (docs/api/market.md "Offers"). Each write is the orders' shape (trades/order-routes.ts): checks on our
 * records, the signed order rebuilt from them and verified, then one transaction that checks again and applies
 * conditionally.
 */
export function offerRoutes(router: Router, core: MarketCore) {
  const { db, options } = core;

  router.get(
    "/marketplace/offerContext",
    handle(async (req, res) => {
      const { address } = parseMarketInput(offerContextSchema, marketInput(req));
      sendOk(res, { counter: (await orderCounter(db, address, OFFER_COUNTERS)).toString() } satisfies OfferContext);
    }),
  );

  router.get(
    "/marketplace/itemOffers",
    handle(async (req, res) => {
      const { tokenId, nftType, ...paging } = parseMarketInput(itemOffersSchema, marketInput(req));
      const page = await offersForItem(db, await requireItem(db, nftType, tokenId), Date.now(), paging);
      sendOk(res, { ...page, records: await withChainTerms(db, options.chain, page.records) } satisfies Page<OfferRecord>);
    }),
  );

  router.get(
    "/marketplace/myOffers",
    handle(async (req, res) => {
      const who = await requireCaller(core, req);
      sendOk(res, await withChainTerms(db, options.chain, await offersOfBuyer(db, who.walletAddress, Date.now())));
    }),
  );

  router.get(
    "/marketplace/offersReceived",
    handle(async (req, res) => {
      const who = await requireCaller(core, req);
      const paging = parseMarketInput(offersReceivedSchema, marketInput(req));
      const page = await offersReceived(db, who.walletAddress, Date.now(), paging);
      sendOk(res, { ...page, records: await withChainTerms(db, options.chain, page.records) } satisfies Page<ReceivedOffer>);
    }),
  );

  router.post(
    "/informationCenter/makeOffer",
    handle(async (req, res) => {
      const { body, now, wallet: buyer } = await orderRequest(core, req, makeOfferSchema);
      const terms = await requireOfferable(db, buyer, body, now);
      const counter = await orderCounter(db, buyer, OFFER_COUNTERS);
      const order = await authorize(
        options,
        buyer,
        "Offer",
        body,
        (f) => ({
          buyer,
          nftType: body.nftType,
          tokenId: BigInt(terms.item?.token_id ?? 0),
          filter: terms.filter,
          price: body.price,
          currency: body.currency,
          counter,
          ...f,
        }),
        now,
      );
      requireOfferExpiry(order.expiry, now);
      const offer = await db.write((tx) => makeOffer(tx, buyer, { ...body, counter }, order, now));
      sendOk(res, await toOfferRecord(db, offer));
    }),
  );

  router.post(
    "/informationCenter/cancelOffer",
    handle(async (req, res) => {
      const { body, now, wallet: buyer } = await orderRequest(core, req, cancelOfferSchema);
      await requireCancellableOffer(db, buyer, body.offerId);
      const order = await authorize(options, buyer, "OfferCancel", body, (f) => ({ buyer, offerId: BigInt(body.offerId), ...f }), now);
      const offer = await db.write((tx) => cancelOffer(tx, buyer, body.offerId, order, now));
      sendOk(res, await toOfferRecord(db, offer));
    }),
  );

  router.post(
    "/informationCenter/cancelAllOffers",
    handle(async (req, res) => {
      const { body, now, wallet: buyer } = await orderRequest(core, req, cancelAllOffersSchema);
      const counter = BigInt(body.counter);
      const order = await authorize(options, buyer, "OfferCancelAll", body, (f) => ({ buyer, counter, ...f }), now);
      const result = await db.write((tx) => cancelAllOffers(tx, buyer, counter, order, now));
      sendOk(res, { cancelled: result.cancelled, counter: result.counter.toString() } satisfies OfferCancelAllResult);
    }),
  );

  router.post(
    "/informationCenter/acceptOffer",
    handle(async (req, res) => {
      const { body, now, wallet: seller } = await orderRequest(core, req, acceptOfferSchema);
      const { offer, price, currency } = await requireAcceptable(db, seller, body, now);
      // Built from the offer about to be taken: a signature for any other offer, item or price does not verify.
      const order = await authorize(
        options,
        seller,
        "OfferAccept",
        body,
        (f) => ({
          offerId: BigInt(offer.id),
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          seller,
          buyer: getAddress(offer.buyer_address),
          price,
          currency,
          ...f,
        }),
        now,
      );
      // The venue chooses the way: a game offer is a ledger sale here (a chain offer goes through the Trading contract).
      const sale = await db.write((tx) => acceptGameOffer(tx, seller, body, order, now));
      sendOk(res, {
        offer: await toOfferRecord(db, sale.offer),
        sale: { transactionId: `trade-${sale.activityId}`, price: sale.price.toString(), currency: sale.currency },
      });
    }),
  );
}
