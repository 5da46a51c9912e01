import type { BackendClient } from "./http-client.server";

export interface InviteCode {
  inviteCode: string;
  inviterAddress: string;
  invitePath: string;
  invitedCount: number;
}

export interface RebateInfo {
  inviteCode: string;
  invitedCount: number;
  rebateBps: number;
  /** Wei amounts as decimal strings, one row per currency. */
  totals: { currency: string; earned: string; claimed: string; claimable: string }[];
  recent: { inviteeAddress: string; currency: string; amount: string; at: string | number }[];
}

/** Typed invite and rebate calls of the market backend (SPEC §7 informationCenter). */
export function invitesApi(market: BackendClient) {
  return {
    getInviteCode: () => market.get<InviteCode>("/api/v1/informationCenter/getInviteCode"),
    showRebateInfo: () => market.get<RebateInfo>("/api/v1/informationCenter/showRebateInfo"),
    claimRebate: (currency: string) =>
      market.post<{ currency: string; amount: string; balance: string }>("/api/v1/informationCenter/claimRebate", { query: { erc20Addr: currency } }),
    acceptInvite: (code: string) => market.post<{ inviterAddress: string; code: string }>("/api/v1/informationCenter/acceptInvite", { query: { code } }),
  };
}
