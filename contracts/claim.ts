/**
 * Signing a game -> chain claim as the market backend does (the format is core/claim.ts), for the contract tests
 * and the seed: an EIP-191 personal message over keccak256(claimContent), split into v, r, s.
 */
import { keccak256, parseSignature, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { encodeClaimContent, type ClaimFields } from "~core/claim";

export { CLAIM_KIND, encodeClaimContent, type ClaimFields } from "~core/claim";

/** product §3 claim signature: every field 0x-prefixed hex. */
export interface SignedClaim {
  claim_content: Hex;
  v: Hex;
  r: Hex;
  s: Hex;
}

export async function signClaim(fields: ClaimFields, signerKey: Hex): Promise<SignedClaim> {
  const claimContent = encodeClaimContent(fields);
  const signature = await privateKeyToAccount(signerKey).signMessage({ message: { raw: keccak256(claimContent) } });
  const { r, s, v } = parseSignature(signature);
  if (v === undefined) throw new Error("signature without v");
  return { claim_content: claimContent, v: toHex(v), r, s };
}
