import type { SubmissionResult } from "@conform-to/react";
import { useState, type FocusEvent, type FormEvent } from "react";
import { problemOf, problemsOf, type FieldRule, type FormRules } from "~/domain/form-rules";

/** What a Field needs: its name and id, the server's or the browser's messages, and its attributes. */
export interface FieldState {
  id: string;
  name: string;
  errorId: string;
  errors: string[] | undefined;
  defaultValue: string | undefined;
  constraint: FieldRule["constraint"];
}

type Reply = SubmissionResult<string[]> | null | undefined;

const serverErrors = (reply: Reply) => {
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(reply?.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
};

/** The field an event came from, or null for anything else in the form (a button, say). */
const fieldOf = (target: EventTarget) =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ? target : null;

/**
 * A form checked in the browser with the rules its action checks (domain/form-rules.ts), the way Conform did it
 * for us: a field is checked when it loses focus, again as it is corrected, and every field on submit; the
 * action's answer (Conform's reply) is shown until the person edits. Without JavaScript the action answers alone.
 * `rulesFor` picks the rules of the button that submits (a form may have two).
 */
export function useFieldRules({
  id,
  rules,
  rulesFor = () => rules,
  lastResult,
  defaultValue = {},
  onValid,
}: {
  /** Unique on the page: the fields' ids start with it. */
  id: string;
  rules: FormRules;
  rulesFor?: (submitter: HTMLElement | null) => FormRules;
  lastResult: Reply;
  defaultValue?: Record<string, string>;
  /** Runs once every field passes, with the submit event (a browser wallet signs here). */
  onValid?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const [reply, setReply] = useState(lastResult);
  const [errors, setErrors] = useState(() => serverErrors(lastResult));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  if (reply !== lastResult) {
    // A new answer from the action replaces whatever the browser said.
    setReply(lastResult);
    setErrors(serverErrors(lastResult));
    setTouched(new Set());
  }

  const check = (name: string, value: string) => {
    const fieldRule = rules[name];
    if (!fieldRule) return;
    const problem = problemOf(fieldRule, value);
    setErrors(({ [name]: _, "": __, ...rest }) => (problem ? { ...rest, [name]: [problem] } : rest));
  };

  const form = {
    id,
    // The browser never refuses a post on its own: with or without JavaScript, every message is the product's.
    noValidate: true,
    "aria-describedby": errors[""] ? `${id}-form-error` : undefined,
    onBlur(event: FocusEvent<HTMLFormElement>) {
      const input = fieldOf(event.target);
      if (!input || !rules[input.name]) return;
      // Focus moving to a submit button: a message appearing now would shift the button away from the click, and
      // the submit checks every field anyway.
      if (
        event.relatedTarget instanceof HTMLButtonElement &&
        event.relatedTarget.type === "submit" &&
        event.relatedTarget.form === input.form
      )
        return;
      setTouched((names) => new Set(names).add(input.name));
      check(input.name, input.value);
    },
    onInput(event: FormEvent<HTMLFormElement>) {
      const input = fieldOf(event.target);
      if (input && (touched.has(input.name) || errors[input.name])) check(input.name, input.value);
    },
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const data = new FormData(event.currentTarget, submitter);
      const problems = problemsOf(rulesFor(submitter), (name) => String(data.get(name) ?? ""));
      const invalid = Object.keys(problems);
      if (invalid.length) {
        event.preventDefault();
        setErrors(problems);
        setTouched(new Set(invalid));
        event.currentTarget.querySelector<HTMLElement>(invalid.map((name) => `[name="${name}"]`).join(","))?.focus();
        return;
      }
      onValid?.(event);
    },
  };

  const initialValue = (reply?.initialValue ?? {}) as Record<string, unknown>;
  const field = (name: string): FieldState => {
    const submitted = initialValue[name];
    return {
      id: `${id}-${name}`,
      name,
      errorId: `${id}-${name}-error`,
      errors: errors[name],
      defaultValue: typeof submitted === "string" ? submitted : defaultValue[name],
      constraint: rules[name]?.constraint,
    };
  };

  return { form, formErrorId: `${id}-form-error`, formErrors: errors[""], field };
}
