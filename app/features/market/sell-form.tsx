import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { ErrorList } from "~/components/error-list";
import { Field, SelectField } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { SELL_RULES } from "./trade-rules";
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
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "sell",
    rules: SELL_RULES,
    lastResult,
    defaultValue: { currency: currency ?? "FIRE", days: String(DEFAULT_LISTING_DAYS) },
    onValid: onSubmit,
  });
  return (
    <Form method="post" {...form} className="flex flex-col gap-3" aria-labelledby="sell-title">
      <h3 id="sell-title" className="font-semibold text-white">
        Sell
      </h3>
      <input type="hidden" name="intent" value="sell" />
      <Field label="Price" field={field("price")} inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "12.5" }} />
      <SelectField label="Currency" field={field("currency")} options={CURRENCIES.map((currency) => [currency, currency] as const)} />
      <SelectField
        label="Listing lasts"
        field={field("days")}
        options={LISTING_DURATIONS.map((duration) => [String(duration.days), duration.label] as const)}
      />
      <ErrorList id={formErrorId} errors={formErrors} />
      <button type="submit" className="btn-primary self-start" disabled={disabled}>
        List for sale
      </button>
    </Form>
  );
}
