import type { Router } from "express";
import { getAddress } from "viem";
import type { CancelAllResult, OrderContext, SaleResult } from "~core/api/market";
import { DEFAULT_CURRENCY } from "~core/money";
import { ORDER_DOMAIN_NAME, ORDER_DOMAIN_VERSION } from "~core/orders";
import { handle, sendOk } from "../../http";
import { chainOfferSchema, chainSellSchema, chainSell, requireChainSellable, itemWithListing, toRecord } from "../listings";
import { chainOfferOf, requireChainOfferable, storeChainOffer } from "../offers";
import type { MarketCore } from "../core";
import type { Sql } from "../shared/db";
import { buySchema, cancelAllSchema, cancelSchema, orderContextSchema, sellSchema, transferSchema } from "./order-schemas";
import { authorize, orderCounter, orderDomainOf } from "./orders";
import { parseMarketInput } from "../shared/params";
import { callerRequest, marketInput, orderRequest } from "../request";
import {
  buy,
  cancel,
  cancelAll,
  requireBuyable,
  requireCancellable,
  requireSellable,
  requireTransferable,
  sell,
  sweepExpiredListings,
  transfer,
} from "./trades";

/**
 * The listing state machine over HTTP, and the context a wallet signs its orders in. Each step: checks on our
 * records, then the order's signature (verified, whoever signed it), then one transaction that checks again and
 * applies, whose writes are conditional on what the checks saw (decision 0010): of concurrent buyers exactly one
 * wins, on either engine, with no connection held across the signature check.
 */
export function orderRoutes(router: Router, core: MarketCore) {
  const { db, options } = core;

  /** The item a step changed, as the answer shows it, read in the step's transaction. */
  const recordOf = async (tx: Sql, step: { item: { id: number } }) => toRecord((await itemWithListing(tx, step.item.id))!);

  router.get(
    "/marketplace/orderContext",
    handle(async (req, res) => {
      const { address } = parseMarketInput(orderContextSchema, marketInput(req));
      const counter = address ? await orderCounter(db, address) : 0n;
      const context: OrderContext = {
        domain: { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, ...orderDomainOf(options) },
        counter: counter.toString(),
      };
      sendOk(res, context);
    }),
  );

  router.post(
    "/informationCenter/sellToken",
    handle(async (req, res) => {
      const { who, body, now, wallet } = await orderRequest(core, req, sellSchema);
      const sellInput = { ...body, currency: body.currency ?? DEFAULT_CURRENCY };
      await requireSellable(db, wallet, sellInput);
      const counter = await orderCounter(db, wallet);
      const order = await authorize(
        options,
        wallet,
        "Sell",
        body,
        (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          seller: wallet,
          price: body.price,
          currency: sellInput.currency,
          counter,
          ...f,
        }),
        now,
      );
      sendOk(res, await db.write(async (tx) => recordOf(tx, await sell(tx, who, { ...sellInput, counter }, order, now))));
      core.watchDigest.kick();
    }),
  );

  // Our extension (docs/api/market.md "Chain listings"): stores a seller's signed Trading listing; the chain fills it.
  router.post(
    "/informationCenter/chainSell",
    handle(async (req, res) => {
      const { who, body, now } = await callerRequest(core, req, chainSellSchema);
      const checked = await requireChainSellable(db, options.chain, who.walletAddress, body, now);
      const contracts = options.chain!.contracts;
      sendOk(res, await db.write(async (tx) => recordOf(tx, await chainSell(tx, contracts, checked, now))));
      core.watchDigest.kick();
    }),
  );

  // Our extension (docs/api/market.md "Chain offers"): stores a buyer's signed Trading offer; the holder accepts it on chain.
  router.post(
    "/informationCenter/chainOffer",
    handle(async (req, res) => {
      const { who, body, now } = await callerRequest(core, req, chainOfferSchema);
      const checked = await requireChainOfferable(db, options.chain, who.walletAddress, body, now);
      const row = await db.write((tx) => storeChainOffer(tx, checked, now));
      sendOk(res, { id: String(row.id), chainOffer: chainOfferOf(row, options.chain!.contracts) });
    }),
  );

  router.post(
    "/informationCenter/cancelSell",
    handle(async (req, res) => {
      const { who, body, now, wallet } = await orderRequest(core, req, cancelSchema);
      await requireCancellable(db, wallet, body);
      const order = await authorize(
        options,
        wallet,
        "Cancel",
        body,
        (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          seller: wallet,
          ...f,
        }),
        now,
      );
      sendOk(res, await db.write(async (tx) => recordOf(tx, await cancel(tx, who, body, order, now))));
    }),
  );

  router.post(
    "/informationCenter/cancelAllSell",
    handle(async (req, res) => {
      const { who, body, now, wallet } = await orderRequest(core, req, cancelAllSchema);
      const counter = BigInt(body.counter);
      const order = await authorize(options, wallet, "CancelAll", body, (f) => ({ seller: wallet, counter, ...f }), now);
      const result = await db.write((tx) => cancelAll(tx, who, { address: wallet, counter }, order, now));
      sendOk(res, { cancelled: result.cancelled, counter: result.counter.toString() } satisfies CancelAllResult);
    }),
  );

  router.post(
    "/informationCenter/buyToken",
    handle(async (req, res) => {
      const { who, body, now, wallet } = await orderRequest(core, req, buySchema);
      await sweepExpiredListings(db, now);
      const { listing, currency, price } = await requireBuyable(db, wallet, body, now);
      // Built from the listing about to be filled: a signature for any other listing does not verify.
      const order = await authorize(
        options,
        wallet,
        "Buy",
        body,
        (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          listingId: BigInt(listing.id),
          seller: getAddress(listing.seller_address),
          buyer: wallet,
          price,
          currency,
          ...f,
        }),
        now,
      );
      const sale = await db.write(async (tx) => {
        const result = await buy(tx, who, body, order, now);
        return { record: await recordOf(tx, result), activityId: result.activityId, price: result.price, currency: result.currency };
      });
      sendOk(res, {
        ...sale.record,
        sale: { transactionId: `trade-${sale.activityId}`, price: sale.price.toString(), currency: sale.currency },
      } satisfies SaleResult);
    }),
  );

  router.post(
    "/informationCenter/transferToken",
    handle(async (req, res) => {
      const { who, body, now, wallet } = await orderRequest(core, req, transferSchema);
      await requireTransferable(db, wallet, body);
      const order = await authorize(
        options,
        wallet,
        "Transfer",
        body,
        (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          from: wallet,
          to: body.to as `0x${string}`,
          ...f,
        }),
        now,
      );
      sendOk(res, await db.write(async (tx) => recordOf(tx, await transfer(tx, who, body, order, now))));
    }),
  );
}
