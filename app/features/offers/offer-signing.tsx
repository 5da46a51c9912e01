/**
 * A browser wallet's offer forms (issue 30): the trade island (features/market/sign-order.client.tsx), loaded on
 * submit, signs the order from the form's fields and the form is posted with the proof. A managed wallet's forms
 * post as they are (the SSO signs on the server), with or without JavaScript.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useHydrated } from "~/components/use-hydrated";
import type { BoundWallet } from "~/domain/wallet-mode";
import { FailedAlert } from "~/features/market/failed-alert";
import { useSignedSubmit } from "~/features/market/use-signed-submit";
import { type ChainOfferChain, OFFERS_PATH } from "./offer-views";

/** What a browser wallet signs an offer's orders in: the market's order domain and the wallet's offer counter. */
export interface OfferSigner {
  bound: BoundWallet;
  context: { domain: { chainId: number; verifyingContract: string }; counter: string };
  /** Where chain offers go (the chain offer island); null without a chain. */
  chain: ChainOfferChain | null;
}

type OfferIntent = "offer" | "offer-cancel" | "offer-cancel-all" | "offer-accept";

/** Where to look while the wallet waits: the trade islands' "…: confirm in your wallet…". */
const SIGNING: Record<OfferIntent, string> = {
  offer: "Sign the offer: confirm in your wallet…",
  "offer-accept": "Accept the offer: confirm in your wallet…",
  "offer-cancel": "Cancel the offer: confirm in your wallet…",
  "offer-cancel-all": "Cancel all offers: confirm in your wallet…",
};

export function useOfferSubmit(signer: OfferSigner | null, intent: OfferIntent) {
  const hydrated = useHydrated();
  const posting = useNavigation().state === "submitting";
  const { signAndSubmit, signError, signing } = useSignedSubmit();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!signer) return;
    event.preventDefault();
    signAndSubmit(event.currentTarget, () => ({ intent, bound: signer.bound, context: signer.context }));
  };
  // A browser wallet signs with JavaScript only: its buttons wait for it, and for the post its signature starts.
  const busy = signing || posting || (signer !== null && !hydrated);
  return { onSubmit, signError, busy, signingText: signing ? SIGNING[intent] : null };
}

/** While the wallet waits, what to do there; then the wallet's or the market's refusal. */
export function OfferSignState({ signingText, failed }: { signingText: string | null; failed: string | null }) {
  return (
    <>
      <p role="status" aria-live="polite" className="text-sm empty:hidden">
        {signingText}
      </p>
      {failed && <FailedAlert message={failed} />}
    </>
  );
}

/** One button's offer form (accept, cancel, cancel all): hidden fields, signed first for a browser wallet. */
export function OfferActionForm({
  intent,
  fields,
  signer,
  children,
  className,
  onChain,
}: {
  intent: Exclude<OfferIntent, "offer">;
  fields: Record<string, string | number>;
  signer: OfferSigner | null;
  children: (busy: boolean) => ReactNode;
  className?: string;
  /** A chain offer's accept or withdraw, which the wallet sends itself (use-chain-offer.tsx) instead of posting. */
  onChain?: ((form: HTMLFormElement) => void) | null;
}) {
  const { onSubmit: signed, signError, busy, signingText } = useOfferSubmit(signer, intent);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!onChain) return signed(event);
    event.preventDefault();
    onChain(event.currentTarget);
  };
  return (
    <Form method="post" action={OFFERS_PATH} onSubmit={onSubmit} className={className}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children(busy)}
      <OfferSignState signingText={signingText} failed={signError} />
    </Form>
  );
}
