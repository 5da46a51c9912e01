/**
 * Invites and rebates (docs/api/market.md "Invites"). What the rest of the market uses goes through this file; its
 * routes (invite-routes.ts) are mounted by service.ts only.
 */
export { drawInviteCode } from "./invites";
