import type { WatchControl } from "./watches.server";

/**
 * "Watch this search" under a market view: a plain post for a signed-in user, a sign-in link for a visitor. It ships
 * on the market page (its JS budget is spent), so it is bare markup with its words and classes elsewhere (the
 * loader's data, tailwind.css); a refused post answers on the watches page, next to its fields (watch-fields.tsx).
 */
export function WatchSearch({ control }: { control: WatchControl }) {
  if ("login" in control) {
    return (
      <p className="text-sm">
        <a href={control.login}>{control.text}</a>
      </p>
    );
  }
  const { words } = control;
  return (
    <form method="post" action={control.action} className="watch-form" aria-label={words.submit}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="search" value={control.search} />
      <label>
        {words.ceiling}
        <input name="ceiling" inputMode="decimal" autoComplete="off" placeholder="40000" className="field-input w-32" />
      </label>
      <label>
        {words.currency}
        <select name="currency" className="field-input">
          <option value="">{words.any}</option>
          {control.currencies.map((currency) => (
            <option key={currency}>{currency}</option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn-secondary">
        {words.submit}
      </button>
    </form>
  );
}
