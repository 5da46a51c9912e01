/**
 * The managed wallet's loot box forms (product §4 web path): buy, open x N and open all, as real forms that work
 * without JavaScript and as Remix forms with it. The server validates and acts; these only render what the
 * loader read (prices, totals, limits, the wallet's boxes) and the action's refusal next to the form posted.
 * No validation code and no formatting here, so the page ships nothing new but markup.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { OPEN_BATCH_MAX } from "~core/constants";
import type { BuyOffer } from "./lootbox-offer";
import { ErrorList } from "~/components/error-list";
import { errorsFor, type FormErrors, Hidden, Refused } from "~/features/actions/form-parts";

/** The refused form's choice of `field` when it is one of `offered`, else the first offered: the form comes back as posted. */
function chosen(intent: string, answer: FormErrors | null | undefined, field: string, offered: readonly string[]): string | undefined {
  const value = answer?.intent === intent ? answer.values[field] : undefined;
  return value !== undefined && offered.includes(value) ? value : offered[0];
}

/** 1..n as option values. */
const counts = (n: number) => Array.from({ length: n }, (_, index) => String(index + 1));

export function ManagedBuyForm({
  title,
  offer,
  idempotencyKey,
  answer,
  wallet,
}: {
  title: string;
  offer: BuyOffer;
  idempotencyKey: string;
  answer: FormErrors | null | undefined;
  /** The paying wallet with its balances, shown beside the form. */
  wallet: ReactNode;
}) {
  const busy = useNavigation().state !== "idle";
  const { currencies, totals, maxQuantity, blockedNote, remainingToday } = offer;
  const fieldErrors = (field: string) => errorsFor("buy", answer, field);
  if (currencies.length === 0) return <p className="muted">This box is not on sale right now.</p>;
  const currency = chosen(
    "buy",
    answer,
    "currency",
    currencies.map((offered) => offered.currency),
  );
  const quantity = chosen("buy", answer, "quantity", counts(totals.length));
  const quantityErrors = fieldErrors("quantity");
  return (
    <Form method="post" className="flex flex-col gap-3" aria-labelledby="buy-form-title">
      <h3 id="buy-form-title" className="font-semibold text-white">
        Buy {title}es
      </h3>
      <Hidden fields={{ intent: "buy", idempotencyKey }} />
      {wallet}
      <fieldset className="flex flex-wrap gap-3" aria-describedby={fieldErrors("currency") ? "buy-currency-errors" : undefined}>
        <legend className="mb-2 text-sm font-semibold text-slate-100">Pay with</legend>
        {currencies.map((offered) => (
          <label key={offered.currency} className="flex items-center gap-2 rounded-md border border-space-700 px-3 py-2 text-sm">
            <input type="radio" name="currency" value={offered.currency} defaultChecked={offered.currency === currency} />
            {offered.currency} <span className="text-slate-300">({offered.each} each)</span>
          </label>
        ))}
      </fieldset>
      <ErrorList id="buy-currency-errors" errors={fieldErrors("currency")} />
      <div className="flex flex-col gap-1">
        <label htmlFor="buy-quantity" className="text-sm font-medium text-slate-100">
          Quantity
        </label>
        <select
          id="buy-quantity"
          name="quantity"
          className="field-input max-w-xs"
          aria-describedby={quantityErrors ? "buy-quantity-errors buy-quantity-hint" : "buy-quantity-hint"}
          aria-invalid={quantityErrors ? true : undefined}
          defaultValue={quantity}
          disabled={!maxQuantity}
        >
          {totals.map((total, index) => (
            <option key={total} value={index + 1}>
              {index + 1} ({total})
            </option>
          ))}
        </select>
        <p id="buy-quantity-hint" className="text-xs text-slate-300" data-testid="buy-limit">
          {blockedNote ??
            `Up to ${maxQuantity} in one purchase${remainingToday === null ? "" : `; ${remainingToday} more in your current 24 hours`}.`}
        </p>
        <ErrorList id="buy-quantity-errors" errors={quantityErrors} />
      </div>
      <Refused messages={[...(fieldErrors("idempotencyKey") ?? []), ...(fieldErrors("") ?? [])]} />
      <button type="submit" className="btn-primary self-start" disabled={busy || maxQuantity === 0}>
        Buy
      </button>
    </Form>
  );
}

export interface OpenKeys {
  open: string;
  openAll: string;
}

export function ManagedOpenForms({
  title,
  boxIds,
  owned,
  keys,
  answer,
}: {
  title: string;
  /** The wallet's unopened boxes of this type, as decimal ids, at most one action's worth. */
  boxIds: string[];
  /** How many it holds in all (more than boxIds when over one action's worth). */
  owned: number;
  keys: OpenKeys;
  answer: FormErrors | null | undefined;
}) {
  const busy = useNavigation().state !== "idle";
  const openErrors = (intent: string) => [...(errorsFor(intent, answer, "") ?? []), ...(errorsFor(intent, answer, "boxIds") ?? [])];
  if (boxIds.length === 0) {
    return (
      <div className="flex flex-col gap-2">
        <p className="text-sm">You have no unopened {title}es.</p>
        <Refused messages={openErrors("open-bought")} />
      </div>
    );
  }
  const ids = boxIds.join(",");
  // Open x N names a count, not ids: the opener picks the wallet's latest boxes of this type.
  const count = chosen("open", answer, "count", counts(Math.min(owned, OPEN_BATCH_MAX)));
  const countErrors = errorsFor("open", answer, "count");
  return (
    <section className="flex flex-col gap-3" aria-labelledby="open-forms-title">
      <h3 id="open-forms-title" className="font-semibold text-white">
        Open {title}es
      </h3>
      <p className="text-sm">You have {owned === 1 ? `1 unopened ${title}` : `${owned} unopened ${title}es`}.</p>
      <div className="flex flex-wrap items-end gap-4">
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <Hidden fields={{ intent: "open", idempotencyKey: keys.open }} />
          <div className="flex flex-col gap-1">
            <label htmlFor="open-count" className="text-sm font-medium text-slate-100">
              Boxes to open
            </label>
            <select
              id="open-count"
              name="count"
              className="field-input"
              defaultValue={count}
              aria-describedby={countErrors ? "open-count-errors" : undefined}
              aria-invalid={countErrors ? true : undefined}
            >
              {counts(Math.min(owned, OPEN_BATCH_MAX)).map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
            <ErrorList id="open-count-errors" errors={countErrors} />
          </div>
          <button type="submit" className="btn-secondary" disabled={busy}>
            Open
          </button>
        </Form>
        <Form method="post">
          <Hidden fields={{ intent: "open-all", idempotencyKey: keys.openAll, boxIds: ids }} />
          <button type="submit" className="btn-primary" disabled={busy}>
            {boxIds.length < owned ? `Open ${boxIds.length} of ${owned}` : `Open all ${owned}`}
          </button>
        </Form>
      </div>
      <Refused messages={[...openErrors("open"), ...openErrors("open-all"), ...openErrors("open-bought")]} />
    </section>
  );
}
