/**
 * The game -> chain claim the AssetManager verifies (contracts/src/AssetManager.sol), in one place for the market
 * backend that signs it, the executor and the wallet island that submit it, and the tests:
 * claimContent = abi.encode(account, kind, asset, idOrAmount, data, nonce, deadline, chainId, assetManager),
 * signed as an EIP-191 personal message over keccak256(claimContent).
 */
import { decodeAbiParameters, encodeAbiParameters, type Address, type Hex } from "viem";

/** 0 ERC-20 amount, 1 ERC-721 token, 2 ERC-1155 stack (asset SparkItems, idOrAmount the amount, data the 1155 id). */
export const CLAIM_KIND = { token: 0, nft: 1, item1155: 2 } as const;
export type ClaimKind = (typeof CLAIM_KIND)[keyof typeof CLAIM_KIND];

export interface ClaimFields {
  account: Address;
  kind: ClaimKind;
  /** The ERC-20 (kind 0), the ERC-721 collection (kind 1) or the ERC-1155 collection (kind 2). */
  asset: Address;
  /** Token amount in wei (kind 0), NFT token id (kind 1) or the stack's amount in whole units (kind 2). */
  idOrAmount: bigint;
  /** The item's 96-bit attribute word, minted with it on its first claim (kind 1); the ERC-1155 token id (kind 2,
   * core/item-tokens.ts); 0 for tokens. */
  data: bigint;
  /** Unique per account: the game's transaction id. */
  nonce: bigint;
  /** Unix seconds after which the claim is refused. */
  deadline: bigint;
  chainId: bigint;
  assetManager: Address;
}

export const CLAIM_PARAMS = [
  { name: "account", type: "address" },
  { name: "kind", type: "uint8" },
  { name: "asset", type: "address" },
  { name: "idOrAmount", type: "uint256" },
  { name: "data", type: "uint96" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
  { name: "chainId", type: "uint256" },
  { name: "assetManager", type: "address" },
] as const;

/** Bytes of an encoded claim: nine 32-byte words. */
export const CLAIM_CONTENT_BYTES = 288;

export function encodeClaimContent(c: ClaimFields): Hex {
  return encodeAbiParameters(CLAIM_PARAMS, [
    c.account,
    c.kind,
    c.asset,
    c.idOrAmount,
    c.data,
    c.nonce,
    c.deadline,
    c.chainId,
    c.assetManager,
  ]);
}

export function decodeClaimContent(content: Hex): ClaimFields {
  const [account, kind, asset, idOrAmount, data, nonce, deadline, chainId, assetManager] = decodeAbiParameters(CLAIM_PARAMS, content);
  return { account, kind: kind as ClaimKind, asset, idOrAmount, data, nonce, deadline, chainId, assetManager };
}
