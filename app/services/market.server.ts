/**
 * Typed calls of the market API (SPEC §7 "Java (market) backend"; docs/api/market.md) through the backend client.
 * Wei stays a decimal string here; the app turns it into bigint only to compute or format.
 */
import type { MarketQuery } from "~/domain/filters";
import type { ItemCodes } from "~/domain/listing";
import type { BackendClient } from "./http-client.server";

export interface Trait {
  trait_type: string;
  value: string | number;
}

export interface ListingRecord extends ItemCodes {
  tokenId: string;
  nftTypeName: string;
  ownerAddress: string;
  name: string;
  image: string;
  amount: number;
  location: "game" | "leaving" | "chain";
  /** Wei; null when the item is not on sale. */
  price: string | null;
  currency: string | null;
  isSelling: boolean;
  sellerAddress: string | null;
  listedAt: string | null;
  attributes: Trait[];
  endurance: number | null;
  agility: number | null;
  pisonic: number | null;
  strength: number | null;
  crit: number | null;
  spirit: number | null;
  armor: number | null;
  total: number | null;
  views: number;
  favorites: number;
  isFavorite?: boolean;
}

export interface Page<T> {
  records: T[];
  total: number;
  /** More than `total` (the API's result window) match. */
  totalCapped: boolean;
  pageNumber: number;
  pageSize: number;
}

export interface ItemDetail extends ListingRecord {
  isOwner?: boolean;
  /** `id` names the listing in a Buy order (it is never reused). */
  listing: { id: number; price: string; currency: string; sellerAddress: string; listedAt: string; nonce: string | null; expiry: number | null } | null;
  history: { event: "list" | "sale" | "cancel"; fromAddress: string; toAddress: string | null; price: string; currency: string; at: string }[];
}

export interface TradeRecord {
  event: "list" | "sale" | "cancel";
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

export type VolumeByCurrency = Record<"FIRE" | "QUARK" | "USDT" | "BNB", string>;
export interface VolumeSeries {
  days: number;
  nftType: number | null;
  series: { date: string; trades: number; volume: VolumeByCurrency }[];
  totals: { trades: number; volume: VolumeByCurrency };
}

export interface TokenRef {
  tokenId: string;
  nftType: number;
}

export function marketApi(market: BackendClient) {
  const list = (path: string) => (query: MarketQuery) => market.get<Page<ListingRecord>>(path, { query });
  return {
    tradingMarket: list("/api/v1/marketplace/tradingMarket"),
    myStorage: list("/api/v1/informationCenter/myStorage"),
    selling: list("/api/v1/informationCenter/selling"),
    myFavorite: list("/api/v1/informationCenter/myFavorite"),
    tokenDetail: (ref: TokenRef, address?: string) =>
      market.get<ItemDetail>("/api/v1/informationCenter/tokenDetailByTokenId", { query: { ...ref, address } }),
    /** SPEC §7: favorites take their parameters in the query string; `address` must be the caller's wallet. */
    setFavorite: (ref: TokenRef, address: string, on: boolean) =>
      market.post<TokenRef & { isFavorite: boolean; favorites: number }>(`/api/v1/informationCenter/favorite/${on ? "add" : "remove"}`, {
        query: { ...ref, address },
      }),
    addView: (ref: TokenRef) => market.post<TokenRef & { counted: boolean; views: number }>("/api/v1/marketplace/token/views/add", { query: { ...ref } }),
    topNft: (query: MarketQuery) => market.get<Page<TradeRecord>>("/api/v1/statistics/topNft", { query }),
    activity: (query: MarketQuery) => market.get<Page<TradeRecord>>("/api/v1/statistics/activity", { query }),
    volume: (days: number, nftType?: number) => market.get<VolumeSeries>("/api/v1/statistics/volume", { query: { days, nftType } }),
  };
}
