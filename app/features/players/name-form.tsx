import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/error-list";
import { Field } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MIN_LENGTH } from "~core/display-name";
import { NAME_INTENTS, NAME_RULES } from "./name-rules";

/**
 * The signed-in player's display name, on their own player page (issue 42): set or change it, or remove it. A plain
 * post: the page's action answers a refusal next to the field, a success with a toast.
 */
export function NameForm({ current, lastResult }: { current: string | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "player-name",
    rules: NAME_RULES,
    rulesFor: (submitter) => (submitter?.getAttribute("value") === NAME_INTENTS.clear ? {} : NAME_RULES),
    lastResult,
    defaultValue: { displayName: current ?? "" },
  });
  return (
    <section aria-labelledby="player-name-title" className="card flex max-w-xl flex-col gap-3">
      <h2 id="player-name-title" className="section-title">
        Your name
      </h2>
      <p className="text-sm text-slate-300">
        {current
          ? "Players see this name on your page and on the items you hold."
          : "Players see your wallet address until you choose a name."}
      </p>
      <Form method="post" {...form} className="flex flex-col gap-3">
        <Field
          label="Display name"
          field={field("displayName")}
          hint={`${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters: letters A–Z and digits, with _, - or single spaces between them.`}
          inputProps={{ autoComplete: "nickname" }}
        />
        <ErrorList id={formErrorId} errors={formErrors} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value={NAME_INTENTS.save} className="btn-primary" disabled={Boolean(busyIntent)}>
            {busyIntent === NAME_INTENTS.save ? "Saving…" : "Save name"}
          </button>
          {current && (
            <button type="submit" name="intent" value={NAME_INTENTS.clear} className="btn-secondary" disabled={Boolean(busyIntent)}>
              {busyIntent === NAME_INTENTS.clear ? "Removing…" : "Remove name"}
            </button>
          )}
        </div>
      </Form>
    </section>
  );
}
