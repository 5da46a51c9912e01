/**
 * The power and duration-lost calculators (issue 15): one GET form, so a calculation is a URL a player can bookmark
 * and works without JavaScript. On the detail and exploration pages it starts from a ship's figures; at
 * /spaceship/calculator from a blank ship. The loader computes the answer (features/spaceship/spaceship-view.ts).
 */
import { Fragment } from "react";
import { Form } from "@remix-run/react";
import type { calculatorOptions, calculatorResult } from "./calculator-form";
import { ErrorList } from "~/components/error-list";
import { Hidden } from "~/features/actions/form-parts";
import { Amount } from "~/components/amount";

const SLOTS = [
  { key: "weapon", label: "Weapon" },
  { key: "helmet", label: "Helmet" },
  { key: "cuirass", label: "Cuirass" },
  { key: "leggings", label: "Leggings" },
] as const;

export interface CalculatorProps {
  /** Where the form goes: the page it is on. */
  action: string;
  hidden?: Record<string, string>;
  values: Record<string, string>;
  errors: Record<string, string>;
  result: ReturnType<typeof calculatorResult> | null;
  options: ReturnType<typeof calculatorOptions>;
  /** Shown above the fields: whose figures they start from. */
  note?: string;
}

function NumberField({
  name,
  label,
  values,
  errors,
  width = "w-20",
}: {
  name: string;
  label: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  width?: string;
}) {
  const error = errors[name];
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`calc-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={`calc-${name}`}
        name={name}
        inputMode="numeric"
        autoComplete="off"
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `calc-${name}-error` : undefined}
        className={`field-input ${width}`}
      />
      <ErrorList id={`calc-${name}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}

function SelectField({
  name,
  label,
  values,
  options,
}: {
  name: string;
  label: string;
  values: Record<string, string>;
  options: [string, string][];
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`calc-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <select id={`calc-${name}`} name={name} defaultValue={values[name]} className="field-input">
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Calculator({ action, hidden = {}, values, errors, result, options, note }: CalculatorProps) {
  return (
    <div className="flex flex-col gap-4">
      <Form method="get" action={action} preventScrollReset className="flex flex-col gap-4" aria-label="Power and duration-lost calculator">
        <Hidden fields={hidden} />
        {note && <p className="muted text-sm">{note}</p>}
        <fieldset className="flex flex-wrap gap-3">
          <legend className="mb-2 text-sm font-semibold text-white">Ship</legend>
          <SelectField name="shipType" label="Rank" values={values} options={options.ranks} />
          <NumberField name="level" label="Level" values={values} errors={errors} width="w-16" />
          {options.stats.map(([key, label]) => (
            <NumberField key={key} name={key} label={label} values={values} errors={errors} />
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-3">
          <legend className="mb-2 text-sm font-semibold text-white">Equipment fitted (grade and level)</legend>
          {SLOTS.map((slot) => (
            <div key={slot.key} className="flex gap-2 rounded-md border border-space-700 p-2">
              <SelectField name={`${slot.key}Grade`} label={slot.label} values={values} options={[["0", "None"], ...options.grades]} />
              <NumberField name={`${slot.key}Level`} label={`${slot.label} level`} values={values} errors={errors} width="w-16" />
              <ErrorList errors={errors[`${slot.key}Grade`] ? [errors[`${slot.key}Grade`]!] : undefined} />
            </div>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-3">
          <legend className="mb-2 text-sm font-semibold text-white">Mining</legend>
          <NumberField name="hours" label="Mining hours" values={values} errors={errors} />
          <NumberField name="minutes" label="Minutes" values={values} errors={errors} />
          <NumberField name="leftHours" label="Duration left: hours (blank: full)" values={values} errors={errors} />
          <NumberField name="leftMinutes" label="Minutes" values={values} errors={errors} />
        </fieldset>
        <div>
          <button type="submit" className="btn-secondary">
            Calculate
          </button>
        </div>
      </Form>
      {result && (
        <div aria-live="polite" className="grid gap-4 sm:grid-cols-2" data-testid="calculator-result">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-300">Power</dt>
            <dd className="text-white" data-testid="calc-power">
              {result.power}
            </dd>
            <dt className="text-slate-300">Lost rate</dt>
            <dd className="text-white">{result.rate}</dd>
            <dt className="text-slate-300">Full duration</dt>
            <dd className="text-white">{result.fullDuration}</dd>
          </dl>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-300">Mines for</dt>
            <dd className="text-white">{result.minedFor}</dd>
            <dt className="text-slate-300">Duration lost</dt>
            <dd className="text-white" data-testid="calc-lost">
              {result.lost}
            </dd>
            <dt className="text-slate-300">Duration after</dt>
            <dd className="text-white">{result.after}</dd>
            {result.mined.map((material) => (
              <Fragment key={material.name}>
                <dt className="text-slate-300">{material.name} mined</dt>
                <dd className="text-white" data-testid={`calc-${material.name}`}>
                  {material.amount}
                </dd>
              </Fragment>
            ))}
            <dt className="text-slate-300">Full repair then</dt>
            <dd className="text-white">
              <Amount value={result.repair} />
            </dd>
          </dl>
          {result.cutShort && <p className="text-sm text-amber-200 sm:col-span-2">{result.cutShort}</p>}
        </div>
      )}
    </div>
  );
}
