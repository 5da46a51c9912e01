import type { TokenRef } from "~core/api/market";

/** tokenId and nftType from the query: both absent (no item chosen), both valid, or a message saying what is wrong. */
export function readTokenRef(params: URLSearchParams): { ref: TokenRef | null; problem: string | null } {
  const tokenId = params.get("tokenId")?.trim() ?? "";
  const nftType = params.get("nftType")?.trim() ?? "";
  if (!tokenId && !nftType) return { ref: null, problem: null };
  if (!/^\d{1,78}$/.test(tokenId)) return { ref: null, problem: "This link does not name an item: tokenId must be a whole number." };
  if (!/^[0-8]$/.test(nftType)) return { ref: null, problem: "This link does not name an item: nftType must be a type code from 0 to 8." };
  return { ref: { tokenId: BigInt(tokenId).toString(), nftType: Number(nftType) }, problem: null };
}
