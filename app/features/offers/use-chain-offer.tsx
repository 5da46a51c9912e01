/**
 * A browser wallet's chain offers (decision 0024): a form's validated submit goes to the chain offer island
 * (chain-offer.client.tsx), loaded on the first such submit, so a page only looked at downloads no wallet code. The
 * island shows its progress where `island` is placed; `busy` while it works.
 */
import { lazy, Suspense, useState, type ReactNode } from "react";
import type { ChainOffer } from "~core/api/market";
import type { OfferSigner } from "./offer-signing";
import type { ChainOfferDraft } from "./offer-views";

const ChainOfferIsland = lazy(() => import("./chain-offer.client"));

/** What the island does: sign an offer the form describes, accept a stored one with a token, withdraw one, or all (the counter). */
export type ChainOfferTask =
  | { intent: "offer"; draft: ChainOfferDraft }
  | { intent: "offer-accept"; offerId: string; offer: ChainOffer; tokenId: string }
  | { intent: "offer-cancel"; offerId: string; offer: ChainOffer }
  | { intent: "offer-chain-cancel-all" };

/** One submit: the task, the form's fields and where the form posts (a signed offer is posted there). */
export type ChainOfferRequest = ChainOfferTask & { id: number; form: FormData; action: string };

/** `settled(request)`: whether the page, as last read, shows what the request's transaction did. */
export function useChainOffer(signer: OfferSigner | null, settled: (request: ChainOfferRequest) => boolean = () => false) {
  const [request, setRequest] = useState<ChainOfferRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const chain = signer?.chain ?? null;
  const start = (form: HTMLFormElement, task: ChainOfferTask) =>
    setRequest((previous) => ({
      ...task,
      id: (previous?.id ?? 0) + 1,
      form: new FormData(form),
      action: form.getAttribute("action") ?? "",
    }));
  const island: ReactNode =
    signer && chain && request ? (
      <Suspense
        fallback={
          <p role="status" className="mt-3 text-sm">
            Loading your wallet…
          </p>
        }
      >
        <ChainOfferIsland chain={chain} wallet={signer.bound} request={request} settled={settled(request)} onBusy={setBusy} />
      </Suspense>
    ) : null;
  return { start: chain ? start : null, island, busy };
}
