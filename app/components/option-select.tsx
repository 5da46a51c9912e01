/** What a page passes to an OptionSelect: the field, its label, the value chosen and its [value, text] options. */
export interface OptionSelectProps {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [string, string])[];
}

/**
 * A labelled drop-down of [value, text] options, as the filter and calculator forms have them. `compact` is the
 * market filter forms' look (a white label, a lower select); `describedBy` names a note on it.
 */
export function OptionSelect({
  id,
  name,
  label,
  value,
  options,
  compact = false,
  describedBy,
}: OptionSelectProps & { id: string; compact?: boolean; describedBy?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={compact ? "text-sm font-semibold text-white" : "text-sm font-semibold"}>
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        aria-describedby={describedBy}
        className={compact ? "field-input py-1.5" : "field-input"}
      >
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
