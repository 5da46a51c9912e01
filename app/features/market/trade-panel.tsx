/**
 * The trade actions of an item (issue 7): Sell and Transfer for its owner, Cancel when it is on sale, Buy with a
 * confirmation step for another signed-in user with a wallet. `tradeState` decides which; this panel lays them out.
 * Every form posts to the detail route's action and works without JavaScript for managed wallets (the backend
 * signs); a browser wallet signs in the island first (`useTradeSubmit`).
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { lazy, Suspense, type ReactNode } from "react";
import { useHydrated } from "~/components/use-hydrated";
import {
  chainFormsOf,
  isChainAnswer,
  tradeState,
  type PanelAnswer,
  type TradeItem,
  type TradeState,
  type TradeViewer,
} from "./trade-state";
import type { ChainTrade } from "./chain-trade";
import { Refused } from "~/features/actions/form-parts";
import { BuyConfirmForm } from "./buy-confirm-form";
import { FailedAlert } from "./failed-alert";

// The owner's forms bring address checks (viem): only an owner's page loads them (the server renders them
// in full for every owner, with or without JavaScript, since it waits for the whole page).
const SellForm = lazy(() => import("./sell-form").then((module) => ({ default: module.SellForm })));
const TransferForm = lazy(() => import("./transfer-form").then((module) => ({ default: module.TransferForm })));
// A chain-held item's forms (issue 28) load only on the pages that offer them.
// For a browser wallet, they come with its island (chain-wallet-forms.tsx), which takes their submit.
const ChainTradeForms = lazy(() => import("./chain-wallet-forms").then((module) => ({ default: module.ChainWalletForms })));
import { useTradeSubmit } from "./use-trade-submit";

export function TradePanel({
  item,
  viewer,
  actionData,
  chainTrade,
}: {
  item: TradeItem;
  viewer: TradeViewer | null;
  actionData?: PanelAnswer | null;
  /** The trading contract's data for a chain-held item's forms (chain-trade.ts); null when none are offered. */
  chainTrade: ChainTrade | null;
}) {
  const hydrated = useHydrated();
  const busy = useNavigation().state !== "idle";
  const trade = useTradeSubmit(item, viewer);
  // A browser wallet signs in JavaScript: without it, the buttons would post orders nobody signed.
  const blocked = trade.browser && !hydrated;
  const disabled = blocked || busy || trade.signing;
  const state = tradeState(item, viewer, actionData);
  const gameAnswer = isChainAnswer(actionData) ? null : actionData;
  const chainAnswer = isChainAnswer(actionData) ? actionData : null;
  const resultFor = (intent: string) => (gameAnswer?.intent === intent ? gameAnswer.result : null);
  const chainForms = (
    kind: "chain-sell" | "chain-listed" | "chain-confirm-buy",
    confirm?: Parameters<typeof ChainTradeForms>[0]["confirm"],
  ) =>
    chainTrade && (
      <Suspense fallback={<p role="status">Loading the chain trade forms…</p>}>
        <ChainTradeForms
          kind={kind}
          forms={chainFormsOf(state, chainTrade.moves)}
          confirm={confirm}
          chainTrade={chainTrade}
          answer={chainAnswer}
          disabled={blocked || busy}
          browserWallet={trade.browser ? (viewer?.wallet ?? null) : null}
          tokenId={item.tokenId}
          isOwner={item.isOwner}
        />
      </Suspense>
    );

  const actions = (state: TradeState): ReactNode => {
    switch (state.kind) {
      case "log-in":
        return (
          <p className="mt-3 text-sm">
            <Link to={state.href}>Log in to trade</Link>
          </p>
        );
      case "bind-wallet":
        return (
          <p className="mt-3 text-sm">
            Please bind a wallet address.{" "}
            <Link to="/login?act=connect" className="font-semibold">
              Bind now
            </Link>
          </p>
        );
      case "cancel":
        return (
          <Form method="post" className="mt-3" onSubmit={trade.onSubmit("cancel")}>
            <input type="hidden" name="intent" value="cancel" />
            <button type="submit" className="btn-secondary" disabled={disabled}>
              Cancel sale
            </button>
          </Form>
        );
      case "sell-or-transfer":
        return (
          <Suspense fallback={<p role="status">Loading the sale and transfer forms…</p>}>
            <div className="mt-3 grid gap-6 md:grid-cols-2">
              <SellForm currency={item.currency} lastResult={resultFor("sell")} onSubmit={trade.onSubmit("sell")} disabled={disabled} />
              <TransferForm
                sender={state.sender}
                lastResult={resultFor("transfer")}
                onSubmit={trade.onSubmit("transfer")}
                disabled={disabled}
              />
            </div>
          </Suspense>
        );
      case "chain-sell":
      case "chain-listed":
        return chainForms(state.kind);
      case "chain-confirm-buy":
        return chainForms(state.kind, state.confirm);
      case "chain-buy":
        // The first step reads the listing and the buyer's chain balance: nothing is sent yet.
        return (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="chain-confirm-buy" />
            <button type="submit" className="btn-primary" disabled={busy}>
              Buy
            </button>
          </Form>
        );
      case "not-in-game":
        return <p className="muted mt-3 text-sm">This item is not in the game, so it cannot be traded here.</p>;
      case "confirm-buy":
        return <BuyConfirmForm confirm={state.confirm} onSubmit={trade.onSubmit("buy")} disabled={disabled} />;
      case "buy":
        // The first step asks the action for the listing's confirmation: nothing is signed yet.
        return (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="confirm-buy" />
            <input type="hidden" name="listingId" value={state.listingId} />
            <button type="submit" className="btn-primary" disabled={busy}>
              Buy
            </button>
          </Form>
        );
      case "none":
        return null;
    }
  };

  return (
    <section aria-labelledby="trade-title" className="card">
      <h2 id="trade-title" className="section-title">
        Trade
      </h2>
      <p className="mt-2 text-lg font-semibold text-white" data-testid="trade-status">
        {item.onSale ? `On sale for ${item.price}${item.venue === "chain" ? " on chain" : ""}` : "Not for sale"}
      </p>
      {item.isOwner && <p className="muted mt-1 text-sm">You own this item.</p>}
      {blocked && viewer?.wallet && (item.isOwner || item.onSale) && (
        <p className="mt-2 text-sm text-amber-200">
          Your account uses a browser wallet: signing an order needs JavaScript and a wallet (MetaMask or OKX Wallet).
        </p>
      )}
      {actions(state)}
      {trade.signError && <FailedAlert message={trade.signError} />}
      {gameAnswer?.failed && <FailedAlert message={gameAnswer.failed} />}
      {/* A chain form's refusal whose form is not shown now (the listing closed, or was never there). */}
      {chainAnswer && !chainFormsOf(state, chainTrade?.moves ?? []).some((intent) => intent === chainAnswer.intent) && (
        <Refused messages={chainAnswer.errors[""]} />
      )}
    </section>
  );
}
