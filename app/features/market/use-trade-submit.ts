import type { FormEvent } from "react";
import { signsInBrowser, type TradeItem, type TradeViewer } from "./trade-state";
import type { SignOrderInput } from "./sign-order.client";
import { useSignedSubmit } from "./use-signed-submit";

type TradeIntent = Exclude<SignOrderInput["intent"], "cancel-all">;

/** The detail page's forms: `onSubmit(intent)` lets a managed wallet's form post and signs a browser wallet's first. */
export function useTradeSubmit(item: TradeItem, viewer: TradeViewer | null) {
  const { signAndSubmit, signError, signing } = useSignedSubmit();
  const browser = signsInBrowser(viewer);
  const onSubmit = (intent: TradeIntent) => (event: FormEvent<HTMLFormElement>) => {
    if (!browser || !viewer?.wallet || event.defaultPrevented) return;
    event.preventDefault();
    const { wallet, orderContext } = viewer;
    signAndSubmit(event.currentTarget, () => (orderContext ? { intent, item, bound: wallet, context: orderContext } : null));
  };
  return { browser, onSubmit, signError, signing };
}
