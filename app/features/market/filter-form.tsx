import { Form, Link, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { MARKET_PATH } from "~/features/market/filters/paths";
import type { MarketFormValues, RangeInput } from "~/features/market/filters/chips";

function RangeField({ input: { key: name, label, values, min, max } }: { input: RangeInput }) {
  const numeric = min !== undefined;
  const input = (side: "min" | "max", value: string) => (
    <div className="flex flex-1 flex-col gap-1">
      <label htmlFor={`filter-${name}-${side}`} className="text-xs text-slate-300">
        <span className="sr-only">{label} </span>
        {side === "min" ? "Min" : "Max"}
      </label>
      <input
        id={`filter-${name}-${side}`}
        name={name}
        defaultValue={value}
        className="field-input py-1.5"
        {...(numeric
          ? { type: "number", min, max, step: 1, inputMode: "numeric" as const }
          : { type: "text", inputMode: "decimal" as const, pattern: "[0-9]*[.]?[0-9]*" })}
      />
    </div>
  );
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-white">{label}</legend>
      {/* Two inputs of one name: the codec reads them as min and max. */}
      <div className="mt-1 flex gap-2">
        {input("min", values[0])}
        {input("max", values[1])}
      </div>
    </fieldset>
  );
}

/** Where focus was when the form submitted itself, to put it back on the re-rendered form. */
let focusAfterSubmit: string | null = null;

/**
 * The market's GET form. Without JavaScript, Apply submits it; with JavaScript, a change of a box or a select
 * submits it after a short pause, and a typed number when the input is left or Enter is pressed.
 * Render it with `key` set to the canonical search, so a new view starts from fresh inputs. `filter` is the server's
 * (marketFormValues), so the page carries no filter codec.
 */
export function FilterForm({ filter }: { filter: MarketFormValues }) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (focusAfterSubmit) document.getElementById(focusAfterSubmit)?.focus();
    focusAfterSubmit = null;
    const form = formRef.current;
    if (!form) return;
    // The native change event fires for text once it is committed, so typing is never interrupted.
    const onChange = (event: Event) => {
      const target = event.target as HTMLInputElement;
      if (!target.form || (target.type !== "checkbox" && target.tagName !== "SELECT" && !target.checkValidity())) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        focusAfterSubmit = target.id || null;
        submit(form, { replace: true, preventScrollReset: true });
      }, 350);
    };
    form.addEventListener("change", onChange);
    return () => {
      form.removeEventListener("change", onChange);
      clearTimeout(timer.current);
    };
  }, [submit]);

  const range = (input: RangeInput) => <RangeField key={input.key} input={input} />;

  return (
    <Form ref={formRef} method="get" action={MARKET_PATH} aria-label="Filters" className="flex flex-col gap-5">
      {filter.nftType !== undefined && <input type="hidden" name="nftType" value={filter.nftType} />}
      {filter.period && <input type="hidden" name="period" value={filter.period} />}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-1">
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-sort" className="text-sm font-semibold text-white">
            Sort by
          </label>
          <select
            id="filter-sort"
            name="sort"
            defaultValue={filter.sort}
            aria-describedby="filter-sort-note"
            className="field-input py-1.5"
          >
            {filter.sortOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {/* Below both selects on a phone, right under the sort control on a wide screen. */}
        <p id="filter-sort-note" className="muted order-last col-span-2 text-xs lg:order-none lg:col-span-1">
          {filter.sortNote}
        </p>
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-page-size" className="text-sm font-semibold text-white">
            Per page
          </label>
          <select id="filter-page-size" name="pageSize" defaultValue={filter.pageSize} className="field-input py-1.5">
            {filter.pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="flex flex-col gap-1">
        <label htmlFor="filter-venue" className="text-sm font-semibold text-white">
          Where it trades
        </label>
        <select id="filter-venue" name="venue" defaultValue={filter.venue} className="field-input py-1.5">
          {filter.venueOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>

      {filter.lists.map(({ key, label, options }) => (
        <fieldset key={key}>
          <legend className="text-sm font-semibold text-white">{label}</legend>
          <div className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 lg:grid-cols-1">
            {options.map(([code, name, checked]) => (
              <div key={code} className="flex items-center gap-2 text-sm text-slate-100">
                <input
                  type="checkbox"
                  id={`filter-${key}-${code}`}
                  name={key}
                  value={code}
                  defaultChecked={checked}
                  className="h-4 w-4 accent-spark-500"
                />
                <label htmlFor={`filter-${key}-${code}`}>{name}</label>
              </div>
            ))}
          </div>
        </fieldset>
      ))}

      {filter.level && range(filter.level)}
      {filter.stats.length > 0 && (
        <details open={filter.statsSet} className="rounded-md border border-space-700 p-3">
          <summary className="text-sm font-semibold text-white">Spaceship stats</summary>
          <div className="mt-3 flex flex-col gap-3">{filter.stats.map(range)}</div>
        </details>
      )}

      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-currency" className="text-sm font-semibold text-white">
            Currency
          </label>
          <select id="filter-currency" name="currency" defaultValue={filter.currency} className="field-input py-1.5">
            <option value="">Any currency</option>
            {filter.currencies.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </select>
        </div>
        <RangeField input={filter.price} />
        {!filter.currency && <p className="text-xs text-slate-300">Choose a currency to compare prices like with like.</p>}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary">
          Apply
        </button>
        <Link to={filter.resetHref} className="text-sm">
          Reset filters
        </Link>
        {hydrated && <p className="w-full text-xs text-slate-300">Changes apply by themselves.</p>}
      </div>
    </Form>
  );
}
