/**
 * The item page's chain forms for a browser wallet (issue 28): `onSubmit(intent)` takes a form's validated submit and
 * hands it to the wallet island (chain-trade.client.tsx), which this hook loads on the first submit: a page only looked
 * at downloads no wallet code (issue 17). The buyer's confirmation step posts as it is: nothing is signed there.
 * `island` is where the island shows its progress; `busy` while it works.
 */
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from "react";
import { isChainIntent } from "./chain-trade";
import type { ChainWalletProps } from "./chain-trade.client";

const ChainTradeIsland = lazy(() => import("./chain-trade.client"));

/** `page` is null for a viewer whose forms post as they are (a managed wallet, or no chain trade). */
export function useChainWallet(page: Omit<ChainWalletProps, "request" | "onBusy"> | null) {
  const [request, setRequest] = useState<ChainWalletProps["request"] | null>(null);
  const [busy, setBusy] = useState(false);
  /** A form's submit handler for the island, or none when the form posts as it is (a managed wallet, the confirmation). */
  const onSubmit = (intent: string) => {
    if (!page || !isChainIntent(intent) || intent === "chain-confirm-buy") return undefined;
    return (event: FormEvent<HTMLFormElement>) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      setRequest((previous) => ({ id: (previous?.id ?? 0) + 1, intent, form }));
    };
  };
  const island: ReactNode =
    page && request ? (
      <Suspense
        fallback={
          <p role="status" className="mt-3 text-sm">
            Loading your wallet…
          </p>
        }
      >
        <ChainTradeIsland {...page} request={request} onBusy={setBusy} />
      </Suspense>
    ) : null;
  return { onSubmit, island, busy };
}
