/**
 * The trade panel's chain forms (issue 28), loaded only on a page that offers them: "Sell on chain" (with its
 * review of the exact fee), "Cancel listing" and "Cancel all my chain listings", "Transfer to a wallet", "Send to
 * a player", and the buyer's confirmation. Every form posts to the detail route's action and works without
 * JavaScript for a managed wallet; a browser wallet's island handles their submit through `onSubmit`.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { Amount } from "~/components/amount";
import { Field, SelectField } from "~/components/forms";
import type { FieldState } from "~/components/use-field-rules";
import { errorsFor, Hidden, Refused } from "~/features/actions/form-parts";
import { CURRENCIES } from "~core/money";
import { DEFAULT_LISTING_DAYS } from "~core/orders";
import { MAX_LISTING_DAYS } from "~core/trading";
import { feeRule, type ChainBuyConfirmation, type ChainIntent, type ChainTrade } from "./chain-trade";
import type { ChainAnswer } from "./trade-state";

/** How a browser wallet's island takes over a form's submit; none for a managed wallet (the form posts as it is). */
export type ChainSubmit = (intent: ChainIntent) => ((event: FormEvent<HTMLFormElement>) => void) | undefined;

interface Common {
  chainTrade: ChainTrade;
  answer: ChainAnswer | null;
  onSubmit?: ChainSubmit;
  disabled: boolean;
}

/** A field of a chain form: what the refused post typed, and its errors next to it. */
function fieldOf(intent: ChainIntent, answer: ChainAnswer | null, name: string, fallback?: string): FieldState {
  const mine = answer?.intent === intent ? answer : null;
  return {
    id: `${intent}-${name}`,
    name,
    errorId: `${intent}-${name}-errors`,
    errors: errorsFor(intent, mine, name),
    defaultValue: mine?.values[name] ?? fallback,
    constraint: { required: true },
  };
}

/** The key a form posts: the one its refusal handed back (nothing was sent), else this render's. */
const keyOf = (intent: ChainIntent, answer: ChainAnswer | null, fresh: string) =>
  (answer?.intent === intent ? answer.values.idempotencyKey : undefined) ?? fresh;

function ChainForm({
  intent,
  title,
  idempotencyKey,
  answer,
  onSubmit,
  children,
}: {
  intent: ChainIntent;
  title: string;
  idempotencyKey: string;
  answer: ChainAnswer | null;
  onSubmit?: ChainSubmit;
  children: ReactNode;
}) {
  const titleId = `${intent}-title`;
  return (
    <Form method="post" className="flex flex-col gap-3" aria-labelledby={titleId} onSubmit={onSubmit?.(intent)}>
      <h3 id={titleId} className="font-semibold text-white">
        {title}
      </h3>
      <Hidden fields={{ intent, idempotencyKey }} />
      {children}
      <Refused messages={errorsFor(intent, answer, "")} />
    </Form>
  );
}

/** "Sell on chain": its terms and the fee as a rule; once approved, the review with exact amounts before signing. */
function ChainSellForm({ chainTrade, answer, onSubmit, disabled }: Common) {
  const location = useLocation();
  const review = answer?.intent === "chain-sell" ? answer.review : undefined;
  const key = keyOf("chain-sell", answer, chainTrade.keys.sell);
  if (review && answer) {
    return (
      <ChainForm intent="chain-sell" title="Review the listing" idempotencyKey={key} answer={null} onSubmit={onSubmit}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
          <dt className="text-slate-300">Price</dt>
          <dd className="text-white" data-testid="review-price">
            {review.price}
          </dd>
          <dt className="text-slate-300">Market fee</dt>
          <dd className="text-white" data-testid="review-fee">
            {review.fee}
          </dd>
          <dt className="text-slate-300">You receive</dt>
          <dd className="text-white" data-testid="review-receive">
            {review.receive}
          </dd>
          <dt className="text-slate-300">Listing lasts</dt>
          <dd className="text-white">{review.days === "1" ? "1 day" : `${review.days} days`}</dd>
        </dl>
        <Hidden fields={{ price: answer.values.price ?? "", currency: answer.values.currency ?? "", days: review.days, confirmed: "1" }} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={disabled}>
            List on chain
          </button>
          <Link to={location.pathname + location.search} className="btn-secondary">
            Back
          </Link>
        </div>
      </ChainForm>
    );
  }
  return (
    <ChainForm intent="chain-sell" title="Sell on chain" idempotencyKey={key} answer={answer} onSubmit={onSubmit}>
      <Field
        label="Price"
        field={fieldOf("chain-sell", answer, "price")}
        inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "12.5" }}
      />
      <SelectField
        label="Currency"
        field={fieldOf("chain-sell", answer, "currency", "FIRE")}
        options={CURRENCIES.map((currency) => [currency, currency] as const)}
      />
      <Field
        label="Listing lasts (days)"
        type="number"
        field={fieldOf("chain-sell", answer, "days", String(DEFAULT_LISTING_DAYS))}
        inputProps={{ min: 1, max: MAX_LISTING_DAYS, step: 1, inputMode: "numeric" }}
      />
      <p className="text-sm text-slate-300" data-testid="fee-rule">
        {feeRule(chainTrade.feeBps)}
      </p>
      {chainTrade.approved === false && (
        <p className="text-sm text-amber-200" data-testid="approve-note">
          First your wallet lets the trading contract move this item when it sells (one transaction). Then come back here to list it.
        </p>
      )}
      <button type="submit" className="btn-primary self-start" disabled={disabled}>
        {chainTrade.approved === false ? "Approve the trading contract" : "Review the listing"}
      </button>
    </ChainForm>
  );
}

/** "Cancel listing" of this item's chain listing, and "Cancel all my chain listings" (the seller's counter moves on). */
function ChainCancelForms({ chainTrade, answer, onSubmit, disabled }: Common) {
  return (
    <div className="flex flex-col gap-4">
      <ChainForm
        intent="chain-cancel"
        title="Cancel listing"
        idempotencyKey={keyOf("chain-cancel", answer, chainTrade.keys.cancel)}
        answer={answer}
        onSubmit={onSubmit}
      >
        <button type="submit" className="btn-secondary self-start" disabled={disabled}>
          Cancel listing
        </button>
      </ChainForm>
      <ChainForm
        intent="chain-cancel-all"
        title="Cancel all my chain listings"
        idempotencyKey={keyOf("chain-cancel-all", answer, chainTrade.keys.cancelAll)}
        answer={answer}
        onSubmit={onSubmit}
      >
        <p className="text-sm text-slate-300">Ends every listing you signed on chain at once, in one transaction.</p>
        <button type="submit" className="btn-secondary self-start" disabled={disabled}>
          Cancel all my chain listings
        </button>
      </ChainForm>
    </div>
  );
}

/** "Transfer to a wallet" and "Send to a player" (into that player's game inventory). */
function ChainMoveForms({ chainTrade, answer, onSubmit, disabled }: Common) {
  return (
    <div className="flex flex-col gap-4">
      <ChainForm
        intent="chain-transfer"
        title="Transfer to a wallet"
        idempotencyKey={keyOf("chain-transfer", answer, chainTrade.keys.transfer)}
        answer={answer}
        onSubmit={onSubmit}
      >
        <Field
          label="Recipient address"
          field={fieldOf("chain-transfer", answer, "to")}
          inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "0x…" }}
        />
        <button type="submit" className="btn-secondary self-start" disabled={disabled}>
          Transfer
        </button>
      </ChainForm>
      <ChainForm
        intent="chain-send"
        title="Send to a player"
        idempotencyKey={keyOf("chain-send", answer, chainTrade.keys.send)}
        answer={answer}
        onSubmit={onSubmit}
      >
        <Field
          label="Player's wallet address"
          field={fieldOf("chain-send", answer, "account")}
          hint="The item goes into the game inventory of the player whose account this wallet is bound to."
          inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "0x…" }}
        />
        <button type="submit" className="btn-secondary self-start" disabled={disabled}>
          Send
        </button>
      </ChainForm>
    </div>
  );
}

/** The buyer's second step: the chain listing read just now, the fee it includes, and the buyer's chain balance. */
function ChainBuyConfirmForm({ confirm, chainTrade, answer, onSubmit, disabled }: Common & { confirm: ChainBuyConfirmation }) {
  const location = useLocation();
  return (
    <ChainForm
      intent="chain-buy"
      title="Confirm the purchase"
      idempotencyKey={keyOf("chain-buy", answer, chainTrade.keys.buy)}
      answer={answer}
      onSubmit={onSubmit}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-300">Price</dt>
        <dd className="text-white" data-testid="confirm-price">
          {confirm.price}
        </dd>
        <dt className="text-slate-300">Market fee</dt>
        <dd className="text-white" data-testid="confirm-fee">
          {confirm.fee}, included in the price
        </dd>
        <dt className="text-slate-300">Seller</dt>
        <dd className="break-all font-mono text-xs text-white" data-testid="confirm-seller">
          {confirm.seller}
        </dd>
        <dt className="text-slate-300">Your {confirm.currency} on chain</dt>
        <dd className="text-white" data-testid="confirm-balance">
          <Amount value={confirm.balance} />
        </dd>
      </dl>
      {!confirm.affordable && <p className="text-sm text-amber-200">Your balance is lower than the price.</p>}
      <Hidden fields={{ order: confirm.order }} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={disabled}>
          Confirm purchase
        </button>
        <Link to={location.pathname + location.search} className="btn-secondary">
          Back
        </Link>
      </div>
    </ChainForm>
  );
}

/** The forms of one chain state of the panel (trade-state.ts). */
export function ChainTradeForms({
  kind,
  confirm,
  ...common
}: Common & { kind: "chain-sell" | "chain-listed" | "chain-confirm-buy"; confirm?: ChainBuyConfirmation }) {
  if (kind === "chain-confirm-buy") return confirm ? <ChainBuyConfirmForm confirm={confirm} {...common} /> : null;
  return (
    <div className="mt-3 grid gap-6 md:grid-cols-2">
      {kind === "chain-sell" ? <ChainSellForm {...common} /> : <ChainCancelForms {...common} />}
      <ChainMoveForms {...common} />
    </div>
  );
}
