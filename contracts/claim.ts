/**
 * The game -> chain claim format the AssetManager verifies (see contracts/src/AssetManager.sol):
 * claimContent = abi.encode(account, kind, asset, idOrAmount, nonce, deadline, chainId, assetManager),
 * signed as an EIP-191 personal message over keccak256(claimContent).
 */
import { encodeAbiParameters, keccak256, parseSignature, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export const CLAIM_KIND = { token: 0, nft: 1 } as const;

export interface ClaimFields {
  account: Address;
  kind: (typeof CLAIM_KIND)[keyof typeof CLAIM_KIND];
  asset: Address;
  /** Token amount in wei (kind 0) or NFT token id (kind 1). */
  idOrAmount: bigint;
  /** Unique per account: the game's transaction id. */
  nonce: bigint;
  /** Unix seconds after which the claim is refused. */
  deadline: bigint;
  chainId: bigint;
  assetManager: Address;
}

/** product §3 claim signature: every field 0x-prefixed hex. */
export interface SignedClaim {
  claim_content: Hex;
  v: Hex;
  r: Hex;
  s: Hex;
}

const CLAIM_PARAMS = [
  { type: "address" },
  { type: "uint8" },
  { type: "address" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "address" },
] as const;

export function encodeClaimContent(c: ClaimFields): Hex {
  return encodeAbiParameters(CLAIM_PARAMS, [c.account, c.kind, c.asset, c.idOrAmount, c.nonce, c.deadline, c.chainId, c.assetManager]);
}

export async function signClaim(fields: ClaimFields, signerKey: Hex): Promise<SignedClaim> {
  const claimContent = encodeClaimContent(fields);
  const signature = await privateKeyToAccount(signerKey).signMessage({ message: { raw: keccak256(claimContent) } });
  const { r, s, v } = parseSignature(signature);
  if (v === undefined) throw new Error("signature without v");
  return { claim_content: claimContent, v: toHex(v), r, s };
}
