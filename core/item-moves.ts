/**
 * Whether an item can move between the game and the chain, and if not, why: one rule for the market backend's
 * refusal (backend/market/claims.ts) and the pages that offer the move (storage, the item page), so a page never
 * offers a move the market then refuses.
 */
import { GAME_TOKEN_ID_BASE } from "./constants";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "./nft";

export const MOVE_REFUSALS = {
  gameOnlyBox: "This loot box exists only in the game, so it cannot be moved to the chain. Open it in the game.",
  stackToChain: "A stack of materials cannot be moved to the chain: only single pieces can.",
  halloween: "Halloween items exist only in the game: the chain has no form for them.",
  pse: "PSEs exist only in the game: the chain has no form for them.",
  egse: "EGSEs exist only in the game: the chain has no form for them.",
  noChainForm: "This item cannot be represented on the chain.",
  boxStaysOnChain: "A loot box stays on the chain: open it on its page.",
} as const;

const GAME_ONLY_KINDS: Readonly<Record<number, string>> = {
  [NFT_TYPE.halloween]: MOVE_REFUSALS.halloween,
  [NFT_TYPE.pse]: MOVE_REFUSALS.pse,
  [NFT_TYPE.egse]: MOVE_REFUSALS.egse,
};

/**
 * Why an item in the game cannot be claimed to the chain, or null when it can. A card-collection item is minted on
 * its first claim; a loot box leaves the game only if it came from the chain (a game-issued id has no BlindBox
 * token), and a stack of materials not at all.
 */
export function toChainRefusal(item: { nftType: number; tokenId: string; amount: number }): string | null {
  if (item.nftType === NFT_TYPE.lootbox) return BigInt(item.tokenId) >= BigInt(GAME_TOKEN_ID_BASE) ? MOVE_REFUSALS.gameOnlyBox : null;
  if (!CARD_COLLECTION_TYPES.includes(item.nftType)) return GAME_ONLY_KINDS[item.nftType] ?? MOVE_REFUSALS.noChainForm;
  if (item.amount > 1) return MOVE_REFUSALS.stackToChain;
  return null;
}

/** Why an item on chain cannot be swapped into the game, or null: the asset manager takes back the card collection only. */
export function intoGameRefusal(item: { nftType: number }): string | null {
  if (CARD_COLLECTION_TYPES.includes(item.nftType)) return null;
  return item.nftType === NFT_TYPE.lootbox ? MOVE_REFUSALS.boxStaysOnChain : MOVE_REFUSALS.noChainForm;
}
