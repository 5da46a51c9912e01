/**
 * Kysely table types of the market backend, on SQLite and PostgreSQL alike. Every table is prefixed `market_`
 * because the SSO backend shares the database (the SQLite file, or the PostgreSQL database). Conventions:
 * - addresses are EIP-55 checksummed text;
 * - times are integer milliseconds since the epoch (`*_at`), claim deadlines are unix seconds like on chain;
 * - wei amounts that are sorted or range-compared (listing and trade prices) are TEXT zero-padded to 78
 *   digits, so text order is numeric order for the whole uint256 range; other wei amounts are plain decimal TEXT.
 */
import type { Generated } from "kysely";
import type { ItemAttributeColumns } from "~core/item-catalog";

export { ATTRIBUTE_COLUMNS, type ItemAttributeColumns } from "~core/item-catalog";

/** Where an item is: in the game ledger (tradable), leaving under a pending claim, or on chain. */
export const LOCATION = { game: 0, leaving: 1, chain: 2 } as const;
export type Location = (typeof LOCATION)[keyof typeof LOCATION];

export interface ItemsTable extends ItemAttributeColumns {
  id: Generated<number>;
  nft_type: number;
  /** Canonical decimal (uint256 fits). */
  token_id: string;
  owner_address: string;
  location: Location;
  name: string;
  image: string;
  /** Stack size, decimal text (a uint256 balance): materials come in lots, everything else is 1. */
  amount: string;
  /** NFT metadata attributes, JSON `[{trait_type, value}]`, for display only. */
  attributes: string;
  views: number;
  favorites: number;
  created_at: number;
  updated_at: number;
}

/** market_items as stored: the item, and the chain indexer's bookkeeping, which the market's reads do not use. */
export interface StoredItemsTable extends ItemsTable {
  /**
   * The block of the last transfer the chain indexer's transfers stream applied to the item, so a reorg finds the
   * items it may have to read again; null for an item that stream never wrote.
   */
  chain_block: number | null;
}

export const LISTING_STATUS = { active: 0, sold: 1, cancelled: 2 } as const;
export type ListingStatus = (typeof LISTING_STATUS)[keyof typeof LISTING_STATUS];

/** Where a listing is filled: the game ledger (buyToken) or the chain (Trading.quickSale). */
export const LISTING_VENUE = { game: 0, chain: 1 } as const;
export type ListingVenue = (typeof LISTING_VENUE)[keyof typeof LISTING_VENUE];

export interface ListingsTable extends ItemAttributeColumns {
  id: Generated<number>;
  item_id: number;
  nft_type: number;
  token_id: string;
  seller_address: string;
  buyer_address: string | null;
  /** Wei, zero-padded to 78 digits. */
  price: string;
  currency: string;
  status: ListingStatus;
  listed_at: number;
  closed_at: number | null;
  /** Order fields the signature covers (verified by verifyOrder). */
  nonce: string | null;
  expiry: number | null;
  signature: string | null;
  buy_signature: string | null;
  cancel_signature: string | null;
  /** Copy of the attribute that ranks items of this type (GRADE_COLUMNS), -1 when unset: the market's index prefix. */
  grade: number;
  /** Copies of the item's counters, so the market can sort by them from one index. */
  views: number;
  favorites: number;
  venue: ListingVenue;
  /** A chain listing's signed Trading fields (null on a ledger listing); uint256 ones as decimal text. */
  collection: string | null;
  standard: number | null;
  amount: string | null;
  salt: string | null;
  counter: string | null;
  /** Trading.hashListing: the key of the Sale and ListingCancelled events. */
  order_hash: string | null;
}

export const ACTIVITY_KIND = { list: 0, sale: 1, cancel: 2, transfer: 3 } as const;
export type ActivityKind = (typeof ACTIVITY_KIND)[keyof typeof ACTIVITY_KIND];

export interface ActivityTable {
  id: Generated<number>;
  kind: ActivityKind;
  item_id: number;
  listing_id: number | null;
  nft_type: number;
  token_id: string;
  /** Seller (or lister / canceller). */
  from_address: string;
  /** Buyer of a sale. */
  to_address: string | null;
  /** Wei, zero-padded to 78 digits. */
  price: string;
  currency: string;
  at: number;
  /** Copies for the statistics filters. */
  camp: number | null;
  rarity: number | null;
  level: number | null;
  pse_type: number | null;
  egse_type: number | null;
  spaceship_type: number | null;
}

export interface DailyVolumeTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  nft_type: number;
  currency: string;
  /** Wei, plain decimal. */
  volume: string;
  trades: number;
}

export interface BalancesTable {
  address: string;
  currency: string;
  /** Wei, plain decimal. */
  amount: string;
}

export interface FavoritesTable {
  address: string;
  item_id: number;
  created_at: number;
}

export interface ViewsTable {
  item_id: number;
  /** A wallet address, or `ip:<hash>` for anonymous visitors. */
  visitor: string;
  day: string;
}

export interface InviteCodesTable {
  code: string;
  address: string;
  created_at: number;
}

export interface InvitesTable {
  invitee_address: string;
  inviter_address: string;
  code: string;
  created_at: number;
}

export interface RebatesTable {
  id: Generated<number>;
  /** The inviter who earns the rebate. */
  address: string;
  invitee_address: string;
  activity_id: number;
  currency: string;
  /** Wei, plain decimal. */
  amount: string;
  created_at: number;
}

export interface RebateBalancesTable {
  address: string;
  currency: string;
  /** Wei, plain decimal. */
  earned: string;
  claimed: string;
}

export const CLAIM_STATUS = { pending: 0, claimed: 1, expired: 2 } as const;
export type ClaimStatus = (typeof CLAIM_STATUS)[keyof typeof CLAIM_STATUS];
import type { ClaimKind } from "~core/claim";

export { CLAIM_KIND, type ClaimKind } from "~core/claim";

export interface ClaimsTable {
  /** Also the claim's nonce and the txId of /gameRelate/claimStatus. */
  id: number;
  account: string;
  kind: ClaimKind;
  asset: string;
  /** Set for token claims. */
  currency: string | null;
  /** Set for NFT claims. */
  item_id: number | null;
  /** Token id or wei amount, plain decimal. */
  id_or_amount: string;
  /** Unix seconds. */
  deadline: number;
  chain_id: number;
  asset_manager: string;
  claim_content: string;
  signature: string;
  status: ClaimStatus;
  created_at: number;
  updated_at: number;
  /** The client's key for the request that asked for it (a form render), so a repeat gets the same claim. */
  request_key: string | null;
}

/** An award's state: signed for the wallet, sent (handed to a wallet to submit), paid on chain, or expired unpaid and returned. */
export const AWARD_STATUS = { signed: 0, sent: 1, paid: 2, expired: 3 } as const;
export type AwardStatus = (typeof AWARD_STATUS)[keyof typeof AWARD_STATUS];

/** An award the reward manager pays once (awards/awards.ts): a claimed rebate. */
export interface AwardsTable {
  /** Also the award's nonce in its claim. */
  id: number;
  account: string;
  /** Why it is paid: "rebate". */
  reason: string;
  currency: string;
  /** The ERC-20, or the zero address for BNB. */
  token: string;
  /** Wei, plain decimal. */
  amount: string;
  /** Unix seconds. */
  deadline: number;
  chain_id: number;
  reward_manager: string;
  claim_content: string;
  signature: string;
  status: AwardStatus;
  created_at: number;
  updated_at: number;
}

export interface UsedNoncesTable {
  signer: string;
  /** uint256 as decimal text. */
  nonce: string;
  kind: string;
  used_at: number;
}

export interface OrderCountersTable {
  address: string;
  counter: number;
}

/** The chain indexer's position per stream of followed events (backend/market/indexer). */
export interface ChainCursorsTable {
  stream: string;
  /** The last block whose events are applied. */
  block: number;
  /** That block's hash when it was applied, to notice a reorg; null before a stream's first range with one. */
  block_hash: string | null;
  updated_at: number;
}

export interface MarketTables {
  market_used_nonces: UsedNoncesTable;
  market_order_counters: OrderCountersTable;
  market_items: StoredItemsTable;
  market_listings: ListingsTable;
  market_activity: ActivityTable;
  market_daily_volume: DailyVolumeTable;
  market_balances: BalancesTable;
  market_favorites: FavoritesTable;
  market_views: ViewsTable;
  market_invite_codes: InviteCodesTable;
  market_invites: InvitesTable;
  market_rebates: RebatesTable;
  market_rebate_balances: RebateBalancesTable;
  market_claims: ClaimsTable;
  market_awards: AwardsTable;
  market_chain_cursors: ChainCursorsTable;
}
