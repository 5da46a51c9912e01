/**
 * Typed calls of the market API (product §7 "Java (market) backend"; docs/api/market.md) through the backend client.
 * Wei stays a decimal string here; the app turns it into bigint only to compute or format.
 */
import type {
  FavoriteResult,
  HistoryPeriod,
  ItemDetail,
  ListingRecord,
  Page,
  PriceHistory,
  TokenRef,
  TradeRecord,
  ViewNumbers,
  ViewResult,
  VolumeSeries,
} from "~core/api/market";
import type { BackendClient } from "./http-client.server";

/** A list filter with a JSON-safe range: what the backend client sends (wei as decimal text). */
export type MarketQuery = Record<string, string | number | number[] | Record<string, string | number>>;

export function marketApi(market: BackendClient) {
  const list = (path: string) => (query: MarketQuery) => market.get<Page<ListingRecord>>(path, { query });
  return {
    tradingMarket: list("/api/v1/marketplace/tradingMarket"),
    myStorage: list("/api/v1/informationCenter/myStorage"),
    selling: list("/api/v1/informationCenter/selling"),
    myFavorite: list("/api/v1/informationCenter/myFavorite"),
    tokenDetail: (ref: TokenRef, address?: string) =>
      market.get<ItemDetail>("/api/v1/informationCenter/tokenDetailByTokenId", { query: { ...ref, address } }),
    /** product §7: favorites take their parameters in the query string; `address` must be the caller's wallet. */
    setFavorite: (ref: TokenRef, address: string, on: boolean) =>
      market.post<FavoriteResult>(`/api/v1/informationCenter/favorite/${on ? "add" : "remove"}`, {
        query: { ...ref, address },
      }),
    addView: (ref: TokenRef) => market.post<ViewResult>("/api/v1/marketplace/token/views/add", { query: { ...ref } }),
    topNft: (query: MarketQuery) => market.get<Page<TradeRecord>>("/api/v1/statistics/topNft", { query }),
    activity: (query: MarketQuery) => market.get<Page<TradeRecord>>("/api/v1/statistics/activity", { query }),
    volume: (days: number, nftType?: number) => market.get<VolumeSeries>("/api/v1/statistics/volume", { query: { days, nftType } }),
    /** Issue 30: the numbers of a market view (its listing query), and the price history of a view or of one item. */
    viewNumbers: (query: MarketQuery) => market.get<ViewNumbers>("/api/v1/marketplace/viewNumbers", { query }),
    priceHistory: (of: MarketQuery | TokenRef, period: HistoryPeriod) =>
      market.get<PriceHistory>("/api/v1/marketplace/priceHistory", { query: { ...of, period } }),
  };
}
