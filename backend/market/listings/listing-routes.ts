import type { Request, Router } from "express";
import { sameAddress } from "~core/address";
import { ACTIVITY_EVENTS, type ItemDetail, LISTING_VENUES } from "~core/api/market";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { ApiError, handle, sendOk } from "../../http";
import type { BackendChain } from "../../types";
import { chainOrderOf, chainTakesListing } from "./chain-listings";
import { itemPending } from "../indexer";
import { settleExpiredClaims } from "../claims";
import type { MarketCore } from "../core";
import type { Sql } from "../shared/db";
import { MSG, activeListing, findItem, requireItem } from "../shared/items";
import { type ListingQuery, listingQuerySchema, tokenRefSchema } from "../shared/listing-schemas";
import { readWei } from "../shared/money";
import { parseMarketInput } from "../shared/params";
import { type ListingScope, favoriteSet, itemWithListing, queryListings } from "./query";
import { type ItemListingRow, isoTime, toRecord } from "./records";
import { marketInput, requireCaller } from "../request";
import { sweepExpiredListings } from "../trades";

function requireAddress(address: string | undefined): string {
  if (!address) throw new ApiError(400, "address: required: a wallet address");
  return address;
}

/** The listing queries of product §3 (market, a seller's listings, storage, favorites, the game inventory), an item's detail and its metadata. */
export function listingRoutes(router: Router, core: MarketCore) {
  const { db } = core;

  const listing = (scopeOf: (q: ListingQuery, req: Request) => Promise<ListingScope> | ListingScope) =>
    handle(async (req, res) => {
      const q = parseMarketInput(listingQuerySchema, marketInput(req));
      const scope = await scopeOf(q, req);
      const now = Date.now();
      await sweepExpiredListings(db, now);
      // Items of expired claims come back into the game inventory before it is listed.
      if (scope.kind === "owned" && scope.gameOnly) await settleExpiredClaims(db, now, Boolean(core.options.chain));
      sendOk(res, await queryListings(db, scope, q));
    });

  router.get(
    "/marketplace/tradingMarket",
    listing(() => ({ kind: "market" })),
  );
  router.get(
    "/informationCenter/selling",
    listing((q) => ({ kind: "market", seller: requireAddress(q.address) })),
  );
  router.get(
    "/informationCenter/myStorage",
    listing((q) => ({ kind: "owned", owner: requireAddress(q.address), gameOnly: false })),
  );
  router.get(
    "/informationCenter/myFavorite",
    listing((q) => ({ kind: "favorites", address: requireAddress(q.address) })),
  );
  router.get(
    "/gameRelate/getGameNft",
    listing(async (q, req) => {
      const { walletAddress } = await requireCaller(core, req);
      q.address = walletAddress;
      return { kind: "owned", owner: walletAddress, gameOnly: true };
    }),
  );

  router.get(
    "/informationCenter/tokenDetailByTokenId",
    handle(async (req, res) => {
      const { tokenId, nftType, address } = parseMarketInput(tokenRefSchema, marketInput(req));
      sendOk(res, await itemDetail(db, nftType, tokenId, address, core.options.chain));
    }),
  );

  router.get(
    "/metadata/:nftType/:tokenId/:boxType?",
    handle(async (req, res) => {
      const { nftType, tokenId } = parseMarketInput(tokenRefSchema, req.params);
      const item = await findItem(db, nftType, tokenId);
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
}

/** The item's row without its listing's columns: how the page shows an item the chain no longer has on sale. */
function unlisted(row: ItemListingRow): ItemListingRow {
  return { ...row, listing_id: null, price: null, currency: null, listed_at: null, seller_address: null, venue: null, listed_amount: null };
}

/**
 * One item's page: the item, its active listing, its last 10 events, and whether `address` owns or favours it. A
 * chain listing is offered (its signed order, which a buyer's wallet fills) only while the chain still takes it.
 */
async function itemDetail(
  db: Sql,
  nftType: number,
  tokenId: string,
  address: string | undefined,
  chain: BackendChain | undefined,
): Promise<ItemDetail> {
  const item = await requireItem(db, nftType, tokenId);
  const stored = await activeListing(db, item.id);
  const onSale = stored && (!chain || (await chainTakesListing(chain, stored)));
  const listing = onSale ? stored : undefined;
  const withListing = (await itemWithListing(db, item.id))!;
  const row = listing ? withListing : unlisted(withListing);
  const history = await db.all<{
    kind: number;
    from_address: string;
    to_address: string | null;
    price: string;
    currency: string;
    at: number;
  }>(
    "select kind, from_address, to_address, price, currency, at from market_activity where item_id = ? order by at desc, id desc limit 10",
    [item.id],
  );
  const isFavorite = address ? (await favoriteSet(db, address, [item.id])).has(item.id) : undefined;
  return {
    ...toRecord(row, isFavorite),
    ...(address ? { isOwner: sameAddress(address, item.owner_address) } : {}),
    pendingConfirmations: await itemPending(db, item),
    listing: listing
      ? {
          id: listing.id,
          price: readWei(listing.price).toString(),
          currency: listing.currency,
          sellerAddress: listing.seller_address,
          listedAt: isoTime(listing.listed_at),
          nonce: listing.nonce,
          expiry: listing.expiry,
          venue: LISTING_VENUES[listing.venue],
          chainOrder: chainOrderOf(listing, chain?.contracts),
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
}
