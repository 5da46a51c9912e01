/**
 * The market ledger: items, listings, balances and the trade log, and the SPEC §4 listing state machine
 * (held → on sale → held | sold). Every function here is synchronous and expects to run inside one
 * MarketDb transaction, so a transition is all-or-nothing.
 */
import { ApiError } from "../http";
import { sameAddress } from "~core/address";
import type { TokenOwner } from "../types";
import type { MarketDb } from "./db";
import { bumpOrderCounter, ORDER_MSG, orderCounter, spendNonce } from "./orders";
import type { Currency } from "~core/money";
import { padWei, readWei } from "./money";
import {
  ACTIVITY_KIND,
  type ActivityKind,
  type ItemAttributeColumns,
  type ItemsTable,
  LISTING_STATUS,
  LOCATION,
  type ListingsTable,
} from "./tables";
import type { Selectable } from "kysely";
import type { NftTypeCode } from "~core/nft";
import { LISTING_CHANGED_MESSAGE } from "~core/orders";
import { GRADE_COLUMNS } from "./catalog";

export type ItemRow = Selectable<ItemsTable>;
export type ListingRow = Selectable<ListingsTable>;

export const ATTRIBUTE_COLUMN_NAMES = [
  "camp", "rarity", "identity", "profession", "material", "level", "pse_type", "egse_type", "egg_type",
  "spaceship_type", "equipment_type", "equipment_code", "box_type", "endurance", "agility", "pisonic", "strength",
  "crit", "spirit", "armor", "total",
] as const satisfies readonly (keyof ItemAttributeColumns)[];

/** Each party's inviter earns this share of a trade as a rebate (basis points), paid by the platform. */
export const REBATE_BPS = 100n;

export const MSG = {
  notFound: "Item not found",
  notOwner: "You do not own this item",
  notYourWallet: "address is not the wallet bound to your account",
  notInGame: "The item is not in the game (it is on chain or on its way there)",
  alreadyOnSale: "The item is already on sale",
  notOnSale: "The item is not on sale",
  alreadySold: "Already sold",
  notSeller: "Only the seller can cancel this sale",
  ownItem: "You cannot buy your own item",
  expired: "The listing has expired",
  listingChanged: LISTING_CHANGED_MESSAGE,
  noBalance: "Transaction failed. You do not have enough balance.",
} as const;

export function findItem(db: MarketDb, nftType: number, tokenId: string): ItemRow | undefined {
  return db.get<ItemRow>("select * from market_items where nft_type = ? and token_id = ?", [nftType, tokenId]);
}

export function requireItem(db: MarketDb, nftType: number, tokenId: string): ItemRow {
  const item = findItem(db, nftType, tokenId);
  if (!item) throw new ApiError(404, MSG.notFound);
  return item;
}

export function activeListing(db: MarketDb, itemId: number): ListingRow | undefined {
  return db.get<ListingRow>("select * from market_listings where item_id = ? and status = 0", [itemId]);
}

function lastListing(db: MarketDb, itemId: number): ListingRow | undefined {
  return db.get<ListingRow>("select * from market_listings where item_id = ? order by id desc limit 1", [itemId]);
}

// ---- balances -------------------------------------------------------------------------------------------

export function balanceOf(db: MarketDb, address: string, currency: Currency): bigint {
  const row = db.get<{ amount: string }>("select amount from market_balances where address = ? and currency = ?", [
    address,
    currency,
  ]);
  return row ? readWei(row.amount) : 0n;
}

export function credit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  const next = balanceOf(db, address, currency) + amount;
  db.run(
    `insert into market_balances (address, currency, amount) values (?, ?, ?)
     on conflict (address, currency) do update set amount = excluded.amount`,
    [address, currency, next.toString()],
  );
  return next;
}

/** Takes `amount` from a game balance, or refuses with SPEC §5's balance message. */
export function debit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  const balance = balanceOf(db, address, currency);
  if (balance < amount) throw new ApiError(400, MSG.noBalance);
  return credit(db, address, currency, -amount);
}

// ---- writes shared by the live operations and the seed --------------------------------------------------

export interface NewListing {
  seller: string;
  price: bigint;
  currency: Currency;
  listedAt: number;
  status?: (typeof LISTING_STATUS)[keyof typeof LISTING_STATUS];
  buyer?: string | null;
  closedAt?: number | null;
  nonce?: string | null;
  expiry?: number | null;
  signature?: string | null;
}

const LISTING_INSERT = `insert into market_listings (
  item_id, nft_type, token_id, seller_address, buyer_address, price, currency, status, listed_at, closed_at,
  nonce, expiry, signature, views, favorites, grade, ${ATTRIBUTE_COLUMN_NAMES.join(", ")}
) values (${Array(16 + ATTRIBUTE_COLUMN_NAMES.length).fill("?").join(", ")})`;

/** A listing row carrying copies of the item's filter columns, so one index answers a market page. */
export function insertListing(db: MarketDb, item: ItemRow, listing: NewListing): number {
  const result = db.run(LISTING_INSERT, [
    item.id,
    item.nft_type,
    item.token_id,
    listing.seller,
    listing.buyer ?? null,
    padWei(listing.price),
    listing.currency,
    listing.status ?? LISTING_STATUS.active,
    listing.listedAt,
    listing.closedAt ?? null,
    listing.nonce ?? null,
    listing.expiry ?? null,
    listing.signature ?? null,
    item.views,
    item.favorites,
    item[GRADE_COLUMNS[item.nft_type as NftTypeCode].column] ?? -1,
    ...ATTRIBUTE_COLUMN_NAMES.map((name) => item[name]),
  ]);
  return Number(result.lastInsertRowid);
}

export interface NewActivity {
  kind: ActivityKind;
  item: ItemRow;
  listingId: number | null;
  from: string;
  to?: string | null;
  price: bigint;
  currency: Currency;
  at: number;
}

export function recordActivity(db: MarketDb, a: NewActivity): number {
  const { item } = a;
  const result = db.run(
    `insert into market_activity (kind, item_id, listing_id, nft_type, token_id, from_address, to_address, price, currency, at,
       camp, rarity, level, pse_type, egse_type, spaceship_type)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      a.kind, item.id, a.listingId, item.nft_type, item.token_id, a.from, a.to ?? null, padWei(a.price), a.currency, a.at,
      item.camp, item.rarity, item.level, item.pse_type, item.egse_type, item.spaceship_type,
    ],
  );
  return Number(result.lastInsertRowid);
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Rolls a sale into the daily volume, so the volume chart reads days, not trades. */
export function addDailyVolume(db: MarketDb, at: number, nftType: number, currency: Currency, price: bigint): void {
  const day = utcDay(at);
  const row = db.get<{ volume: string }>(
    "select volume from market_daily_volume where day = ? and nft_type = ? and currency = ?",
    [day, nftType, currency],
  );
  const volume = (row ? readWei(row.volume) : 0n) + price;
  db.run(
    `insert into market_daily_volume (day, nft_type, currency, volume, trades) values (?, ?, ?, ?, 1)
     on conflict (day, nft_type, currency) do update set volume = excluded.volume, trades = trades + 1`,
    [day, nftType, currency, volume.toString()],
  );
}

export function inviterOf(db: MarketDb, address: string): string | undefined {
  return db.get<{ inviter_address: string }>("select inviter_address from market_invites where invitee_address = ?", [
    address,
  ])?.inviter_address;
}

export function creditRebate(db: MarketDb, address: string, currency: Currency, amount: bigint): void {
  const row = db.get<{ earned: string }>(
    "select earned from market_rebate_balances where address = ? and currency = ?",
    [address, currency],
  );
  const earned = (row ? readWei(row.earned) : 0n) + amount;
  db.run(
    `insert into market_rebate_balances (address, currency, earned, claimed) values (?, ?, ?, '0')
     on conflict (address, currency) do update set earned = excluded.earned`,
    [address, currency, earned.toString()],
  );
}

/** Each trading party's inviter earns REBATE_BPS of the price. */
export function accrueRebates(
  db: MarketDb,
  activityId: number,
  parties: readonly string[],
  currency: Currency,
  price: bigint,
  at: number,
): void {
  const amount = (price * REBATE_BPS) / 10_000n;
  if (amount === 0n) return;
  for (const party of parties) {
    const inviter = inviterOf(db, party);
    if (!inviter) continue;
    db.run(
      `insert into market_rebates (address, invitee_address, activity_id, currency, amount, created_at)
       values (?, ?, ?, ?, ?, ?)`,
      [inviter, party, activityId, currency, amount.toString(), at],
    );
    creditRebate(db, inviter, currency, amount);
  }
}

/** Bumps an item's counter and its active listing's copy. */
export function bumpCounter(db: MarketDb, itemId: number, counter: "views" | "favorites", delta: number): void {
  db.run(`update market_items set ${counter} = max(0, ${counter} + ?) where id = ?`, [delta, itemId]);
  db.run(`update market_listings set ${counter} = max(0, ${counter} + ?) where item_id = ? and status = 0`, [delta, itemId]);
}

// ---- orders --------------------------------------------------------------------------------------------
// Each state change below runs inside one transaction, after orders.ts has verified (or, for a managed
// wallet, made) the order's signature. They re-check every rule, so nothing between the two can slip by.

export interface SignedFields {
  nonce: bigint;
  expiry: bigint;
  signature: string;
}

export interface SellInput {
  tokenId: string;
  nftType: number;
  ownerAddress: string;
  address: string;
  price: bigint;
  currency: Currency;
}

export function requireCallerWallet(caller: TokenOwner, address: string): string {
  if (!caller.walletAddress || !sameAddress(caller.walletAddress, address)) throw new ApiError(403, MSG.notYourWallet);
  return caller.walletAddress;
}

/** The checks a sell must pass, before anything is signed and again inside the transaction. */
export function requireSellable(db: MarketDb, wallet: string, input: SellInput): ItemRow {
  const item = requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, wallet)) throw new ApiError(403, MSG.notOwner);
  if (!sameAddress(input.ownerAddress, item.owner_address)) {
    throw new ApiError(400, "ownerAddress: expected the item's current owner");
  }
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  if (activeListing(db, item.id)) throw new ApiError(409, MSG.alreadyOnSale);
  return item;
}

/** held → on sale. */
export function sell(db: MarketDb, caller: TokenOwner, input: SellInput, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  const item = requireSellable(db, wallet, input);
  spendNonce(db, wallet, order.nonce, "sell", now);
  const listingId = insertListing(db, item, {
    seller: wallet,
    price: input.price,
    currency: input.currency,
    listedAt: now,
    nonce: order.nonce.toString(),
    expiry: Number(order.expiry),
    signature: order.signature,
  });
  recordActivity(db, { kind: ACTIVITY_KIND.list, item, listingId, from: wallet, price: input.price, currency: input.currency, at: now });
  return { listingId, item };
}

/** The seller's active listing of an item, or the reason there is none to cancel. */
export function requireCancellable(db: MarketDb, wallet: string, input: { tokenId: string; nftType: number }) {
  const item = requireItem(db, input.nftType, input.tokenId);
  const listing = activeListing(db, item.id);
  if (!listing) throw new ApiError(409, MSG.notOnSale);
  if (!sameAddress(listing.seller_address, wallet)) throw new ApiError(403, MSG.notSeller);
  return { item, listing };
}

/** on sale → held. */
export function cancel(db: MarketDb, caller: TokenOwner, input: { tokenId: string; nftType: number; address: string }, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  const { item, listing } = requireCancellable(db, wallet, input);
  spendNonce(db, wallet, order.nonce, "cancel", now);
  closeListing(db, item, listing, now, order.signature);
  return { listingId: listing.id, item };
}

/** "Cancel all listings": bumps the wallet's counter, which voids every sell order signed before, and closes them. */
export function cancelAll(db: MarketDb, caller: TokenOwner, input: { address: string; counter: bigint }, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  if (input.counter !== orderCounter(db, wallet)) throw new ApiError(409, "Your listings have changed since you signed. Please sign again.");
  spendNonce(db, wallet, order.nonce, "cancelAll", now);
  const counter = bumpOrderCounter(db, wallet);
  const listings = db.all<ListingRow>("select * from market_listings where status = 0 and seller_address = ?", [wallet]);
  for (const listing of listings) {
    const item = db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id])!;
    closeListing(db, item, listing, now, order.signature);
  }
  return { cancelled: listings.length, counter };
}

/** Cancels an active listing (by its seller, or because the item leaves the game) and logs it. */
export function closeListing(db: MarketDb, item: ItemRow, listing: ListingRow, now: number, signature: string | null): void {
  db.run("update market_listings set status = ?, closed_at = ?, cancel_signature = ? where id = ?", [
    LISTING_STATUS.cancelled,
    now,
    signature,
    listing.id,
  ]);
  recordActivity(db, {
    kind: ACTIVITY_KIND.cancel,
    item,
    listingId: listing.id,
    from: listing.seller_address,
    price: readWei(listing.price),
    currency: listing.currency as Currency,
    at: now,
  });
}

/** Listings whose signed expiry has passed are closed like a cancel, at their expiry time. */
export function expireListings(db: MarketDb, now: number): number {
  const expired = db.all<ListingRow>(
    "select * from market_listings where status = 0 and expiry is not null and expiry <= ?",
    [Math.floor(now / 1000)],
  );
  for (const listing of expired) {
    const item = db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id])!;
    closeListing(db, item, listing, listing.expiry! * 1000, null);
  }
  return expired.length;
}

export interface BuyInput {
  tokenId: string;
  nftType: number;
  /** The listing the buyer agreed to: a relisting of the item, even at the same price, is refused. */
  listingId: number;
  price: bigint;
}

/** The listing a buyer may take at `price`, or the reason they may not (checked before signing and inside the sale). */
export function requireBuyable(db: MarketDb, buyer: string, input: BuyInput, now: number) {
  const item = requireItem(db, input.nftType, input.tokenId);
  const listing = activeListing(db, item.id);
  if (!listing) {
    throw new ApiError(409, lastListing(db, item.id)?.status === LISTING_STATUS.sold ? MSG.alreadySold : MSG.notOnSale);
  }
  if (listing.id !== input.listingId) throw new ApiError(409, MSG.listingChanged);
  if (listing.expiry !== null && listing.expiry * 1000 <= now) throw new ApiError(409, MSG.expired);
  if (sameAddress(listing.seller_address, buyer)) throw new ApiError(400, MSG.ownItem);
  const price = readWei(listing.price);
  const currency = listing.currency as Currency;
  if (input.price !== price) {
    throw new ApiError(409, `The price has changed: the item now costs ${price} wei ${currency}`);
  }
  return { item, listing, price, currency };
}

/** on sale → sold: the buyer pays the seller from their game balances and becomes the owner. */
export function buy(
  db: MarketDb,
  caller: TokenOwner,
  input: BuyInput & { address: string },
  order: SignedFields,
  now: number,
) {
  const buyer = requireCallerWallet(caller, input.address);
  const { item, listing, price, currency } = requireBuyable(db, buyer, input, now);
  spendNonce(db, buyer, order.nonce, "buy", now);
  debit(db, buyer, currency, price);
  credit(db, listing.seller_address, currency, price);
  db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [buyer, now, item.id]);
  db.run("update market_listings set status = ?, buyer_address = ?, closed_at = ?, buy_signature = ? where id = ?", [
    LISTING_STATUS.sold,
    buyer,
    now,
    order.signature,
    listing.id,
  ]);
  const activityId = recordActivity(db, {
    kind: ACTIVITY_KIND.sale,
    item,
    listingId: listing.id,
    from: listing.seller_address,
    to: buyer,
    price,
    currency,
    at: now,
  });
  addDailyVolume(db, now, item.nft_type, currency, price);
  accrueRebates(db, activityId, [buyer, listing.seller_address], currency, price, now);
  return { item, listing, buyer, price, currency, activityId };
}

/** The item a wallet may give away to `to`, or the reason it may not. */
export function requireTransferable(db: MarketDb, from: string, input: { tokenId: string; nftType: number; to: string }) {
  if (sameAddress(from, input.to)) throw new ApiError(400, ORDER_MSG.sameAddress);
  const item = requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, from)) throw new ApiError(403, MSG.notOwner);
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  return item;
}

/** Gives an in-game item to another wallet. Its listing, if any, dies: the item moved. */
export function transfer(
  db: MarketDb,
  caller: TokenOwner,
  input: { tokenId: string; nftType: number; address: string; to: string },
  order: SignedFields,
  now: number,
) {
  const from = requireCallerWallet(caller, input.address);
  const item = requireTransferable(db, from, input);
  spendNonce(db, from, order.nonce, "transfer", now);
  const listing = activeListing(db, item.id);
  if (listing) closeListing(db, item, listing, now, order.signature);
  db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [input.to, now, item.id]);
  recordActivity(db, { kind: ACTIVITY_KIND.transfer, item, listingId: null, from, to: input.to, price: 0n, currency: "FIRE", at: now });
  return { item: { ...item, owner_address: input.to } };
}

// ---- favorites and views -------------------------------------------------------------------------------

/** Idempotent: adding twice leaves one favorite; answers whether it is now a favorite and the count. */
export function setFavorite(db: MarketDb, address: string, item: ItemRow, on: boolean, now: number) {
  const changed = on
    ? db.run("insert or ignore into market_favorites (address, item_id, created_at) values (?, ?, ?)", [address, item.id, now])
        .changes
    : db.run("delete from market_favorites where address = ? and item_id = ?", [address, item.id]).changes;
  if (changed) bumpCounter(db, item.id, "favorites", on ? 1 : -1);
  const favorites = db.get<{ favorites: number }>("select favorites from market_items where id = ?", [item.id])!.favorites;
  return { isFavorite: on, favorites };
}

/** Counts a view once per visitor per UTC day. */
export function addView(db: MarketDb, item: ItemRow, visitor: string, now: number) {
  const counted =
    db.run("insert or ignore into market_views (item_id, visitor, day) values (?, ?, ?)", [item.id, visitor, utcDay(now)])
      .changes > 0;
  if (counted) bumpCounter(db, item.id, "views", 1);
  const views = db.get<{ views: number }>("select views from market_items where id = ?", [item.id])!.views;
  return { counted, views };
}

// ---- ledger entry points for the chain indexer ---------------------------------------------------------

/** A token swap from the chain into the game (read by the indexer from the asset manager's events). */
export function creditGameBalance(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  return credit(db, address, currency, amount);
}

/** An NFT swapped from the chain into the game: it becomes tradable again, owned by `owner`. */
export function receiveItemIntoGame(db: MarketDb, nftType: number, tokenId: string, owner: string, now: number): void {
  const changed = db.run("update market_items set owner_address = ?, location = ?, updated_at = ? where nft_type = ? and token_id = ?", [
    owner,
    LOCATION.game,
    now,
    nftType,
    tokenId,
  ]).changes;
  if (!changed) throw new ApiError(404, MSG.notFound);
}
