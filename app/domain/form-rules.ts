/**
 * The rules of the text fields a person fills in, written once and read twice: the server's Zod schemas are built
 * from them (rule-schemas.ts, with Conform's parseWithZod in the actions), and the browser checks a field with the
 * same rules and messages as the person types (components/use-field-rules.ts). No Zod here, so a page's
 * JavaScript does not carry it (docs/decisions/0006).
 */

/** One test of a field's text and the product's words when it fails. */
export type Check = readonly [passes: (text: string) => boolean, message: string];

export interface FieldRule {
  /** The server trims the text before checking it (and before using it). */
  trim: boolean;
  /** Checked in order; the first that fails is the field's message. */
  checks: readonly [Check, ...Check[]];
  /** The message for an empty field. */
  missing: string;
  /** Attributes for the browser: what assistive technology announces, and a length cut as the person types. */
  constraint?: { required?: boolean; minLength?: number; maxLength?: number; pattern?: string };
}

export type FormRules = Readonly<Record<string, FieldRule>>;

/** A required field: trimmed unless said otherwise, and missing in the first check's words unless said otherwise. */
export function rule(
  checks: FieldRule["checks"],
  options: { trim?: boolean; missing?: string; constraint?: FieldRule["constraint"] } = {},
): FieldRule {
  return {
    trim: options.trim ?? true,
    checks,
    missing: options.missing ?? checks[0][1],
    constraint: { required: true, ...options.constraint },
  };
}

/** The message of the first failing check, or null when the text passes them all. */
export function problemOf(fieldRule: FieldRule, raw: string): string | null {
  const text = fieldRule.trim ? raw.trim() : raw;
  if (text === "") return fieldRule.missing;
  for (const [passes, message] of fieldRule.checks) if (!passes(text)) return message;
  return null;
}

/** Every field's message for a form's values, as the server would answer them: `{ field: [message] }`. */
export function problemsOf(rules: FormRules, valueOf: (name: string) => string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const [name, fieldRule] of Object.entries(rules)) {
    const problem = problemOf(fieldRule, valueOf(name));
    if (problem) problems[name] = [problem];
  }
  return problems;
}
