/** A storage card's move to or from the chain: a managed wallet's form (an amount for a stack), or a link to the item page. */
import { Form, Link } from "@remix-run/react";
import type { ItemCardModel, StorageMove } from "./market-views";

function CardMove({ move, name }: { move: StorageMove; name: string }) {
  if ("reason" in move) {
    return (
      <p className="text-xs text-slate-300" data-testid="move-refused">
        {move.reason}
      </p>
    );
  }
  const note = move.note && <span className="text-xs text-amber-200">{move.note}</span>;
  if (!move.form) {
    return (
      <span className="flex flex-col gap-1">
        <Link to={move.href} className="text-xs" aria-label={`${move.label}: ${name}`}>
          {move.label}
        </Link>
        {note}
      </span>
    );
  }
  return (
    <Form method="post" action="/bridge" className="flex flex-col gap-2">
      {Object.entries(move.form).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      {/* A refused amount comes back on /bridge with its message next to the field; the card keeps only the input. */}
      {move.amount !== undefined && (
        <label className="flex flex-col gap-1 text-xs">
          <span>
            Amount<span className="muted"> (you hold {move.amount})</span>
          </span>
          <input
            name="amount"
            type="number"
            inputMode="numeric"
            min={1}
            max={move.amount}
            step={1}
            required
            defaultValue={move.amount}
            className="field-input w-full px-2 py-1 text-xs"
          />
        </label>
      )}
      <button type="submit" className="btn-secondary w-full px-2 py-1 text-xs" aria-label={`${move.label}: ${name}`}>
        {move.label}
      </button>
      {note}
    </Form>
  );
}

/** The footer storage passes to ItemGrid. */
export function cardMoveFooter(item: ItemCardModel) {
  return item.move ? <CardMove move={item.move} name={item.name} /> : null;
}
