/**
 * The pages of offers (issues 30 and 43): the open offers on an item (its own and the collection offers it matches),
 * a buyer's offers, and the offers a holder can accept, best first, each as its record with whether the buyer's game
 * balance still pays it.
 */
import { sameAddress } from "~core/address";
import { MAX_OPEN_OFFERS, OFFERS_PAGE_SIZE } from "~core/constants";
import type { Page } from "~core/api/market";
import { OFFER_STATUSES, OFFER_VENUES, type OfferRecord, type ReceivedOffer } from "~core/api/offers";
import type { Currency } from "~core/money";
import type { Sql } from "../shared/db";
import type { ItemRow } from "../shared/items";
import { balanceOf } from "../shared/ledger";
import { readWei } from "../shared/money";
import { itemsMatching, isoTime } from "../listings";
import { LOCATION } from "../shared/tables";
import { OFFER_STATUS, OFFER_VENUE, type OfferRow, covers, locationOf, nowSeconds, queryOf } from "./offer-terms";

/** How many open collection offers of one type an item or a holder is matched against. */
const COLLECTION_SCAN = 200;
/** How many of a holder's items one collection offer shows (each with its own accept). */
const MATCHES_PER_OFFER = 3;

/** A game balance reader that reads each buyer's balance of a currency once (a page of offers by few buyers). */
function balances(db: Sql) {
  const read = new Map<string, Promise<bigint>>();
  return (offer: OfferRow) => {
    const key = `${offer.buyer_address.toLowerCase()}:${offer.currency}`;
    let balance = read.get(key);
    if (!balance) read.set(key, (balance = balanceOf(db, offer.buyer_address, offer.currency as Currency)));
    return balance;
  };
}

export async function toOfferRecord(db: Sql, offer: OfferRow, balance = balances(db)): Promise<OfferRecord> {
  return {
    id: String(offer.id),
    venue: OFFER_VENUES[offer.venue] ?? "game",
    kind: offer.item_id === null ? "collection" : "item",
    buyerAddress: offer.buyer_address,
    nftType: offer.nft_type,
    tokenId: offer.token_id,
    filter: offer.filter,
    label: offer.label,
    price: readWei(offer.price).toString(),
    currency: offer.currency,
    expiry: Number(offer.expiry),
    status: OFFER_STATUSES[offer.status] ?? "cancelled",
    createdAt: isoTime(Number(offer.created_at)),
    payable: offer.status === OFFER_STATUS.active && (await balance(offer)) >= readWei(offer.price),
  };
}

async function records(db: Sql, offers: OfferRow[]): Promise<OfferRecord[]> {
  const balance = balances(db);
  return await Promise.all(offers.map((offer) => toOfferRecord(db, offer, balance)));
}

/** Which page of a list of offers to serve (issue 43): OFFERS_PAGE_SIZE a page unless asked, best first. */
export interface OfferPaging {
  pageNumber?: number;
  pageSize?: number;
}

/** One page of `all`, already in order; only the page's entries are made into records. */
async function pageOf<T, R>(all: T[], paging: OfferPaging, toRecords: (page: T[]) => Promise<R[]>, capped = false): Promise<Page<R>> {
  const pageNumber = paging.pageNumber ?? 1;
  const pageSize = paging.pageSize ?? OFFERS_PAGE_SIZE;
  const slice = all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  return { records: await toRecords(slice), total: all.length, totalCapped: capped, pageNumber, pageSize };
}

/** Highest price first within a currency (prices compare only within one). */
const byPrice = (a: OfferRow, b: OfferRow) => a.currency.localeCompare(b.currency) || b.price.localeCompare(a.price) || a.id - b.id;

/** Open collection offers of a type, newest first, each with its filter parsed. */
async function openCollectionOffers(db: Sql, nftType: number, now: number) {
  const offers = await db.all<OfferRow>(
    `select * from market_offers where status = 0 and item_id is null and nft_type = ? and expiry > ? order by id desc limit ?`,
    [nftType, nowSeconds(now), COLLECTION_SCAN],
  );
  return offers.map((offer) => ({ offer, query: queryOf(offer) }));
}

/**
 * The open offers on an item, its own and the collection offers whose filter it matches, a page at a time, best
 * first; `offerId` keeps only that offer (an accept names one, wherever it stands in the list).
 */
export async function offersForItem(
  db: Sql,
  item: ItemRow,
  now: number,
  paging: OfferPaging & { offerId?: number } = {},
): Promise<Page<OfferRecord>> {
  const own = await db.all<OfferRow>("select * from market_offers where status = 0 and item_id = ? and expiry > ?", [
    item.id,
    nowSeconds(now),
  ]);
  const matching: OfferRow[] = [];
  for (const { offer, query } of await openCollectionOffers(db, item.nft_type, now)) {
    if (await covers(db, offer, query, item)) matching.push(offer);
  }
  const all = [...own, ...matching].filter((offer) => paging.offerId === undefined || Number(offer.id) === paging.offerId);
  return await pageOf(all.sort(byPrice), paging, (page) => records(db, page));
}

/**
 * A buyer's offers, open ones first, then the latest closed ones: every open one (at most MAX_OPEN_OFFERS, so the
 * pages' sum of a currency's open chain offers, chainOfferAllowance, misses none) and 20 more.
 */
export async function offersOfBuyer(db: Sql, buyer: string, now: number): Promise<OfferRecord[]> {
  const offers = await db.all<OfferRow>(
    `select * from market_offers where buyer_address = ? order by case when status = 0 and expiry > ? then 0 else 1 end, id desc limit ?`,
    [buyer, nowSeconds(now), MAX_OPEN_OFFERS + 20],
  );
  return await records(db, offers);
}

/** The most offers on a holder's items read for one page of offersReceived (the total says "at least" beyond it). */
const RECEIVED_SCAN = 1000;

/**
 * The open offers a holder can accept: game offers on their in-game items and chain offers on their chain-held ones,
 * and the collection offers their items match where the offer's venue trades; a page at a time, best first.
 */
export async function offersReceived(db: Sql, owner: string, now: number, paging: OfferPaging = {}): Promise<Page<ReceivedOffer>> {
  const received: { offer: OfferRow; item: Pick<ItemRow, "token_id" | "nft_type" | "name"> }[] = [];
  const own = await db.all<OfferRow & { item_name: string }>(
    `select o.*, i.name as item_name from market_items i join market_offers o on o.item_id = i.id and o.status = 0
     where i.owner_address = ? and ((o.venue = ? and i.location = ?) or (o.venue = ? and i.location = ?)) and o.expiry > ?
     order by o.id desc limit ?`,
    [owner, OFFER_VENUE.game, LOCATION.game, OFFER_VENUE.chain, LOCATION.chain, nowSeconds(now), RECEIVED_SCAN],
  );
  for (const row of own) received.push({ offer: row, item: { name: row.item_name, token_id: row.token_id!, nft_type: row.nft_type } });
  const types = await db.all<{ nft_type: number }>(
    "select distinct nft_type from market_offers where status = 0 and item_id is null and expiry > ?",
    [nowSeconds(now)],
  );
  for (const { nft_type } of types) {
    for (const { offer, query } of await openCollectionOffers(db, nft_type, now)) {
      if (sameAddress(offer.buyer_address, owner)) continue;
      for (const item of await itemsMatching(db, query, { owner }, MATCHES_PER_OFFER, locationOf(offer))) received.push({ offer, item });
    }
  }
  received.sort((a, b) => byPrice(a.offer, b.offer) || a.item.token_id.localeCompare(b.item.token_id));
  return await pageOf(
    received,
    paging,
    async (page) => {
      const balance = balances(db);
      return await Promise.all(
        page.map(async ({ offer, item }) => ({
          offer: await toOfferRecord(db, offer, balance),
          item: { tokenId: item.token_id, nftType: item.nft_type, name: item.name },
        })),
      );
    },
    own.length === RECEIVED_SCAN,
  );
}
