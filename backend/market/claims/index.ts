/**
 * Claims, game → chain (docs/api/market.md "Game and chain"): signed claims the asset manager honours once, and the
 * material stacks the bridge moves both ways. What other market features and core.ts use goes through this file;
 * its routes (game-routes.ts) are mounted by service.ts only.
 */
export { CLAIM_TTL_SECONDS, type ClaimIssuer, claimSigner, split } from "./claims";
export {
  BRIDGE_STREAM,
  CLAIM_EXPIRY_GRACE_SECONDS,
  expiryCutoff,
  retakeStackClaim,
  settleExpiredClaims,
  stackClaimPaid,
} from "./claim-settlement";
export { creditGameStack, insertGameStack, moveChainStack, setChainStack, takeFromStack } from "./stacks";
