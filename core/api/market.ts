/**
 * Wire types of the market API (docs/api/market.md): what the embedded market backend answers and the app's
 * clients expect. Wei is a decimal string, never a number; times are ISO 8601 UTC strings.
 */
import type { PendingConfirmations } from "../chain-finality";
import type { Currency } from "../money";
import type { ItemCodes, SpaceshipStat } from "../nft";

/** An NFT metadata attribute (product §3). */
export interface Trait {
  trait_type: string;
  value: string | number;
}

/** Where an item is: in the game ledger (tradable), leaving under a pending claim, or on chain. */
export const LOCATION_NAMES = ["game", "leaving", "chain"] as const;
export type LocationName = (typeof LOCATION_NAMES)[number];

/** Where a listing is filled: the game ledger (buyToken) or the chain (Trading.quickSale, docs/api/market.md "Chain listings"). */
export const LISTING_VENUES = ["game", "chain"] as const;
export type ListingVenueName = (typeof LISTING_VENUES)[number];

/** The events of an item's history and of the statistics feeds. */
export const ACTIVITY_EVENTS = ["list", "sale", "cancel", "transfer"] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

export interface TokenRef {
  tokenId: string;
  nftType: number;
}

/** A spaceship's stats and their Total; null for other types. */
export type StatValues = Record<SpaceshipStat | "total", number | null>;

/** An item with its active listing, as every listing query answers it. */
export interface ListingRecord extends ItemCodes, StatValues {
  tokenId: string;
  nftTypeName: string;
  ownerAddress: string;
  name: string;
  image: string;
  /** Stack size in whole units, decimal (a uint256 balance can pass 2^53); "1" for a piece. */
  amount: string;
  location: LocationName;
  /** Wei; null when the item is not on sale. */
  price: string | null;
  currency: string | null;
  isSelling: boolean;
  /** Where the active listing is filled; null when the item is not on sale. */
  venue: ListingVenueName | null;
  /** How much of the stack a chain listing sells (an ERC-1155 listing may sell part), decimal; null for any other listing. */
  listedAmount: string | null;
  sellerAddress: string | null;
  listedAt: string | null;
  attributes: Trait[];
  views: number;
  favorites: number;
  /** Present when the request named a wallet (`address`). */
  isFavorite?: boolean;
}

export interface Page<T> {
  records: T[];
  /** Exact up to the API's result window; beyond it `total` stays at the window and `totalCapped` is true. */
  total: number;
  totalCapped: boolean;
  pageNumber: number;
  pageSize: number;
}

/** The item's active listing; `id` names it in a Buy order (listing ids are never reused). */
export interface ActiveListing {
  id: number;
  price: string;
  currency: string;
  sellerAddress: string;
  listedAt: string;
  nonce: string | null;
  expiry: number | null;
  venue: ListingVenueName;
  /** A chain listing's signed order, what quickSale takes; null for a game listing. */
  chainOrder: ChainOrder | null;
}

/**
 * A seller's signed Trading listing (core/trading.ts Listing) as the wire carries it: uint256 fields as decimal
 * strings, the currency as its token address (zero for BNB). core/trading.ts listingOfOrder turns it back.
 */
export interface ChainOrder {
  orderHash: `0x${string}`;
  seller: `0x${string}`;
  collection: `0x${string}`;
  /** 0 ERC-721, 1 ERC-1155. */
  standard: number;
  tokenId: string;
  amount: string;
  currency: `0x${string}`;
  price: string;
  expiry: string;
  salt: string;
  counter: string;
  signature: `0x${string}`;
}

/**
 * A buyer's signed Trading offer (core/trading.ts TradeOffer, decision 0024) as the wire carries it: uint256 and
 * uint96 fields as decimal strings. core/trading.ts offerOfOrder turns it back.
 */
export interface ChainOffer {
  orderHash: `0x${string}`;
  buyer: `0x${string}`;
  collection: `0x${string}`;
  /** 0 ERC-721, 1 ERC-1155. */
  standard: number;
  /** "0" for a collection offer. */
  tokenId: string;
  /** "0" for an offer on one token; else the item-data bits a collection offer pins. */
  dataMask: string;
  dataValue: string;
  amount: string;
  currency: `0x${string}`;
  price: string;
  expiry: string;
  salt: string;
  counter: string;
  signature: `0x${string}`;
}

export interface HistoryEvent {
  event: ActivityEvent;
  fromAddress: string;
  toAddress: string | null;
  price: string;
  currency: string;
  at: string;
}

/** GET /informationCenter/tokenDetailByTokenId. */
export interface ItemDetail extends ListingRecord {
  /** Present when the request named a wallet (`address`). */
  isOwner?: boolean;
  listing: ActiveListing | null;
  /** The latest ten events, newest first. */
  history: HistoryEvent[];
  /**
   * Set while the item's latest chain change (a transfer, a mutation) is not final yet (decision 0029): the blocks
   * mined on top of it, and how many the market waits for. A reorg may still take that change back. Null when final.
   */
  pendingConfirmations: PendingConfirmations | null;
}

/** One row of /statistics/topNft and /statistics/activity. */
export interface TradeRecord {
  event: ActivityEvent;
  tokenId: string;
  nftType: number;
  tokenURI: string;
  name: string;
  image: string;
  price: string;
  currency: string;
  sellerAddress: string;
  buyerAddress: string | null;
  at: string;
  camp: number | null;
  rarity: number | null;
  level: number | null;
  pseType: number | null;
  egseType: number | null;
  rank: number | null;
}

export type VolumeByCurrency = Record<Currency, string>;

/** GET /statistics/volume: daily sale volume per currency, zero-filled, today included. */
export interface VolumeSeries {
  days: number;
  nftType: number | null;
  series: { date: string; trades: number; volume: VolumeByCurrency }[];
  totals: { trades: number; volume: VolumeByCurrency };
}

/** POST /informationCenter/favorite/add and /remove. */
export interface FavoriteResult extends TokenRef {
  isFavorite: boolean;
  favorites: number;
}

/** POST /marketplace/token/views/add: `counted` is false for a visitor's second view of the day. */
export interface ViewResult extends TokenRef {
  counted: boolean;
  views: number;
}

/** GET /marketplace/orderContext: what a browser wallet needs to sign an order. */
export interface OrderContext {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  /** The wallet's cancel-all counter, decimal. */
  counter: string;
}

/** POST /informationCenter/buyToken: the item after the sale, and the sale. */
export interface SaleResult extends ListingRecord {
  sale: { transactionId: string; price: string; currency: string };
}

/** POST /informationCenter/cancelAllSell. */
export interface CancelAllResult {
  cancelled: number;
  /** The wallet's new cancel-all counter, decimal. */
  counter: string;
}

/** GET /gameRelate/getGameToken. */
export interface GameBalances {
  gameTag: number;
  address: string;
  balances: Record<Currency, string>;
}

/** A claim from the game to the chain (GET /gameRelate/claimStatus, GET /gameRelate/claims). */
export interface ClaimRecord {
  /** Also the claim's nonce. */
  txId: string;
  status: number;
  statusName: "pending" | "claimed" | "expired";
  account: string;
  /** 0 token, 1 NFT. */
  kind: number;
  asset: string;
  /** FIRE or QUARK for a token claim. */
  currency: string | null;
  /** Wei for a token, the token id for an NFT. */
  idOrAmount: string;
  /** Unix seconds. */
  deadline: number;
  chainId: number;
  assetManager: string;
  claim_content: string;
  createdAt: string;
}

/** A signed claim (POST /gameRelate/takeOutTokenSign, POST /gameRelate/takeOutSign). */
export interface SignedClaimWire {
  claim_content: string;
  r: string;
  s: string;
  v: string;
  txId: string;
  deadline: number;
}

/** GET /informationCenter/getInviteCode. */
export interface InviteCode {
  inviteCode: string;
  inviterAddress: string;
  invitePath: string;
  invitedCount: number;
}

/** A rebate balance in one currency. */
export interface RebateTotal {
  currency: Currency;
  earned: string;
  claimed: string;
  claimable: string;
}

/** GET /informationCenter/showRebateInfo. */
export interface RebateInfo {
  inviteCode: string;
  invitedCount: number;
  rebateBps: number;
  /** One row per currency. */
  totals: RebateTotal[];
  /** The latest twenty rebates, newest first. */
  recent: { inviteeAddress: string; currency: string; amount: string; at: string }[];
}

/**
 * POST /informationCenter/claimRebate: the claimed amount, now an award the reward manager pays on chain (decision
 * 0017), with its signed claim; `balance` is the game balance, which a claim no longer changes.
 */
export interface RebateClaim {
  currency: Currency;
  amount: string;
  balance: string;
  award: AwardRecord;
  /** The signed claim to submit with awardClaim(account, claim_content, v, r, s). */
  claim: SignedClaimWire;
}

/** An award the reward manager pays once (GET /informationCenter/awards, claimRebate). */
export interface AwardRecord {
  /** Also the award's nonce (queryClaim(account, nonce)). */
  txId: string;
  status: number;
  statusName: "signed" | "sent" | "paid" | "expired";
  account: string;
  /** Why it is paid: "rebate". */
  reason: string;
  currency: string;
  /** The ERC-20, or the zero address for BNB. */
  token: string;
  /** Wei. */
  amount: string;
  /** Unix seconds. */
  deadline: number;
  chainId: number;
  rewardManager: string;
  createdAt: string;
}

/** POST /informationCenter/acceptInvite. */
export interface InviteAccepted {
  inviterAddress: string;
  code: string;
}

/** The price-history periods (GET /marketplace/priceHistory `period`); a view's default is the first. */
export const HISTORY_PERIODS = ["30d", "7d", "90d", "all"] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

/** One currency's amount (wei, decimal). */
export interface CurrencyAmount {
  currency: Currency;
  amount: string;
}

/** GET /marketplace/viewNumbers: the numbers at the top of a market view, for exactly its filter. */
export interface ViewNumbers {
  /** The cheapest active listing in each currency that has one, and how many are listed in it. */
  floor: { currency: Currency; price: string; listed: number }[];
  /** Active listings of the view, counted as the listing query counts them (capped at RESULT_WINDOW). */
  listed: { total: number; capped: boolean };
  /** Sales of the view in the 24 h and 7 days before `asOf`, with their volume per currency. */
  windows: { window: "24h" | "7d"; sales: number; volume: CurrencyAmount[] }[];
  lastSale: { price: string; currency: Currency; at: string; tokenId: string; nftType: number } | null;
  asOf: string;
  /** The next moment a sale leaves a window: the numbers change then although the market did not; null if never. */
  changesAt: string | null;
}

/** GET /marketplace/priceHistory: a view's (or one item's) sales per bucket of whole UTC days, per currency. */
export interface PriceHistory {
  period: HistoryPeriod;
  /** The first bucket's first day (UTC midnight). */
  from: string;
  bucketDays: number;
  buckets: number;
  /** Buckets with sales only (`index` counts from `from`); low and high are the bucket's cheapest and dearest sale. */
  series: { currency: Currency; points: { index: number; sales: number; low: string; high: string }[] }[];
  /** The next UTC midnight: the buckets move on then. */
  changesAt: string;
}
