/**
 * A browser wallet's offer forms (issue 30): the trade island (features/market/sign-order.client.tsx), loaded on
 * submit, signs the order from the form's fields and the form is posted with the proof. A managed wallet's forms
 * post as they are (the SSO signs on the server), with or without JavaScript.
 */
import { Form } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useHydrated } from "~/components/use-hydrated";
import type { BoundWallet } from "~/domain/wallet-mode";
import { FailedAlert } from "~/features/market/failed-alert";
import type { SignOrderInput } from "~/features/market/sign-order.client";
import { useSignedSubmit } from "~/features/market/use-signed-submit";
import { OFFERS_PATH } from "./offer-views";

/** What a browser wallet signs an offer's orders in: the market's order domain and the wallet's offer counter. */
export interface OfferSigner {
  bound: BoundWallet;
  context: { domain: { chainId: number; verifyingContract: string }; counter: string };
}

export function useOfferSubmit(signer: OfferSigner | null, intent: SignOrderInput["intent"]) {
  const hydrated = useHydrated();
  const { signAndSubmit, signError, signing } = useSignedSubmit();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!signer) return;
    event.preventDefault();
    signAndSubmit(event.currentTarget, () => ({ intent, bound: signer.bound, context: signer.context }));
  };
  // A browser wallet signs with JavaScript only: its buttons wait for it.
  return { onSubmit, signError, busy: signing || (signer !== null && !hydrated) };
}

/** One button's offer form (accept, cancel, cancel all): hidden fields, signed first for a browser wallet. */
export function OfferActionForm({
  intent,
  fields,
  signer,
  children,
  className,
}: {
  intent: "offer-cancel" | "offer-cancel-all" | "offer-accept";
  fields: Record<string, string | number>;
  signer: OfferSigner | null;
  children: (busy: boolean) => ReactNode;
  className?: string;
}) {
  const { onSubmit, signError, busy } = useOfferSubmit(signer, intent);
  return (
    <Form method="post" action={OFFERS_PATH} onSubmit={onSubmit} className={className}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children(busy)}
      {signError && <FailedAlert message={signError} />}
    </Form>
  );
}
