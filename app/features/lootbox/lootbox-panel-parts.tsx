/**
 * The pieces of the loot box island's UI (lootbox-panel.client.tsx): the buy form, the
 * open controls, the step status and the new items. Plain React with no wallet calls: they render what the
 * island decides. Imported by the island only, so they load with it.
 */
import { useState, type FormEvent } from "react";
import { ItemList, type OpenedItem } from "~/components/item-list";
import { clampOpenCount } from "./lootbox-rules";
import type { PaymentCurrency } from "~core/boxes";
import { OPEN_BATCH_MAX } from "~core/constants";
import { formatPrice } from "~core/money";
import { plural } from "~core/words";

export type Step = { status: "idle" } | { status: "pending" | "confirmed" | "failed"; text: string };

const CURRENCY_ORDER: readonly PaymentCurrency[] = ["USDT", "QUARK", "BNB"];

/** Currency and quantity of one purchase; the quantity never exceeds what the loader's limits allow now. */
export function BuyForm({
  title,
  prices,
  maxQuantity,
  limitNote,
  busy,
  disabled,
  onBuy,
}: {
  title: string;
  prices: Partial<Record<PaymentCurrency, bigint>>;
  maxQuantity: number;
  limitNote: string | null;
  busy: boolean;
  disabled: boolean;
  onBuy: (currency: PaymentCurrency, quantity: number) => void;
}) {
  const currencies = CURRENCY_ORDER.filter((currency) => prices[currency] !== undefined);
  const [currency, setCurrency] = useState<PaymentCurrency | undefined>(currencies[0]);
  const [quantity, setQuantity] = useState(1);
  const unitPrice = currency ? prices[currency] : undefined;
  // The loader's limits can shrink after a purchase: never ask for more than they allow now.
  const wanted = Math.min(quantity, Math.max(maxQuantity, 1));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (currency && unitPrice !== undefined) onBuy(currency, wanted);
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label={`Buy ${title}`}>
      {currencies.length === 0 ? (
        <p className="muted">This box is not on sale right now.</p>
      ) : (
        <fieldset className="flex flex-wrap gap-3">
          <legend className="mb-2 text-sm font-semibold text-slate-100">Pay with</legend>
          {currencies.map((c) => (
            <label key={c} className="flex items-center gap-2 rounded-md border border-space-700 px-3 py-2 text-sm">
              <input type="radio" name="currency" value={c} checked={currency === c} onChange={() => setCurrency(c)} disabled={busy} />
              {c} <span className="text-slate-300">({formatPrice(prices[c]!, c)} each)</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          Quantity
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.max(maxQuantity, 1)}
            value={wanted}
            onChange={(event) => setQuantity(Math.min(Math.max(Math.trunc(Number(event.target.value)) || 1, 1), Math.max(maxQuantity, 1)))}
            className="w-24 rounded-md border border-space-600 bg-space-950 px-2 py-1"
            disabled={busy}
          />
        </label>
        {currency && unitPrice !== undefined && <p className="pb-1 text-sm">Total {formatPrice(unitPrice * BigInt(wanted), currency)}</p>}
        <button type="submit" className="btn-primary" disabled={disabled || maxQuantity === 0 || !currency}>
          {busy ? "Please wait…" : "Buy"}
        </button>
      </div>
      {maxQuantity === 0 && limitNote && <p className="text-sm font-semibold text-amber-300">{limitNote}</p>}
    </form>
  );
}

/** The unopened boxes: "Open now" for the ones just bought, "Open N" (1-10, by count: the opener picks them) and "Open all". */
export function OpenControls({
  title,
  boxIds,
  bought,
  busy,
  disabled,
  onOpen,
  onOpenCount,
}: {
  title: string;
  boxIds: readonly bigint[];
  bought: readonly bigint[];
  busy: boolean;
  disabled: boolean;
  onOpen: (ids: readonly bigint[]) => void;
  onOpenCount: (count: number) => void;
}) {
  const [openCount, setOpenCount] = useState(1);
  const openable = clampOpenCount(openCount, boxIds.length);
  return (
    <div className="flex flex-col gap-3" role="group" aria-label={`Open ${title}es`}>
      <p className="text-sm">
        {boxIds.length === 0
          ? `You have no unopened ${title}es.`
          : `You have ${plural(boxIds.length, `unopened ${title}`, `unopened ${title}es`)}.`}
      </p>
      {bought.length > 0 && (
        <button type="button" className="btn-primary self-start" onClick={() => onOpen(bought)} disabled={disabled}>
          Open now
        </button>
      )}
      {boxIds.length > 0 && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm">
            Boxes to open
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={Math.min(OPEN_BATCH_MAX, boxIds.length)}
              value={openCount}
              onChange={(event) => setOpenCount(Number(event.target.value))}
              className="w-24 rounded-md border border-space-600 bg-space-950 px-2 py-1"
              disabled={busy}
            />
          </label>
          <button type="button" className="btn-secondary" onClick={() => onOpenCount(openable)} disabled={disabled || openable === 0}>
            Open {openable}
          </button>
          <button type="button" className="btn-secondary" onClick={() => onOpen(boxIds)} disabled={disabled}>
            Open all ({boxIds.length})
          </button>
        </div>
      )}
    </div>
  );
}

/** The current step, read out politely; a failure as an alert. */
export function StepStatus({ step }: { step: Step }) {
  return (
    <>
      <div aria-live="polite" role="status" className="min-h-6 text-sm" data-testid="lootbox-status" data-state={step.status}>
        {step.status !== "idle" && step.status !== "failed" && (
          <p className={step.status === "confirmed" ? "text-emerald-300" : "text-slate-100"}>
            {step.status === "pending" ? "Pending: " : "Confirmed: "}
            {step.text}
          </p>
        )}
      </div>
      {step.status === "failed" && (
        <p role="alert" className="rounded-md border border-red-400 bg-red-950 px-3 py-2 text-sm">
          Failed: {step.text}
        </p>
      )}
    </>
  );
}

export function NewItems({ items }: { items: readonly OpenedItem[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="new-items-title">
      <h3 id="new-items-title" className="mb-2 font-semibold text-white">
        Your new items
      </h3>
      <ItemList items={items} />
    </section>
  );
}
