import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { ErrorList } from "./actions/form-parts";

// One ErrorList for every form: markup only, so pages without Conform forms can use it without loading Conform.
export { ErrorList };

type InputType = "text" | "email" | "password" | "number" | "hidden" | "search" | "tel" | "url";

/** A labelled input bound to a Conform field, with its errors and an optional hint. */
export function Field({
  label,
  field,
  type = "text",
  hint,
  inputProps,
  after,
}: {
  label: string;
  field: FieldMetadata<string | undefined>;
  type?: InputType;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  after?: ReactNode;
}) {
  const hintId = useId();
  const props = getInputProps(field, { type, ariaDescribedBy: hint ? hintId : undefined });
  // Conform puts the previous value back after a failed submit; a password is never echoed.
  const value = type === "password" ? { defaultValue: undefined } : {};
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-100">
        {label}
      </label>
      <div className="flex gap-2">
        <input {...props} {...value} {...inputProps} key={props.key} className="field-input" />
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

/** A labelled select bound to a Conform field, with its errors: `options` are [value, label] pairs. */
export function SelectField<Value extends string | number | undefined>({
  label,
  field,
  options,
}: {
  label: string;
  field: FieldMetadata<Value, Record<string, unknown>, string[]>;
  options: readonly (readonly [value: string, label: string])[];
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-100">
        {label}
      </label>
      <select {...getSelectProps(field)} key={field.key} className="field-input">
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
