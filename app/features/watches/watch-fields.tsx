import { ErrorList } from "~/components/error-list";
import { CURRENCIES } from "~core/money";

type FieldErrors = Partial<Record<"ceiling" | "currency" | "", string[]>>;

/**
 * The watch's two optional fields, server-rendered: a price ceiling and its currency. Checked by the action only
 * (watch-schemas.server.ts), which answers next to each field; no script, so the market page ships almost nothing.
 */
export function WatchFields({ errors = {}, values = {} }: { errors?: FieldErrors; values?: Record<string, string> }) {
  return (
    <>
      <div className="flex flex-col gap-1">
        <label htmlFor="watch-ceiling" className="text-sm text-slate-100">
          Price ceiling (optional)
        </label>
        <input
          id="watch-ceiling"
          name="ceiling"
          inputMode="decimal"
          autoComplete="off"
          placeholder="40000"
          defaultValue={values.ceiling}
          aria-invalid={errors.ceiling ? true : undefined}
          aria-describedby={errors.ceiling ? "watch-ceiling-error" : undefined}
          className="field-input w-32"
        />
        <ErrorList id="watch-ceiling-error" errors={errors.ceiling} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="watch-currency" className="text-sm text-slate-100">
          Currency
        </label>
        <select
          id="watch-currency"
          name="currency"
          defaultValue={values.currency ?? ""}
          aria-invalid={errors.currency ? true : undefined}
          aria-describedby={errors.currency ? "watch-currency-error" : undefined}
          className="field-input"
        >
          <option value="">Any currency</option>
          {CURRENCIES.map((currency) => (
            <option key={currency}>{currency}</option>
          ))}
        </select>
        <ErrorList id="watch-currency-error" errors={errors.currency} />
      </div>
    </>
  );
}
