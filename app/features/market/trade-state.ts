/**
 * What the detail page's trade panel offers (issue 7), as a pure choice over the item, the viewer and the
 * action's last reply: the panel renders the state, this module decides it.
 */
import type { SubmissionResult } from "@conform-to/react";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import type { ShownAmount } from "~core/money";

export interface TradeItem {
  tokenId: string;
  nftType: number;
  onSale: boolean;
  /** "12.5 FIRE" when on sale. */
  price: string | null;
  priceWei: string | null;
  currency: string | null;
  /** The active listing shown, and its seller: what a Buy order names. */
  listingId: string | null;
  seller: string | null;
  isOwner: boolean;
  location: "game" | "leaving" | "chain";
}

export interface TradeViewer {
  loggedIn: boolean;
  wallet: { address: string; bindAddrType: number } | null;
  loginHref: string;
  orderContext: { domain: { chainId: number; verifyingContract: string }; counter: string } | null;
}

/** The listing the buyer is asked to confirm, as the action read it just now. */
export interface BuyConfirmation {
  listingId: string;
  seller: string;
  priceWei: string;
  currency: string;
  price: string;
  /** Rounded down, the exact amount in its title (core/money.ts). */
  balance: ShownAmount;
  affordable: boolean;
}

export interface TradeActionData {
  intent: string;
  result: SubmissionResult<string[]> | null;
  failed: string | null;
  confirm: BuyConfirmation | null;
}

export type TradeState =
  | { kind: "log-in"; href: string }
  | { kind: "bind-wallet" }
  | { kind: "cancel" }
  | { kind: "sell-or-transfer"; sender: string }
  | { kind: "not-in-game" }
  | { kind: "confirm-buy"; confirm: BuyConfirmation }
  | { kind: "buy"; listingId: string }
  | { kind: "none" };

/**
 * The owner cancels a listing, or sells and transfers an item in the game; anyone else with a wallet buys
 * what is on sale, in two steps (the action's `confirm-buy` reply is the second).
 */
export function tradeState(item: TradeItem, viewer: TradeViewer | null, actionData?: TradeActionData | null): TradeState {
  if (!viewer?.loggedIn) return { kind: "log-in", href: viewer?.loginHref ?? "/login" };
  if (!viewer.wallet) return { kind: "bind-wallet" };
  if (item.isOwner && item.onSale) return { kind: "cancel" };
  if (item.isOwner && item.location === "game") return { kind: "sell-or-transfer", sender: viewer.wallet.address };
  if (item.isOwner) return { kind: "not-in-game" };
  const confirm = actionData?.intent === "confirm-buy" ? actionData.confirm : null;
  if (item.onSale && confirm) return { kind: "confirm-buy", confirm };
  if (item.onSale) return { kind: "buy", listingId: item.listingId ?? "" };
  return { kind: "none" };
}

/** A browser wallet signs each order in the page; a managed wallet's orders are signed by the backend. */
export function signsInBrowser(viewer: TradeViewer | null): boolean {
  const wallet = viewer?.wallet;
  return wallet ? wallet.bindAddrType !== BIND_ADDR_TYPE.managed : false;
}
