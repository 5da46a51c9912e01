import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { ErrorList } from "~/components/error-list";
import { Field } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { transferRules } from "./trade-rules";

/** The owner gives an item in the game to another wallet; `sender` is the owner's, which the recipient may not be. */
export function TransferForm({
  sender,
  lastResult,
  onSubmit,
  disabled,
}: {
  sender: string;
  lastResult: SubmissionResult<string[]> | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  disabled: boolean;
}) {
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "transfer",
    rules: transferRules(sender),
    lastResult,
    onValid: onSubmit,
  });
  return (
    <Form method="post" {...form} className="flex flex-col gap-3" aria-labelledby="transfer-title">
      <h3 id="transfer-title" className="font-semibold text-white">
        Transfer
      </h3>
      <input type="hidden" name="intent" value="transfer" />
      <Field label="Recipient address" field={field("to")} inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "0x…" }} />
      <ErrorList id={formErrorId} errors={formErrors} />
      <button type="submit" className="btn-secondary self-start" disabled={disabled}>
        Transfer
      </button>
    </Form>
  );
}
