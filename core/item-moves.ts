/**
 * Whether an item can move between the game and the chain, and if not, why: one rule for the market backend's
 * refusal (backend/market/claims/claims.ts) and the pages that offer the move (storage, the item page), so a page never
 * offers a move the market then refuses. Also the amount rule of a stack's move, and how a chain stack (an
 * ERC-1155 balance of SparkItems) is named in the market: one item per holder and token id.
 */
import { GAME_TOKEN_ID_BASE } from "./constants";
import { STACKABLE_TYPES, stackOfTokenId } from "./item-tokens";
import { CARD_COLLECTION_TYPES, MATERIALS, NFT_TYPE } from "./nft";

export const MOVE_REFUSALS = {
  gameOnlyBox: "This loot box exists only in the game, so it cannot be moved to the chain. Open it in the game.",
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
 * Whether a game item leaves as an amount of a SparkItems stack (claim kind 2) rather than as one ERC-721 token:
 * every game-issued material stack does. A material that came from the chain as a SparkCard token (an id below
 * GAME_TOKEN_ID_BASE, in the asset manager's custody) goes back as that token.
 */
export function movesAsStack(item: { nftType: number; tokenId: string }): boolean {
  return STACKABLE_TYPES.includes(item.nftType) && BigInt(item.tokenId) >= BigInt(GAME_TOKEN_ID_BASE);
}

/**
 * Why an item in the game cannot be claimed to the chain, or null when it can. A card-collection item is minted on
 * its first claim, a material stack as a SparkItems balance (whole or in part); a loot box leaves the game only if
 * it came from the chain (a game-issued id has no BlindBox token).
 */
export function toChainRefusal(item: { nftType: number; tokenId: string }): string | null {
  if (item.nftType === NFT_TYPE.lootbox) return BigInt(item.tokenId) >= BigInt(GAME_TOKEN_ID_BASE) ? MOVE_REFUSALS.gameOnlyBox : null;
  if (!CARD_COLLECTION_TYPES.includes(item.nftType)) return GAME_ONLY_KINDS[item.nftType] ?? MOVE_REFUSALS.noChainForm;
  return null;
}

/**
 * Why an item on chain cannot be swapped into the game, or null: the asset manager takes back the card collection
 * and SparkItems stacks only (a chain stack is a material item too).
 */
export function intoGameRefusal(item: { nftType: number }): string | null {
  if (CARD_COLLECTION_TYPES.includes(item.nftType)) return null;
  return item.nftType === NFT_TYPE.lootbox ? MOVE_REFUSALS.boxStaysOnChain : MOVE_REFUSALS.noChainForm;
}

/** The refusal of an amount outside 1..held, shown next to the amount field. */
export function moveAmountMessage(held: bigint): string {
  return held === 1n ? "The amount must be 1: that is all this stack holds." : `Enter a whole number from 1 to ${held}.`;
}

/**
 * The amount of a stack to move: `requested` (default all of it) when it is in 1..held, else null (refused with
 * moveAmountMessage). Items that are one piece move whole (held 1). Bigint: a stack holds up to a uint256.
 */
export function moveAmount(requested: bigint | undefined, held: bigint): bigint | null {
  if (requested === undefined) return held;
  return requested >= 1n && requested <= held ? requested : null;
}

const HOLDER_BITS = 160n;
const HOLDER_MASK = (1n << HOLDER_BITS) - 1n;

/**
 * The market's token id of a chain stack: SparkItems id `id` held by `holder` is one item, `(id << 160) | holder`,
 * a decimal above every SparkCard and game-issued id, so it never meets one under the (nftType, tokenId) key.
 */
export function chainStackTokenId(id: bigint, holder: string): string {
  return ((id << HOLDER_BITS) | BigInt(holder)).toString();
}

/** The SparkItems id and holder a chain stack's market token id names; null for any other token id. */
export function chainStackOf(tokenId: string): { id: bigint; holder: `0x${string}` } | null {
  if (!/^\d{1,78}$/.test(tokenId)) return null;
  const value = BigInt(tokenId);
  const id = value >> HOLDER_BITS;
  if (id === 0n) return null;
  return { id, holder: `0x${(value & HOLDER_MASK).toString(16).padStart(40, "0")}` };
}

/** An amount of a SparkItems stack in words, "40 Silver" (for an id that names no stack, "40 of item #id"). */
export function stackText(id: bigint | string, amount: bigint | number | string): string {
  const stack = /^\d{1,16}$/.test(String(id)) ? stackOfTokenId(BigInt(id)) : null;
  const name = stack?.nftType === NFT_TYPE.material ? MATERIALS[stack.code as keyof typeof MATERIALS] : undefined;
  return name ? `${amount} ${name}` : `${amount} of item #${id}`;
}
