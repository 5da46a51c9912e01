import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { ErrorList, Field } from "~/components/forms";
import { transferSchema } from "~/domain/trade-schemas";

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
  const schema = transferSchema(sender);
  const [form, fields] = useForm({
    id: "transfer",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="transfer-title">
      <h3 id="transfer-title" className="font-semibold text-white">
        Transfer
      </h3>
      <input type="hidden" name="intent" value="transfer" />
      <Field label="Recipient address" field={fields.to} inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "0x…" }} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-secondary self-start" disabled={disabled}>
        Transfer
      </button>
    </Form>
  );
}
