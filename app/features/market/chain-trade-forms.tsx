/**
 * The trade panel's chain forms (issue 28), loaded only on a page that offers them: "Sell on chain" (with its
 * review of the exact fee; an amount for a material stack), "Cancel listing" and "Cancel all my chain listings", "Transfer to a wallet", "Send to
 * a player", and the buyer's confirmation. Every form posts to the detail route's action and works without
 * JavaScript for a managed wallet; a browser wallet's island handles their submit through `onSubmit`.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { Amount } from "~/components/amount";
import { Field, SelectField } from "~/components/forms";
import type { FieldState } from "~/components/use-field-rules";
import { errorsFor, Hidden, Refused } from "~/features/actions/form-parts";
import { CURRENCIES, type ShownAmount } from "~core/money";
import { DEFAULT_LISTING_DAYS } from "~core/orders";
import { MAX_LISTING_DAYS } from "~core/trading";
import {
  feeRule,
  listingEndsNote,
  type ChainBuyConfirmation,
  type ChainIntent,
  type ChainSubmit,
  type ChainTrade,
  type KeyedChainIntent,
} from "./chain-trade";
import type { ChainAnswer } from "./trade-state";

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

/**
 * One chain form: its title, the intent and idempotency key it posts (the key its refusal handed back, since nothing
 * was sent, else this render's), its fields, its button and the refusal of the whole form.
 */
function ChainForm({
  intent,
  title,
  button,
  primary = false,
  common: { chainTrade, answer, onSubmit, disabled },
  children,
}: {
  intent: KeyedChainIntent;
  title: string;
  button: string;
  primary?: boolean;
  common: Common;
  children?: ReactNode;
}) {
  const titleId = `${intent}-title`;
  const idempotencyKey = (answer?.intent === intent ? answer.values.idempotencyKey : undefined) ?? chainTrade.keys[intent];
  return (
    <Form method="post" className="flex flex-col gap-3" aria-labelledby={titleId} onSubmit={onSubmit?.(intent)}>
      <h3 id={titleId} className="font-semibold text-white">
        {title}
      </h3>
      <Hidden fields={{ intent, idempotencyKey }} />
      {children}
      <Refused messages={errorsFor(intent, answer, "")} />
      <button type="submit" className={`${primary ? "btn-primary" : "btn-secondary"} self-start`} disabled={disabled}>
        {button}
      </button>
    </Form>
  );
}

/** The terms a review or confirmation shows, one row each: label, value and the value's test id. */
function Terms({ rows }: { rows: [label: string, value: ReactNode, testId?: string][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([label, value, testId]) => (
        <Fragment key={label}>
          <dt className="text-slate-300">{label}</dt>
          <dd className="text-white" data-testid={testId}>
            {value}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** A Back link that reloads the page: the review or confirmation is left, nothing is sent. */
function BackLink() {
  const location = useLocation();
  return (
    <Link to={location.pathname + location.search} className="btn-secondary self-start">
      Back
    </Link>
  );
}

/** How much of a stack a form sells or transfers: all of it unless the owner types less. */
function AmountField({ intent, common: { chainTrade, answer } }: { intent: ChainIntent; common: Common }) {
  const held = chainTrade.stack?.held ?? "1";
  return (
    // Keyed by what is held: after a transfer the field starts again from the new amount, not the one typed.
    <Field
      key={held}
      label="Amount"
      type="number"
      field={fieldOf(intent, answer, "amount", held)}
      hint={`You hold ${held} on chain.`}
      inputProps={{ min: 1, max: held, step: 1, inputMode: "numeric" }}
    />
  );
}

/** "Sell on chain": its terms and the fee as a rule; once approved, the review with exact amounts before signing. */
function ChainSellForm(common: Common) {
  const { chainTrade, answer } = common;
  const review = answer?.intent === "chain-sell" ? answer.review : undefined;
  if (review && answer) {
    return (
      <div className="flex flex-col gap-2">
        <ChainForm intent="chain-sell" title="Review the listing" button="List on chain" primary common={{ ...common, answer: null }}>
          <Terms
            rows={[
              ...(review.amount ? [["Amount", review.amount, "review-amount"] as [string, string, string]] : []),
              ["Price", review.price, "review-price"],
              ["Market fee", <FeeText fee={review.fee} percent={review.feePercent} />, "review-fee"],
              ["You receive", review.receive, "review-receive"],
              ["Listing lasts", review.days === "1" ? "1 day" : `${review.days} days`],
            ]}
          />
          <Hidden
            fields={{
              price: answer.values.price ?? "",
              currency: answer.values.currency ?? "",
              days: review.days,
              ...(chainTrade.stack && { amount: answer.values.amount ?? "" }),
              confirmed: "1",
            }}
          />
        </ChainForm>
        <BackLink />
      </div>
    );
  }
  const approve = chainTrade.approved === false;
  return (
    <ChainForm
      intent="chain-sell"
      title="Sell on chain"
      button={approve ? "Approve the trading contract" : "Review the listing"}
      primary
      common={common}
    >
      {chainTrade.stack && <AmountField intent="chain-sell" common={common} />}
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
      {approve && (
        <p className="text-sm text-amber-200" data-testid="approve-note">
          First your wallet lets the trading contract move this item when it sells (one transaction). Then come back here to list it.
        </p>
      )}
    </ChainForm>
  );
}

/** "Cancel listing" of this item's chain listing, and "Cancel all my chain listings" (the seller's counter moves on). */
function ChainCancelForms(common: Common) {
  return (
    <div className="flex flex-col gap-4">
      <ChainForm intent="chain-cancel" title="Cancel listing" button="Cancel listing" common={common} />
      <ChainForm intent="chain-cancel-all" title="Cancel all my chain listings" button="Cancel all my chain listings" common={common}>
        <p className="text-sm text-slate-300">Ends every listing you signed on chain at once, in one transaction.</p>
      </ChainForm>
    </div>
  );
}

const ADDRESS_INPUT = { autoComplete: "off", spellCheck: false, placeholder: "0x…" } as const;

/**
 * "Transfer to a wallet" (an amount of a stack) and "Send to a player" (into that player's game inventory), as `forms`
 * offers them; `listed` while the item is on sale on chain.
 */
function ChainMoveForms({ forms, listed, ...common }: Common & { forms: readonly ChainIntent[]; listed: boolean }) {
  const { stack, chainOrder } = common.chainTrade;
  const ends = listed && <p className="text-sm text-amber-200">{listingEndsNote(stack && chainOrder ? chainOrder.amount : null)}</p>;
  return (
    <div className="flex flex-col gap-4">
      {forms.includes("chain-transfer") && (
        <ChainForm intent="chain-transfer" title="Transfer to a wallet" button="Transfer" common={common}>
          {ends}
          {common.chainTrade.stack && <AmountField intent="chain-transfer" common={common} />}
          <Field label="Recipient address" field={fieldOf("chain-transfer", common.answer, "to")} inputProps={ADDRESS_INPUT} />
        </ChainForm>
      )}
      {forms.includes("chain-send") && (
        <ChainForm intent="chain-send" title="Send to a player" button="Send" common={common}>
          {ends}
          <Field
            label="Player's wallet address"
            field={fieldOf("chain-send", common.answer, "account")}
            hint="The item goes into the game inventory of the player whose account this wallet is bound to."
            inputProps={ADDRESS_INPUT}
          />
        </ChainForm>
      )}
    </div>
  );
}

/** "0.000003086 FIRE (2.5 %)": the fee rounded, its exact amount in the title. */
function FeeText({ fee, percent, included = false }: { fee: ShownAmount; percent: string; included?: boolean }) {
  return (
    <>
      <Amount value={fee} /> ({percent}){included && ", included in the price"}
    </>
  );
}

/** The buyer's second step: the chain listing read just now, the fee it includes, and the buyer's chain balance. */
function ChainBuyConfirmForm({ confirm, ...common }: Common & { confirm: ChainBuyConfirmation }) {
  // A purchase the wallet cannot pay would only fail on chain: the button waits until the balance covers the price.
  const shortOf = confirm.affordable
    ? null
    : `Your ${confirm.currency} on chain is less than the price: add ${confirm.currency} to your wallet to buy this.`;
  return (
    <div className="mt-3 flex flex-col gap-2">
      <ChainForm
        intent="chain-buy"
        title="Confirm the purchase"
        button="Confirm purchase"
        primary
        common={{ ...common, disabled: common.disabled || Boolean(shortOf) }}
      >
        {confirm.amount && (
          <p className="text-white" data-testid="confirm-summary">
            Buy {confirm.amount} for {confirm.price}
          </p>
        )}
        <Terms
          rows={[
            ["Price", confirm.price, "confirm-price"],
            ["Market fee", <FeeText fee={confirm.fee} percent={confirm.feePercent} included />, "confirm-fee"],
            ["Seller", <span className="break-all font-mono text-xs">{confirm.seller}</span>, "confirm-seller"],
            [`Your ${confirm.currency} on chain`, <Amount value={confirm.balance} />, "confirm-balance"],
          ]}
        />
        {shortOf && (
          <p className="text-sm text-amber-200" data-testid="confirm-short">
            {shortOf}
          </p>
        )}
        <Hidden fields={{ order: confirm.order }} />
      </ChainForm>
      <BackLink />
    </div>
  );
}

/** The forms of one chain state of the panel (trade-state.ts). */
export function ChainTradeForms({
  kind,
  forms,
  confirm,
  ...common
}: Common & {
  kind: "chain-sell" | "chain-listed" | "chain-confirm-buy";
  /** The forms this item offers (trade-state.ts chainFormsOf). */
  forms: readonly ChainIntent[];
  confirm?: ChainBuyConfirmation;
}) {
  if (kind === "chain-confirm-buy") return confirm ? <ChainBuyConfirmForm confirm={confirm} {...common} /> : null;
  return (
    <div className="mt-3 grid gap-6 md:grid-cols-2">
      {kind === "chain-sell" ? <ChainSellForm {...common} /> : <ChainCancelForms {...common} />}
      <ChainMoveForms forms={forms} listed={kind === "chain-listed"} {...common} />
    </div>
  );
}
