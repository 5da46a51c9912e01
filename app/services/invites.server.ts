import type { AwardRecord, InviteAccepted, InviteCode, RebateClaim, RebateInfo, SignedClaimWire } from "~core/api/market";
import type { BackendClient } from "./http-client.server";

/** Typed invite and rebate calls of the market backend (product §7 informationCenter). */
export function invitesApi(market: BackendClient) {
  return {
    getInviteCode: () => market.get<InviteCode>("/api/v1/informationCenter/getInviteCode"),
    showRebateInfo: () => market.get<RebateInfo>("/api/v1/informationCenter/showRebateInfo"),
    claimRebate: (currency: string) =>
      market.post<RebateClaim>("/api/v1/informationCenter/claimRebate", { query: { erc20Addr: currency } }),
    /** The account's awards paid by the reward manager, newest first. */
    awards: () => market.get<AwardRecord[]>("/api/v1/informationCenter/awards"),
    /** An unpaid award's signed claim, to submit on chain (the market marks it sent). */
    awardSign: (txId: string) => market.post<SignedClaimWire>("/api/v1/informationCenter/awardSign", { query: { txId } }),
    acceptInvite: (code: string) => market.post<InviteAccepted>("/api/v1/informationCenter/acceptInvite", { query: { code } }),
  };
}
