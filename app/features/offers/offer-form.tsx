import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { ErrorList } from "~/components/error-list";
import { Field, SelectField } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { SELL_RULES } from "~/features/market/trade-rules";
import { CURRENCIES } from "~core/money";
import { DEFAULT_LISTING_DAYS, LISTING_DURATIONS } from "~core/orders";
import type { PendingOffer } from "./chain-offer-rules";
import { CHAIN_OFFER_CURRENCIES, PAY_FROM } from "./chain-offer-words";
import { type OfferSigner, OfferSignState, useOfferSubmit } from "./offer-signing";
import type { ChainOfferDraft } from "./offer-views";
import { useChainOffer } from "./use-chain-offer";

const OFFER_HINTS = {
  game: ["Paid from your game balance if the holder accepts. Nothing is held aside until then."],
  item: ["Held on chain: paid from your wallet in FIRE, QUARK or USDT (not BNB) if the holder accepts. Nothing is held aside."],
  choice: [
    "Game balance: for any item of this view.",
    "Wallet on chain: in FIRE, QUARK or USDT (not BNB), for any card of this type held on chain (the chain checks the type only).",
  ],
} as const;

/** How the trading contract comes to take the price: the executor's approval first, or the wallet's in the same go. */
const APPROVAL_HINTS = {
  managed: "Your first offer in a currency needs one approval transaction; its status page then makes the offer in one press.",
  wallet: "If the trading contract may not take the price yet, your wallet approves it first (one transaction), then signs the offer.",
} as const;

/** The price's hint, a line per point: one long paragraph read badly. */
function OfferHint({ lines }: { lines: readonly string[] }) {
  return (
    <>
      {lines.map((line) => (
        <span key={line} className="block">
          {line}
        </span>
      ))}
    </>
  );
}

/**
 * An offer: price, currency and how long it stands (the sell form's rules). It posts to `action`, the offers page
 * with the item or market view in its query, and returns to `back`. `terms` are what a browser wallet's island signs
 * besides the fields (the server takes them from the URL, never from the form).
 */
export function OfferForm({
  title,
  action,
  back,
  lastResult,
  failed,
  terms,
  chain = null,
  idempotencyKey = "",
  signer,
  chainDraft = null,
  pending = null,
}: {
  title: string;
  action: string;
  back: string;
  lastResult: SubmissionResult<string[]> | null;
  failed: string | null;
  terms: { nftType: number; tokenId?: string; filter?: string };
  /** "item": paid from the wallet on chain (a chain-held item); "choice": the buyer picks (a card type's view). */
  chain?: "item" | "choice" | null;
  /** A managed wallet's chain offer's key: its first step may be the executor's approval. */
  idempotencyKey?: string;
  signer: OfferSigner | null;
  chainDraft?: ChainOfferDraft | null;
  /** The offer as the buyer typed it before an approval: the form starts with it. */
  pending?: PendingOffer | null;
}) {
  const { onSubmit: signGameOffer, signError, busy, signingText } = useOfferSubmit(signer, "offer");
  const chainOffer = useChainOffer(signer);
  // A chain offer is signed in the chain offer island; a view's only when paid from the wallet on chain.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const paidOnChain =
      chainDraft && (!chainDraft.whenPaidFromChain || new FormData(event.currentTarget).get("payFrom") === PAY_FROM.chain);
    if (!paidOnChain || !chainOffer.start) return signGameOffer(event);
    event.preventDefault();
    chainOffer.start(event.currentTarget, { intent: "offer", draft: chainDraft });
  };
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "offer",
    rules: SELL_RULES,
    lastResult,
    defaultValue: pending ?? { currency: "FIRE", days: String(DEFAULT_LISTING_DAYS), payFrom: PAY_FROM.game },
    onValid: onSubmit,
  });
  return (
    <Form method="post" action={action} {...form} className="flex max-w-sm flex-col gap-3" aria-labelledby="offer-title">
      <h2 id="offer-title" className="font-semibold text-white">
        {title}
      </h2>
      <input type="hidden" name="intent" value="offer" />
      <input type="hidden" name="back" value={back} />
      {Object.entries(terms).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {chain && <input type="hidden" name="idempotencyKey" value={idempotencyKey} />}
      {chain === "choice" && (
        <SelectField
          label="Pay from"
          field={field("payFrom")}
          options={[
            [PAY_FROM.game, "Game balance"],
            [PAY_FROM.chain, "Wallet on chain (any card of this type)"],
          ]}
        />
      )}
      <Field
        label="Your price"
        field={field("price")}
        hint={<OfferHint lines={chain ? [...OFFER_HINTS[chain], APPROVAL_HINTS[signer ? "wallet" : "managed"]] : OFFER_HINTS.game} />}
        inputProps={{ inputMode: "decimal", autoComplete: "off" }}
      />
      <SelectField
        label="Currency"
        field={field("currency")}
        options={(chain === "item" ? CHAIN_OFFER_CURRENCIES : CURRENCIES).map((currency) => [currency, currency] as const)}
      />
      <SelectField
        label="Offer stands for"
        field={field("days")}
        options={LISTING_DURATIONS.map((duration) => [String(duration.days), duration.label] as const)}
      />
      <ErrorList id={formErrorId} errors={formErrors} />
      <button type="submit" className="btn-primary self-start" disabled={busy || chainOffer.busy}>
        Make offer
      </button>
      <OfferSignState signingText={signingText} failed={signError ?? failed} />
      {chainOffer.island}
    </Form>
  );
}
