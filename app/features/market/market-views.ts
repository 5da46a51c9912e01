/**
 * What the marketplace views render: built on the server (features/market/market-views.server.ts) from API records,
 * names instead of codes, money as text.
 */
import type { OrderContext } from "~core/api/market";

export interface ItemCardModel {
  key: string;
  /** Detail page, carrying the page it came from as `back`. */
  href: string;
  name: string;
  image: string;
  typeLabel: string;
  /** product §3 rank label for loot boxes, otherwise the grade attribute ("Rarity": "Rare"). */
  grade: { label: string; value: string } | null;
  attributes: { label: string; value: string }[];
  /** "12.5 FIRE"; null when not on sale. */
  price: string | null;
  /** Where the sale trades ("On chain", "In game"); null when not on sale. */
  venue: string | null;
  favorites: number;
  views: number;
  /** In the holder's storage: move the item between the game and the chain, or why it cannot. */
  move?: StorageMove | null;
}

/** A managed wallet posts the form to /bridge; a browser wallet signs on the item's page (`href`). */
export type StorageMove =
  | {
      label: string;
      form: Record<string, string> | null;
      href: string;
      /** A stack's size, decimal (a uint256): its form has an amount field, all of it to start with. */
      amount?: string;
      /** What the move ends, said by its button ("Its sale ends."). */
      note?: string;
    }
  | { reason: string };

export interface TradeRowModel {
  key: string;
  href: string;
  name: string;
  image: string;
  typeLabel: string;
  price: string;
  seller: string;
  buyer: string | null;
  /** "2026-11-20 14:03 UTC": formatted on the server so the page hydrates with the same text. */
  at: string;
}

export interface PageInfo {
  page: number;
  pageSize: number;
  total: number;
  /** More than `total` match. */
  capped: boolean;
}

/** What the Selling tab needs to offer "Cancel all listings": a browser wallet signs with the order context. */
export interface CancelAllOffer {
  browserWallet: { address: string; bindAddrType: number } | null;
  orderContext: OrderContext | null;
}
