/**
 * What the detail page's trade panel offers (issue 7), as a pure choice over the item, the viewer and the
 * action's last reply: the panel renders the state, this module decides it.
 */
import type { SubmissionResult } from "@conform-to/react";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import type { ShownAmount } from "~core/money";
import type { ChainBuyConfirmation, ChainIntent, ChainSellReview } from "./chain-trade";

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
  /** Where the active listing is: the game's ledger or the trading contract (issue 28); null when none. */
  venue: "game" | "chain" | null;
  /** A chain-held item this viewer can list, move or buy through the trading contract (the loader read the chain for it). */
  chainTradable: boolean;
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

/** A chain form's answer (managed-action.server.ts): errors by field ("" for the form), the values as typed. */
export interface ChainAnswer {
  intent: string | null;
  errors: Record<string, string[]>;
  values: Record<string, string>;
  /** chain-sell, approved: the listing's exact amounts, to confirm before it is signed. */
  review?: ChainSellReview;
  /** chain-confirm-buy: the listing to confirm. */
  confirm?: ChainBuyConfirmation;
}

/** What the detail action answers: a game order's reply or a chain form's. */
export type PanelAnswer = TradeActionData | ChainAnswer;

export const isChainAnswer = (answer: PanelAnswer | null | undefined): answer is ChainAnswer => Boolean(answer && "errors" in answer);

export type TradeState =
  | { kind: "log-in"; href: string }
  | { kind: "bind-wallet" }
  | { kind: "cancel" }
  | { kind: "sell-or-transfer"; sender: string }
  | { kind: "not-in-game" }
  | { kind: "chain-sell"; sender: string }
  | { kind: "chain-listed"; sender: string }
  | { kind: "chain-confirm-buy"; confirm: ChainBuyConfirmation }
  | { kind: "chain-buy" }
  | { kind: "confirm-buy"; confirm: BuyConfirmation }
  | { kind: "buy"; listingId: string }
  | { kind: "none" };

/**
 * The owner cancels a listing, or sells and transfers an item in the game; anyone else with a wallet buys
 * what is on sale, in two steps (the action's `confirm-buy` reply is the second). A chain-held item trades
 * through the trading contract instead: its owner lists it on chain (or cancels), transfers it or sends it to a
 * player; a buyer confirms a chain listing (`chain-confirm-buy`) before the purchase is sent.
 */
export function tradeState(item: TradeItem, viewer: TradeViewer | null, actionData?: PanelAnswer | null): TradeState {
  if (!viewer?.loggedIn) return { kind: "log-in", href: viewer?.loginHref ?? "/login" };
  if (!viewer.wallet) return { kind: "bind-wallet" };
  const sender = viewer.wallet.address;
  if (item.isOwner && item.location === "chain" && item.chainTradable) return { kind: item.onSale ? "chain-listed" : "chain-sell", sender };
  if (item.isOwner && item.onSale) return { kind: "cancel" };
  if (item.isOwner && item.location === "game") return { kind: "sell-or-transfer", sender };
  if (item.isOwner) return { kind: "not-in-game" };
  if (item.onSale && item.venue === "chain") {
    // Without the trading contract's data (the chain unread, or a listing this wallet cannot fill) nothing is offered.
    if (!item.chainTradable) return { kind: "none" };
    const chainConfirm = isChainAnswer(actionData) && actionData.intent === "chain-confirm-buy" ? actionData.confirm : undefined;
    return chainConfirm ? { kind: "chain-confirm-buy", confirm: chainConfirm } : { kind: "chain-buy" };
  }
  const confirm = actionData && !isChainAnswer(actionData) && actionData.intent === "confirm-buy" ? actionData.confirm : null;
  if (item.onSale && confirm) return { kind: "confirm-buy", confirm };
  if (item.onSale) return { kind: "buy", listingId: item.listingId ?? "" };
  return { kind: "none" };
}

/** The chain forms a state shows: a refusal of any other chain form is shown apart (its form is gone, say the listing closed). */
export function chainFormsOf(state: TradeState): readonly ChainIntent[] {
  switch (state.kind) {
    case "chain-sell":
      return ["chain-sell", "chain-transfer", "chain-send"];
    case "chain-listed":
      return ["chain-cancel", "chain-cancel-all", "chain-transfer", "chain-send"];
    case "chain-confirm-buy":
      return ["chain-buy"];
    default:
      return [];
  }
}

/** A browser wallet signs each order in the page; a managed wallet's orders are signed by the backend. */
export function signsInBrowser(viewer: TradeViewer | null): boolean {
  const wallet = viewer?.wallet;
  return wallet ? wallet.bindAddrType !== BIND_ADDR_TYPE.managed : false;
}
