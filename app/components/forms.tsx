import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { ErrorList } from "./error-list";
import type { FieldState } from "./use-field-rules";

type InputType = "text" | "email" | "password" | "number" | "hidden" | "search" | "tel" | "url";

const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

/** A labelled input of a form checked by useFieldRules, with its errors and an optional hint. */
export function Field({
  label,
  field,
  type = "text",
  hint,
  inputProps,
  after,
}: {
  label: string;
  field: FieldState;
  type?: InputType;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  after?: ReactNode;
}) {
  const hintId = useId();
  const invalid = Boolean(field.errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-100">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={field.id}
          name={field.name}
          type={type}
          // The action puts the previous value back after a refused post; a password is never echoed.
          defaultValue={type === "password" ? undefined : field.defaultValue}
          {...field.constraint}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy(invalid && field.errorId, hint !== undefined && hintId)}
          {...inputProps}
          className="field-input"
        />
        {after}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-slate-300">
          {hint}
        </p>
      )}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * A labelled select of a form checked by useFieldRules, with its errors: `options` are [value, label] pairs. Every
 * option is a choice, so the select is never empty and is not marked required (HTML asks an empty first option then).
 */
export function SelectField({
  label,
  field,
  options,
}: {
  label: string;
  field: FieldState;
  options: readonly (readonly [value: string, label: string])[];
}) {
  const invalid = Boolean(field.errors?.length);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-100">
        {label}
      </label>
      <select
        id={field.id}
        name={field.name}
        defaultValue={field.defaultValue}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(invalid && field.errorId)}
        className="field-input"
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A notice in a form: success or information that is not an error. */
export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border border-emerald-700 bg-emerald-950 px-3 py-2 text-sm text-emerald-100">
      {children}
    </p>
  );
}
