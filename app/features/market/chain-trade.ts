/**
 * Chain listings on the item page (issue 28): what the loader hands the trade panel under `chainTrade`, and the
 * intents its forms post. A managed wallet's forms post as they are (the server signs or the executor sends); a
 * browser wallet's island (chain-trade.client.tsx) handles the same forms' submit with this data. No viem here:
 * the page's static graph takes this module.
 */
import type { FormEvent } from "react";
import type { ChainOrder } from "~core/api/market";
import type { Currency, ShownAmount } from "~core/money";
import { NFT_TYPE } from "~core/nft";

/** The forms' intents: each one posts to the detail route's action. */
export const CHAIN_INTENTS = [
  "chain-sell",
  "chain-cancel",
  "chain-cancel-all",
  "chain-transfer",
  "chain-send",
  "chain-confirm-buy",
  "chain-buy",
] as const;
export type ChainIntent = (typeof CHAIN_INTENTS)[number];

/** The intents a managed wallet posts with an idempotency key (all but the buyer's first step, which only reads). */
export type KeyedChainIntent = Exclude<ChainIntent, "chain-confirm-buy">;

export const isChainIntent = (intent: string): intent is ChainIntent => (CHAIN_INTENTS as readonly string[]).includes(intent);

/**
 * How a browser wallet's island takes over a chain form's submit (chain-trade.client.tsx): given the form's intent, its
 * submit handler, or undefined to let the form post as it is. A managed wallet's forms always post as they are.
 */
export type ChainSubmit = (intent: ChainIntent) => ((event: FormEvent<HTMLFormElement>) => void) | undefined;

/** What the island needs to sign and send, and what the forms show; public by nature (addresses and the fee). */
export interface ChainTrade {
  chainId: number;
  /** The Trading contract: the listing's EIP-712 verifying contract. */
  trading: `0x${string}`;
  /** The item's collection (the card, loot box or SparkItems collection). */
  collection: `0x${string}`;
  /** Where the owner can move the item besides the market (chainMovesOf). */
  moves: readonly ChainIntent[];
  /** A chain-held material stack: its SparkItems id and what the owner holds of it on chain; null for any other item. */
  stack: { id: string; held: string } | null;
  /** Each currency's token address; the zero address for BNB. */
  currencies: Record<Currency, `0x${string}`>;
  /** Trading.feeBps, read now: the fee is this share of the price, in hundredths of a percent. */
  feeBps: number;
  /** The item's chain listing, as quickSale and cancel take it; null when it is not listed on chain. */
  chainOrder: ChainOrder | null;
  /** Whether a managed owner's wallet lets the trading contract move this collection; null for anyone else (a browser wallet's island approves as it lists). */
  approved: boolean | null;
  /** One fresh idempotency key per form of this render (a managed wallet's executor actions). */
  keys: Record<KeyedChainIntent, string>;
}

/**
 * Where an owner can move a chain-held item besides the market: a card to a wallet or into a player's game inventory;
 * a material stack (an amount of it) or a loot box to a wallet only. Sending goes into a game inventory through the
 * asset manager, which takes cards alone: the game keeps stacks apart (moved in by the bridge) and has no loot boxes.
 * Decided on the server: the visitor's page never ships it.
 */
export function chainMovesOf(nftType: number): readonly ChainIntent[] {
  if (nftType === NFT_TYPE.lootbox || nftType === NFT_TYPE.material) return ["chain-transfer"];
  return ["chain-transfer", "chain-send"];
}

/**
 * What a move does to the item's chain listing, said on the move forms while it is listed: a card or loot box leaves
 * the wallet, so its listing ends; a stack's listing ends only when fewer than the listed amount stay (the indexer ends
 * a short stack's listing, and quickSale would refuse it).
 */
export function listingEndsNote(listedAmount: string | null): string {
  return listedAmount === null
    ? "Its listing on chain ends: the buyer's order no longer finds it in your wallet."
    : `Its listing on chain ends if fewer than the ${listedAmount} listed stay in your wallet.`;
}

/** 250 → "2.5 %". */
export function feePercent(feeBps: number): string {
  return `${feeBps / 100} %`;
}

/** The fee as a rule, for a form shown before any price is typed (or without JavaScript). */
export function feeRule(feeBps: number): string {
  return `${feePercent(feeBps)} fee; you receive the price − the fee.`;
}

/** The listing the seller reviews before it is signed: exact amounts. */
export interface ChainSellReview {
  /** What a stack's listing sells ("40 Gold"); absent for a card or loot box. */
  amount?: string;
  price: string;
  /** The market's fee, rounded with its exact amount one step away, and its rate ("2.5 %"). */
  fee: ShownAmount;
  feePercent: string;
  receive: string;
  days: string;
}

/** The chain listing a buyer is asked to confirm, read just now, with the buyer's chain balance of its currency. */
export interface ChainBuyConfirmation {
  /** What a stack listing sells ("40 Gold"); absent for a card or loot box. */
  amount?: string;
  price: string;
  currency: string;
  /** The market's fee, included in the price, rounded with its exact amount one step away, and its rate ("2.5 %"). */
  fee: ShownAmount;
  feePercent: string;
  seller: string;
  balance: { text: string; exact: string };
  affordable: boolean;
  /** The order as the buy posts it back (JSON): the buyer fills exactly what was shown. */
  order: string;
}
