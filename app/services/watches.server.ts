/** Typed calls of the market's watched searches (docs/api/market.md "Watched searches"). */
import type { Inbox, UnsubscribeTarget, WatchRecord } from "~core/api/watches";
import type { BackendClient } from "./http-client.server";
import type { MarketQuery } from "./market.server";

export function watchesApi(market: BackendClient) {
  return {
    list: () => market.get<WatchRecord[]>("/api/v1/watches"),
    add: (body: { search: string; label: string; query: MarketQuery; currency?: string; ceiling?: string }) =>
      market.post<WatchRecord>("/api/v1/watches/add", { body }),
    remove: (id: number) => market.post<null>("/api/v1/watches/remove", { body: { id } }),
    markSeen: () => market.post<null>("/api/v1/watches/seen", { body: {} }),
    inbox: () => market.get<Inbox>("/api/v1/watches/inbox"),
    unread: () => market.get<{ unread: number }>("/api/v1/watches/unread"),
    markRead: () => market.post<null>("/api/v1/watches/read", { body: {} }),
    /** The signed link's watch (GET changes nothing), and stopping its emails (POST); no session needed. */
    unsubscribeTarget: (token: string) =>
      market.get<UnsubscribeTarget>("/api/v1/watches/unsubscribe", { query: { token }, anonymous: true }),
    unsubscribe: (token: string) => market.post<UnsubscribeTarget>("/api/v1/watches/unsubscribe", { body: { token }, anonymous: true }),
  };
}
