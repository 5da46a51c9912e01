/** The display name form's Zod schema, built from its rule (name-rules.ts); imported by server modules only. */
import { z } from "zod";
import { ruledText } from "~/domain/rule-schemas";
import { NAME_INTENTS, NAME_RULES } from "./name-rules";

export const NameSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(NAME_INTENTS.save), displayName: ruledText(NAME_RULES.displayName) }),
  z.object({ intent: z.literal(NAME_INTENTS.clear) }),
]);
