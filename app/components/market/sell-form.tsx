import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { ErrorList, Field, SelectField } from "~/components/forms";
import { SellSchema } from "~/domain/trade-schemas";
import { CURRENCIES } from "~core/money";
import { DEFAULT_LISTING_DAYS, LISTING_DURATIONS } from "~core/orders";

/** The owner lists an item in the game: price, currency and how long the listing lasts. */
export function SellForm({
  currency,
  lastResult,
  onSubmit,
  disabled,
}: {
  /** The item's last listing currency, offered first. */
  currency: string | null;
  lastResult: SubmissionResult<string[]> | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  disabled: boolean;
}) {
  const [form, fields] = useForm({
    id: "sell",
    lastResult,
    constraint: getZodConstraint(SellSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { currency: currency ?? "FIRE", days: String(DEFAULT_LISTING_DAYS) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SellSchema }),
    onSubmit,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="sell-title">
      <h3 id="sell-title" className="font-semibold text-white">
        Sell
      </h3>
      <input type="hidden" name="intent" value="sell" />
      <Field label="Price" field={fields.price} inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "12.5" }} />
      <SelectField label="Currency" field={fields.currency} options={CURRENCIES.map((currency) => [currency, currency] as const)} />
      <SelectField
        label="Listing lasts"
        field={fields.days}
        options={LISTING_DURATIONS.map((duration) => [String(duration.days), duration.label] as const)}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary self-start" disabled={disabled}>
        List for sale
      </button>
    </Form>
  );
}
