/**
 * Token ids of the SparkItems ERC-1155 collection (contracts/src/SparkItems.sol): id = nftType * 1000 + code, so
 * the materials are 8000 DarkIron, 8001 Silver and 8002 Gold. Only the kinds the game keeps as fungible stacks are
 * ERC-1155; everything with an identity (level, fittings, locks) stays a SparkCard ERC-721 token.
 * In core/ because the backend (claims, indexer), the pages, the metadata route and the deploy script all map ids.
 */
import { MATERIALS, NFT_TYPE } from "./nft";

/** nftType codes held as ERC-1155 stacks. */
export const STACKABLE_TYPES: readonly number[] = [NFT_TYPE.material];

const ID_STRIDE = 1000;

/** The known codes of each stackable type (a code outside them names no item). */
const STACK_CODES: Readonly<Record<number, readonly number[]>> = {
  [NFT_TYPE.material]: Object.keys(MATERIALS).map(Number),
};

export interface StackKind {
  nftType: number;
  code: number;
}

function isStack(nftType: number, code: number): boolean {
  return STACKABLE_TYPES.includes(nftType) && (STACK_CODES[nftType]?.includes(code) ?? false);
}

/** The ERC-1155 id of a stack; throws for a kind that is not stackable (a caller's mistake, not user input). */
export function stackTokenId(nftType: number, code: number): bigint {
  if (!Number.isInteger(nftType) || !Number.isInteger(code) || !isStack(nftType, code)) {
    throw new RangeError(`no ERC-1155 stack for nftType ${nftType}, code ${code}`);
  }
  return BigInt(nftType * ID_STRIDE + code);
}

/** The stack an ERC-1155 id stands for, or null for an id that names none (user input is checked with this). */
export function stackOfTokenId(id: bigint): StackKind | null {
  if (id < 0n || id >= BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const n = Number(id);
  const nftType = Math.floor(n / ID_STRIDE);
  const code = n % ID_STRIDE;
  return isStack(nftType, code) ? { nftType, code } : null;
}
