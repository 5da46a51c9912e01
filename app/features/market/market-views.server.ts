/**
 * The view models of the market API's records, built on the server: names instead of codes, money and times
 * as text, addresses shortened. A route's server code imports them from here, so its page ships none of it.
 */
import type { ActivityEvent, HistoryEvent, ItemDetail, ListingRecord, TradeRecord } from "~core/api/market";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import { shortAddress } from "~core/address";
import type { PendingConfirmations } from "~core/chain-finality";
import { formatIsoTime } from "~core/chain-text";
import { chainStackOf, movesAsStack } from "~core/item-moves";
import { formatPrice } from "~core/money";
import { type NftTypeCode, NFT_TYPE } from "~core/nft";
import { NFT_TYPE_LABELS } from "~/features/market/filters/shared";
import { checksummed, flattenAttributes, gradeLabel, gradeName, isOwner, isSale, namedAttributes, spaceshipStats } from "./listing";
import type { CancelAllOffer, ItemCardModel, TradeRowModel } from "./market-views";
import type { Apis } from "~/services/apis.server";
import type { ItemPageMetadata } from "~/services/token-metadata.server";

/** The detail page of an item, remembering where the visitor came from. */
export function detailHref(ref: { tokenId: string; nftType: number }, back: string): string {
  return `/marketplace/detail?nftType=${ref.nftType}&tokenId=${ref.tokenId}&back=${encodeURIComponent(back)}`;
}

export function typeLabel(nftType: number): string {
  return NFT_TYPE_LABELS[nftType as NftTypeCode] ?? "Item";
}

const WHERE: Record<ListingRecord["location"], string> = { game: "In the game", leaving: "Moving to chain", chain: "On chain" };
/** The card's marker of where a listing trades: the ledger's listings in the game, the trading contract's on chain. */
const VENUE_MARKERS: Record<NonNullable<ListingRecord["venue"]>, string> = { game: "In game", chain: "On chain" };

export function cardView(record: ListingRecord, back: string): ItemCardModel {
  const stats = record.nftType === NFT_TYPE.spaceship ? spaceshipStats(record) : undefined;
  const grade = gradeLabel(record);
  // The grade is the card's badge already; the other attributes describe the item.
  const attributes = namedAttributes(record).filter((attribute) => attribute.label !== gradeName(record.nftType));
  // A stack says how much it holds and where: the same material can be both in the game and on chain.
  const stack =
    record.nftType === NFT_TYPE.material
      ? [
          // A chain listing may sell part of the stack: what the buyer gets comes first.
          { label: "Amount", value: record.listedAmount === null ? String(record.amount) : `${record.listedAmount} of ${record.amount}` },
          { label: "Where", value: WHERE[record.location] },
        ]
      : [];
  return {
    key: `${record.nftType}-${record.tokenId}`,
    href: detailHref(record, back),
    name: record.name,
    image: record.image,
    typeLabel: typeLabel(record.nftType),
    grade: grade ? { label: gradeName(record.nftType), value: grade } : null,
    attributes: [...attributes.slice(0, 4), ...(stats ? [{ label: "Total", value: String(stats.total) }] : []), ...stack],
    price: isSale(record) ? formatPrice(record.price!, record.currency) : null,
    venue: isSale(record) && record.venue ? VENUE_MARKERS[record.venue] : null,
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
    at: formatIsoTime(trade.at),
  };
}

const EVENT_NAMES: Record<ActivityEvent, string> = { list: "Listed", sale: "Sold", cancel: "Sale cancelled", transfer: "Transferred" };

/** One row of the item's history; a transfer has no price. */
export function historyRow(event: HistoryEvent, index: number) {
  return {
    key: `${event.at}-${index}`,
    event: EVENT_NAMES[event.event],
    price: event.event === "transfer" ? "—" : formatPrice(event.price, event.currency),
    from: shortAddress(checksummed(event.fromAddress)),
    to: event.toAddress ? shortAddress(checksummed(event.toAddress)) : null,
    at: formatIsoTime(event.at),
  };
}

/** The detail page's item: its owner ("You" when it is the viewer's `wallet`), status, attributes and history. */
/** The item page's note while its latest chain change is not final (decision 0029); null once it is. */
export function pendingNote(pending: PendingConfirmations | null): string | null {
  if (!pending) return null;
  return `Pending: ${pending.have} of ${pending.need} confirmations — the chain may still take this back.`;
}

export function itemView(
  detail: ItemDetail,
  { wallet, views, chainMetadata = null }: { wallet: string | undefined; views: number; chainMetadata?: ItemPageMetadata | null },
) {
  const owner = checksummed(detail.ownerAddress);
  const onSale = isSale(detail);
  const grade = gradeLabel(detail);
  const chainStack = chainStackOf(detail.tokenId);
  const fromChain = chainMetadata?.status === "read" ? chainMetadata : null;
  return {
    tokenId: detail.tokenId,
    // A chain stack's market id names its holder too: the page shows the ERC-1155 id the chain knows it by.
    tokenLabel: chainStack ? `${chainStack.id} (SparkItems, ERC-1155)` : detail.tokenId,
    isStack: detail.nftType === NFT_TYPE.material && (chainStack !== null || movesAsStack(detail)),
    nftType: detail.nftType,
    name: fromChain?.name ?? detail.name,
    image: fromChain?.image ?? detail.image,
    typeLabel: typeLabel(detail.nftType),
    grade: grade ? { label: gradeName(detail.nftType), value: grade } : null,
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
    venue: detail.listing?.venue ?? null,
    seller: detail.listing ? checksummed(detail.listing.sellerAddress) : null,
    listedAt: detail.listedAt ? formatIsoTime(detail.listedAt) : null,
    named: namedAttributes(detail),
    // A chain token's own metadata (tokenURI) when it was read; else what the market's copy says beyond the attributes.
    metadata: fromChain?.attributes ?? traitsBeyond(namedAttributes(detail), detail.attributes),
    /** Where the metadata shown came from: "chain" (tokenURI), "failed" (it could not be read), or null (not on chain). */
    metadataSource: chainMetadata ? (fromChain ? ("chain" as const) : ("failed" as const)) : null,
    stats: (detail.nftType === NFT_TYPE.spaceship ? spaceshipStats(detail) : undefined) ?? null,
    views,
    favorite: { tokenId: detail.tokenId, nftType: detail.nftType, isFavorite: detail.isFavorite ?? false, favorites: detail.favorites },
    history: detail.history.map(historyRow),
    pending: pendingNote(detail.pendingConfirmations),
  };
}

/**
 * The market's metadata traits the page's Attributes do not already show (the same name and value), nor its type badge:
 * the item page listed the same six rows twice.
 */
export function traitsBeyond(named: { label: string; value: string }[], attributes: ItemDetail["attributes"]) {
  const shown = new Set(named.map((attribute) => `${attribute.label.toLowerCase()}\n${attribute.value}`));
  return Object.entries(flattenAttributes(attributes))
    .map(([name, value]) => ({ name, value: String(value) }))
    .filter((trait) => trait.name.toLowerCase() !== "type" && !shown.has(`${trait.name.toLowerCase()}\n${trait.value}`));
}

/** What the Selling tab needs to offer "Cancel all listings"; a managed wallet has nothing to sign. */
export async function cancelAllOffer(orders: Apis["orders"], user: UserInfo): Promise<CancelAllOffer> {
  if (user.BindAddrType === BIND_ADDR_TYPE.managed) return { browserWallet: null, orderContext: null };
  const address = checksummed(user.WalletAddress);
  const orderContext = await orders.orderContext(address).catch(() => null);
  return { browserWallet: { address, bindAddrType: user.BindAddrType }, orderContext };
}
