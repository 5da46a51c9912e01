/** Wire types of the market's watched searches (docs/api/market.md "Watched searches"). */

export interface WatchRecord {
  id: number;
  /** The market view's canonical query string, without "?". */
  search: string;
  /** The view in words, as the app wrote it ('' for a watch made before labels). */
  label: string;
  currency: string | null;
  /** Wei, or null without a ceiling. */
  ceiling: string | null;
  emailOn: boolean;
  /** Alerts since the list was last opened. */
  fresh: number;
  createdAt: string;
}

/** A watch an alert matched. */
export type AlertWatch = Pick<WatchRecord, "id" | "search" | "label" | "currency" | "ceiling">;

/** One listing's alert to one account (issue 42), naming every watch of theirs it matched. */
export interface AlertRecord {
  id: number;
  watches: AlertWatch[];
  nftType: number;
  tokenId: string;
  name: string;
  /** Wei. */
  price: string;
  currency: string;
  createdAt: string;
  read: boolean;
}

/** GET /watches/inbox. */
export interface Inbox {
  alerts: AlertRecord[];
  unread: number;
}

/** GET and POST /watches/unsubscribe: the watch a signed link names. */
export interface UnsubscribeTarget {
  id: number;
  search: string;
  emailOn: boolean;
}

/** A ceiling is a price in one currency: the form and the API refuse one without it in these words. */
export const CEILING_CURRENCY_MESSAGE = "Choose the currency of the price ceiling";
