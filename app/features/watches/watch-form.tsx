import { CURRENCIES } from "~core/money";
import type { WatchControl } from "./watches.server";

/**
 * "Watch this search" under a market view: a plain post for a signed-in user, a sign-in link for a visitor. It ships
 * on the market page (its JS budget is spent), so it is bare markup: a refused post answers on the watches page,
 * with the messages next to its fields (watch-fields.tsx).
 */
export function WatchSearch({ control }: { control: WatchControl }) {
  if ("login" in control) {
    return (
      <p className="text-sm">
        <a href={control.login}>Sign in to watch this search</a>
      </p>
    );
  }
  return (
    <form method="post" action={control.action} className="flex flex-wrap items-end gap-3" aria-label="Watch this search">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="search" value={control.search} />
      <label className="flex flex-col gap-1 text-sm">
        Price ceiling (optional)
        <input name="ceiling" inputMode="decimal" autoComplete="off" placeholder="40000" className="field-input w-32" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Currency
        <select name="currency" className="field-input">
          <option value="">Any currency</option>
          {CURRENCIES.map((currency) => (
            <option key={currency}>{currency}</option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn-secondary">
        Watch this search
      </button>
    </form>
  );
}
