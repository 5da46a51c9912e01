/**
 * The referral page's view model, built on the server like the marketplace's (market-views.server.ts):
 * addresses shortened here, so the page ships no address code to the browser.
 */
import { shortAddress } from "~core/address";
import type { RebateInfo } from "~core/api/market";

/** The rebates, each recent one with its invitee's short address for display. */
export function rebatesView(rebates: RebateInfo) {
  return { ...rebates, recent: rebates.recent.map((entry) => ({ ...entry, inviteeShort: shortAddress(entry.inviteeAddress) })) };
}
