/** The watch forms' schemas (Conform's parseWithZod in the actions); a server module, so no page ships Zod. */
import { z } from "zod";
import { CURRENCIES, parseTokenAmount } from "~core/money";
import { WATCH_MESSAGES } from "./watch-messages";

const ceilingText = z
  .string()
  .trim()
  .optional()
  .superRefine((text, ctx) => {
    if (text === undefined) return;
    const wei = parseTokenAmount(text);
    if (wei === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: WATCH_MESSAGES.ceilingFormat });
    else if (wei <= 0n) ctx.addIssue({ code: z.ZodIssueCode.custom, message: WATCH_MESSAGES.ceilingPositive });
  });

export const AddWatchSchema = z
  .object({
    intent: z.literal("add"),
    /** The market view's canonical query, without "?" (empty: the whole market). */
    search: z.string().max(1024).optional(),
    ceiling: ceilingText,
    currency: z.enum(CURRENCIES, { errorMap: () => ({ message: WATCH_MESSAGES.currency }) }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.ceiling !== undefined && !value.currency) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["currency"], message: WATCH_MESSAGES.ceilingCurrency });
    }
  });

export const RemoveWatchSchema = z.object({ intent: z.literal("remove"), id: z.coerce.number().int().positive() });
