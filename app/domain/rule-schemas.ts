import { z } from "zod";
import { problemOf, type FieldRule } from "./form-rules";

/**
 * A text field of a Zod schema that checks exactly what the browser checks with `fieldRule`: the same order, the
 * same single message. Conform turns an empty field into undefined: that is the rule's "missing" message too.
 */
export function ruledText(fieldRule: FieldRule) {
  const text = z.string({ required_error: fieldRule.missing });
  return (fieldRule.trim ? text.trim() : text).superRefine((value, context) => {
    const problem = problemOf(fieldRule, value);
    if (problem) context.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });
}
