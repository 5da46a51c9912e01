/**
 * The embedded market backend (SPEC §7 "Java (market) backend"), mounted at /api/v1.
 * Every endpoint answers the `{ code, msg, data, success }` envelope, except /metadata which serves plain
 * NFT metadata JSON. docs/api/market.md documents each endpoint.
 */
import { createHash } from "node:crypto";
import express, { type Request } from "express";
import { getAddress } from "viem";
import { sameAddress } from "~core/address";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import {
  ACTIVITY_EVENTS,
  type CancelAllResult,
  type FavoriteResult,
  type GameBalances,
  type InviteCode,
  type ItemDetail,
  type OrderContext,
  type SaleResult,
  type ViewResult,
} from "~core/api/market";
import { clientAddress } from "../client-address";
import { ApiError, handle, sendError, sendOk } from "../http";
import type { BackendContext, SsoAuth, TokenOwner } from "../types";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { ORDER_DOMAIN_NAME, ORDER_DOMAIN_VERSION } from "~core/orders";
import { type ClaimSigner, claimSigner, claimView, ownClaim, settleExpiredClaims, takeOutNft, takeOutToken } from "./claims";
import { MarketDb } from "./db";
import { acceptInvite, claimRebate, inviteCode, invitePath, invitedCount, rebateInfo, rebateTotal, resolveCurrency } from "./invites";
import {
  MSG,
  activeListing,
  addView,
  balanceOf,
  buy,
  cancel,
  cancelAll,
  expireListings,
  findItem,
  requireBuyable,
  requireCallerWallet,
  requireCancellable,
  requireItem,
  requireSellable,
  requireTransferable,
  sell,
  setFavorite,
  transfer,
} from "./ledger";
import { authorityOf, authorize, orderCounter, orderDomainOf } from "./orders";
import { CURRENCIES, DEFAULT_CURRENCY } from "~core/money";
import { readWei } from "./money";
import { type ListingScope, favoriteSet, hasExpiredListings, itemWithListing, queryListings } from "./query";
import { isoTime, toRecord } from "./records";
import {
  acceptInviteSchema,
  buySchema,
  cancelAllSchema,
  cancelSchema,
  claimRebateSchema,
  claimStatusSchema,
  favoriteSchema,
  gameTagSchema,
  type ListingQuery,
  listingQuerySchema,
  normalizeQuery,
  orderContextSchema,
  parseMarketInput,
  rebateSchema,
  sellSchema,
  statisticsSchema,
  takeOutNftSchema,
  takeOutTokenSchema,
  tokenRefSchema,
  transferSchema,
  viewSchema,
  volumeSchema,
} from "./schemas";
import { recentActivity, topNft, volumeSeries } from "./stats";

export const SESSION_EXPIRED = "Invalid session, or session has expired, please log in again.";
export const BIND_WALLET = "Please bind a wallet address";

type Caller = TokenOwner & { walletAddress: `0x${string}` };

/** Query string and body together: SPEC sends some POST parameters in the query (favorites, views, takeOut). */
function input(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return normalizeQuery({ ...(req.query as Record<string, unknown>), ...body });
}

export function createMarketService(ctx: BackendContext, ssoAuth: SsoAuth) {
  const db = new MarketDb(ctx.store);
  const signer: ClaimSigner = claimSigner(ctx.options);
  const router = express.Router();

  async function owner(req: Request): Promise<TokenOwner | null> {
    const token = req.get(AUTH_TOKEN_HEADER);
    return token ? ssoAuth.ownerOfToken(token) : null;
  }

  /** The logged-in caller with a bound wallet: 401 without a live token, 403 without a wallet. */
  async function caller(req: Request): Promise<Caller> {
    const found = await owner(req);
    if (!found) throw new ApiError(401, SESSION_EXPIRED);
    if (!found.walletAddress) throw new ApiError(403, BIND_WALLET);
    return found as Caller;
  }

  function requireAddress(address: string | undefined): string {
    if (!address) throw new ApiError(400, "address: required: a wallet address");
    return address;
  }

  /** Listings past their signed expiry leave the market before it is read. */
  function sweepExpiredListings(now: number) {
    if (hasExpiredListings(db, Math.floor(now / 1000))) db.transaction(() => expireListings(db, now));
  }

  const listing = (scopeOf: (q: ListingQuery, req: Request) => Promise<ListingScope> | ListingScope) =>
    handle(async (req, res) => {
      const q = parseMarketInput(listingQuerySchema, input(req));
      const scope = await scopeOf(q, req);
      const now = Date.now();
      const page = await db.exclusive(() => {
        sweepExpiredListings(now);
        // Items of expired claims come back into the game inventory before it is listed.
        if (scope.kind === "owned" && scope.gameOnly) settleExpiredClaims(db, now);
        return queryListings(db, scope, q);
      });
      sendOk(res, page);
    });

  // ---- listing queries ----------------------------------------------------------------------------------
  router.get("/marketplace/tradingMarket", listing(() => ({ kind: "market" })));
  router.get("/informationCenter/selling", listing((q) => ({ kind: "market", seller: requireAddress(q.address) })));
  router.get("/informationCenter/myStorage", listing((q) => ({ kind: "owned", owner: requireAddress(q.address), gameOnly: false })));
  router.get("/informationCenter/myFavorite", listing((q) => ({ kind: "favorites", address: requireAddress(q.address) })));
  router.get(
    "/gameRelate/getGameNft",
    listing(async (q, req) => {
      const { walletAddress } = await caller(req);
      q.address = walletAddress;
      return { kind: "owned", owner: walletAddress, gameOnly: true };
    }),
  );

  router.get(
    "/informationCenter/tokenDetailByTokenId",
    handle(async (req, res) => {
      const { tokenId, nftType, address } = parseMarketInput(tokenRefSchema, input(req));
      const detail = await db.read((): ItemDetail => {
        const item = requireItem(db, nftType, tokenId);
        const row = itemWithListing(db, item.id)!;
        const listing = activeListing(db, item.id);
        const history = db.all<{ kind: number; from_address: string; to_address: string | null; price: string; currency: string; at: number }>(
          "select kind, from_address, to_address, price, currency, at from market_activity where item_id = ? order by at desc, id desc limit 10",
          [item.id],
        );
        const isFavorite = address ? favoriteSet(db, address, [item.id]).has(item.id) : undefined;
        return {
          ...toRecord(row, isFavorite),
          ...(address ? { isOwner: sameAddress(address, item.owner_address) } : {}),
          listing: listing
            ? {
                id: listing.id,
                price: readWei(listing.price).toString(),
                currency: listing.currency,
                sellerAddress: listing.seller_address,
                listedAt: isoTime(listing.listed_at),
                nonce: listing.nonce,
                expiry: listing.expiry,
              }
            : null,
          history: history.map((event) => ({
            event: ACTIVITY_EVENTS[event.kind],
            fromAddress: event.from_address,
            toAddress: event.to_address,
            price: readWei(event.price).toString(),
            currency: event.currency,
            at: isoTime(event.at),
          })),
        };
      });
      sendOk(res, detail);
    }),
  );

  router.get(
    "/metadata/:nftType/:tokenId/:boxType?",
    handle(async (req, res) => {
      const { nftType, tokenId } = parseMarketInput(tokenRefSchema, req.params);
      const item = await db.read(() => findItem(db, nftType, tokenId));
      if (!item || (req.params.boxType !== undefined && String(item.box_type) !== req.params.boxType)) {
        throw new ApiError(404, MSG.notFound);
      }
      res.json({
        name: item.name,
        description: `Spark Era ${NFT_TYPES[item.nft_type as NftTypeCode]} #${item.token_id}`,
        image: item.image,
        tokenId: item.token_id,
        nftType: item.nft_type,
        attributes: JSON.parse(item.attributes),
      });
    }),
  );

  // ---- favorites and views --------------------------------------------------------------------------------
  for (const [path, on] of [["add", true], ["remove", false]] as const) {
    router.post(
      `/informationCenter/favorite/${path}`,
      handle(async (req, res) => {
        const { walletAddress } = await caller(req);
        const { address, tokenId, nftType } = parseMarketInput(favoriteSchema, input(req));
        if (!sameAddress(address, walletAddress)) throw new ApiError(403, MSG.notYourWallet);
        const result = await db.write(() => setFavorite(db, walletAddress, requireItem(db, nftType, tokenId), on, Date.now()));
        sendOk(res, { tokenId, nftType, ...result } satisfies FavoriteResult);
      }),
    );
  }

  router.post(
    "/marketplace/token/views/add",
    handle(async (req, res) => {
      const { tokenId, nftType, ownerAddress } = parseMarketInput(viewSchema, input(req));
      const viewer = await owner(req);
      // One view per visitor per day: the wallet (or account) when logged in, else a hash of the client IP.
      const visitor =
        viewer?.walletAddress ??
        (viewer ? `user:${viewer.userId}` : `ip:${createHash("sha256").update(`spark-era-views:${clientAddress(req, ctx.options.internalToken)}`).digest("hex").slice(0, 24)}`);
      const result = await db.write(() => {
        const item = requireItem(db, nftType, tokenId);
        // Materials are fungible stacks in the game: SPEC names them by owner too.
        if (ownerAddress && !sameAddress(ownerAddress, item.owner_address)) throw new ApiError(404, MSG.notFound);
        return addView(db, item, visitor, Date.now());
      });
      sendOk(res, { tokenId, nftType, ...result } satisfies ViewResult);
    }),
  );

  // ---- the listing state machine ----------------------------------------------------------------------------
  // Each step: checks on our records, then the order's signature (verified, or made with a managed key), then
  // one transaction that checks again and applies. The connection is held throughout, so no other write
  // slips between the check and the change; of concurrent buyers exactly one wins.

  router.get(
    "/marketplace/orderContext",
    handle(async (req, res) => {
      const { address } = parseMarketInput(orderContextSchema, input(req));
      const counter = address ? await db.read(() => orderCounter(db, address)) : 0n;
      const context: OrderContext = {
        domain: { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, ...orderDomainOf(ctx.options) },
        counter: counter.toString(),
      };
      sendOk(res, context);
    }),
  );

  router.post(
    "/informationCenter/sellToken",
    handle(async (req, res) => {
      const who = await caller(req);
      const body = parseMarketInput(sellSchema, input(req));
      const authority = await authorityOf(who, ssoAuth.managedAccount);
      const now = Date.now();
      const sellInput = { ...body, currency: body.currency ?? DEFAULT_CURRENCY };
      const record = await db.exclusive(async () => {
        const wallet = requireCallerWallet(who, body.address) as `0x${string}`;
        requireSellable(db, wallet, sellInput);
        const counter = orderCounter(db, wallet);
        const order = await authorize(ctx.options, authority, wallet, "Sell", body, (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          seller: wallet,
          price: body.price,
          currency: sellInput.currency,
          counter,
          ...f,
        }), now);
        return db.transaction(() => toRecord(itemWithListing(db, sell(db, who, sellInput, order, now).item.id)!));
      });
      sendOk(res, record);
    }),
  );

  router.post(
    "/informationCenter/cancelSell",
    handle(async (req, res) => {
      const who = await caller(req);
      const body = parseMarketInput(cancelSchema, input(req));
      const authority = await authorityOf(who, ssoAuth.managedAccount);
      const now = Date.now();
      const record = await db.exclusive(async () => {
        const wallet = requireCallerWallet(who, body.address) as `0x${string}`;
        requireCancellable(db, wallet, body);
        const order = await authorize(ctx.options, authority, wallet, "Cancel", body, (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          seller: wallet,
          ...f,
        }), now);
        return db.transaction(() => toRecord(itemWithListing(db, cancel(db, who, body, order, now).item.id)!));
      });
      sendOk(res, record);
    }),
  );

  router.post(
    "/informationCenter/cancelAllSell",
    handle(async (req, res) => {
      const who = await caller(req);
      const body = parseMarketInput(cancelAllSchema, input(req));
      const authority = await authorityOf(who, ssoAuth.managedAccount);
      const now = Date.now();
      const counter = BigInt(body.counter);
      const result = await db.exclusive(async () => {
        const wallet = requireCallerWallet(who, body.address) as `0x${string}`;
        const order = await authorize(ctx.options, authority, wallet, "CancelAll", body, (f) => ({ seller: wallet, counter, ...f }), now);
        return db.transaction(() => cancelAll(db, who, { address: wallet, counter }, order, now));
      });
      sendOk(res, { cancelled: result.cancelled, counter: result.counter.toString() } satisfies CancelAllResult);
    }),
  );

  router.post(
    "/informationCenter/buyToken",
    handle(async (req, res) => {
      const who = await caller(req);
      const body = parseMarketInput(buySchema, input(req));
      const authority = await authorityOf(who, ssoAuth.managedAccount);
      const now = Date.now();
      const sale = await db.exclusive(async () => {
        sweepExpiredListings(now);
        const wallet = requireCallerWallet(who, body.address) as `0x${string}`;
        const { listing, currency, price } = requireBuyable(db, wallet, body, now);
        // Built from the listing about to be filled: a signature for any other listing does not verify.
        const order = await authorize(ctx.options, authority, wallet, "Buy", body, (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          listingId: BigInt(listing.id),
          seller: getAddress(listing.seller_address),
          buyer: wallet,
          price,
          currency,
          ...f,
        }), now);
        return db.transaction(() => {
          const result = buy(db, who, body, order, now);
          return { record: toRecord(itemWithListing(db, result.item.id)!), activityId: result.activityId, price: result.price, currency: result.currency };
        });
      });
      sendOk(res, { ...sale.record, sale: { transactionId: `trade-${sale.activityId}`, price: sale.price.toString(), currency: sale.currency } } satisfies SaleResult);
    }),
  );

  router.post(
    "/informationCenter/transferToken",
    handle(async (req, res) => {
      const who = await caller(req);
      const body = parseMarketInput(transferSchema, input(req));
      const authority = await authorityOf(who, ssoAuth.managedAccount);
      const now = Date.now();
      const record = await db.exclusive(async () => {
        const wallet = requireCallerWallet(who, body.address) as `0x${string}`;
        requireTransferable(db, wallet, body);
        const order = await authorize(ctx.options, authority, wallet, "Transfer", body, (f) => ({
          tokenId: BigInt(body.tokenId),
          nftType: body.nftType,
          from: wallet,
          to: body.to as `0x${string}`,
          ...f,
        }), now);
        return db.transaction(() => toRecord(itemWithListing(db, transfer(db, who, body, order, now).item.id)!));
      });
      sendOk(res, record);
    }),
  );

  // ---- game ↔ chain -------------------------------------------------------------------------------------
  router.get(
    "/gameRelate/getGameToken",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { gameTag } = parseMarketInput(gameTagSchema, input(req));
      const balances = await db.exclusive(() => {
        settleExpiredClaims(db, Date.now());
        return Object.fromEntries(CURRENCIES.map((c) => [c, balanceOf(db, walletAddress, c).toString()])) as GameBalances["balances"];
      });
      sendOk(res, { gameTag: gameTag ?? 1, address: walletAddress, balances } satisfies GameBalances);
    }),
  );

  router.post(
    "/gameRelate/takeOutTokenSign",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { fire } = parseMarketInput(takeOutTokenSchema, input(req));
      sendOk(res, await takeOutToken(db, ctx.options, signer, walletAddress, fire, Date.now()));
    }),
  );

  router.post(
    "/gameRelate/takeOutSign",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { takeOut, nftType } = parseMarketInput(takeOutNftSchema, input(req));
      sendOk(res, await takeOutNft(db, ctx.options, signer, walletAddress, { nftType, tokenId: takeOut }, Date.now()));
    }),
  );

  router.get(
    "/gameRelate/claimStatus",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { txId } = parseMarketInput(claimStatusSchema, input(req));
      const claim = await db.exclusive(() => {
        settleExpiredClaims(db, Date.now());
        return ownClaim(db, txId, walletAddress);
      });
      sendOk(res, claimView(claim));
    }),
  );

  // ---- statistics -----------------------------------------------------------------------------------------
  router.get(
    "/statistics/topNft",
    handle(async (req, res) => {
      const q = parseMarketInput(statisticsSchema, input(req));
      sendOk(res, await db.read(() => topNft(db, q, Date.now())));
    }),
  );
  router.get(
    "/statistics/activity",
    handle(async (req, res) => {
      const q = parseMarketInput(statisticsSchema, input(req));
      sendOk(res, await db.read(() => recentActivity(db, q, Date.now())));
    }),
  );
  router.get(
    "/statistics/volume",
    handle(async (req, res) => {
      const { days, nftType } = parseMarketInput(volumeSchema, input(req));
      sendOk(res, await db.read(() => volumeSeries(db, days ?? 30, nftType, Date.now())));
    }),
  );

  // ---- invites and rebates --------------------------------------------------------------------------------
  router.get(
    "/informationCenter/getInviteCode",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const data = await db.write(() => {
        const code = inviteCode(db, walletAddress, Date.now());
        return { inviteCode: code, inviterAddress: walletAddress, invitePath: invitePath(code), invitedCount: invitedCount(db, walletAddress) } satisfies InviteCode;
      });
      sendOk(res, data);
    }),
  );

  router.post(
    "/informationCenter/acceptInvite",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { code } = parseMarketInput(acceptInviteSchema, input(req));
      sendOk(res, await db.write(() => acceptInvite(db, walletAddress, code, Date.now())));
    }),
  );

  router.get(
    "/informationCenter/showRebateInfo",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      sendOk(res, await db.write(() => rebateInfo(db, walletAddress, Date.now())));
    }),
  );

  router.get(
    "/informationCenter/getRebate",
    handle(async (req, res) => {
      const who = await caller(req);
      const { emailAddr, erc20Addr } = parseMarketInput(rebateSchema, input(req));
      if (emailAddr !== who.email.toLowerCase()) throw new ApiError(403, "emailAddr: expected your account's email");
      const { currency, tokenAddress } = resolveCurrency(ctx.options, erc20Addr);
      const total = await db.read(() => rebateTotal(db, who.walletAddress, currency));
      sendOk(res, { ...total, tokenAddress, emailAddr });
    }),
  );

  router.post(
    "/informationCenter/claimRebate",
    handle(async (req, res) => {
      const { walletAddress } = await caller(req);
      const { erc20Addr } = parseMarketInput(claimRebateSchema, input(req));
      const { currency } = resolveCurrency(ctx.options, erc20Addr);
      sendOk(res, await db.write(() => claimRebate(db, walletAddress, currency)));
    }),
  );

  // Everything under /api/v1 belongs to the market: unknown paths get the envelope, not the app's 404 page.
  router.use((_req, res) => sendError(res, 404, "Not found"));

  return { router };
}
