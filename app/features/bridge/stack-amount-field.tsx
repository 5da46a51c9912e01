/**
 * The amount of a stack to move between the game and the chain: its own module, so the storage grid's cards carry it
 * without the bridge form's other parts.
 */
import { ErrorList } from "~/components/error-list";

/** The amount of a stack to move, all of it to start with; `errors` (a refused post's) next to it. */
export function StackAmountField({
  id,
  max,
  value,
  errors,
  compact = false,
}: {
  id: string;
  /** The stack's size (decimal, a uint256), when the page knows it. */
  max?: string;
  value?: string;
  errors?: string[];
  compact?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={compact ? "text-xs" : "text-sm font-medium"}>
        Amount{max !== undefined && <span className="muted"> (you hold {max})</span>}
      </label>
      <input
        id={id}
        name="amount"
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        step={1}
        required
        defaultValue={value ?? max}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-errors` : undefined}
        className={compact ? "field-input w-full px-2 py-1 text-xs" : "field-input w-32"}
      />
      <ErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}
