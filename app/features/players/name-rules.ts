/** The display name form's field (form-rules.ts): checked in the browser and, as Zod, by the player page's action. */
import { DISPLAY_NAME_CHECKS, DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MIN_LENGTH } from "~core/display-name";
import { rule } from "~/domain/form-rules";

/** "Save name" checks the name; "Remove name" checks nothing. */
export const NAME_INTENTS = { save: "save-name", clear: "clear-name" } as const;

export const NAME_RULES = {
  displayName: rule(DISPLAY_NAME_CHECKS, {
    missing: `Enter a name of ${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters.`,
    constraint: { minLength: DISPLAY_NAME_MIN_LENGTH, maxLength: DISPLAY_NAME_MAX_LENGTH },
  }),
};
