import type { InviteAccepted, InviteCode, RebateClaim, RebateInfo } from "~core/api/market";
import type { BackendClient } from "./http-client.server";

/** Typed invite and rebate calls of the market backend (product §7 informationCenter). */
export function invitesApi(market: BackendClient) {
  return {
    getInviteCode: () => market.get<InviteCode>("/api/v1/informationCenter/getInviteCode"),
    showRebateInfo: () => market.get<RebateInfo>("/api/v1/informationCenter/showRebateInfo"),
    claimRebate: (currency: string) =>
      market.post<RebateClaim>("/api/v1/informationCenter/claimRebate", { query: { erc20Addr: currency } }),
    acceptInvite: (code: string) => market.post<InviteAccepted>("/api/v1/informationCenter/acceptInvite", { query: { code } }),
  };
}
