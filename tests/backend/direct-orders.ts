/**
 * What a test or a bench needs to call the market's trade functions directly (sell, buy, cancel), past the HTTP
 * routes and their signature check: the caller as the SSO names it, and order proofs whose nonces never repeat.
 */
import type { TokenOwner } from "../../backend/market/shared/token-owners";

/** A wallet's owner record, its address standing for the user name and email too. */
export const ownerOf = (wallet: `0x${string}`): TokenOwner => ({ userName: wallet, email: wallet, walletAddress: wallet, bindAddrType: 1 });

/** A source of order proofs: the next nonce each time, valid for an hour from `nowMs`, an unchecked signature. */
export function orderProofs(nowMs = Date.now()) {
  let nonce = 0n;
  const expiry = BigInt(Math.floor(nowMs / 1000) + 3600);
  return () => ({ nonce: ++nonce, expiry, signature: "0x" });
}
