/**
 * A player's display name (issue 42, product §5): the rule the SSO enforces and the app's form checks first, in one
 * place. Dependency-free, so the form's page may carry it.
 */

export const DISPLAY_NAME_MIN_LENGTH = 3;
export const DISPLAY_NAME_MAX_LENGTH = 20;

/** The SSO's answer when another account holds the name in any case (a 409). */
export const DISPLAY_NAME_TAKEN = "That name is taken: choose another.";

/**
 * Names no player may take, compared without case, spaces, `_` or `-`: they would pass for the site speaking
 * (decision 0032).
 */
const RESERVED = new Set([
  "admin",
  "administrator",
  "moderator",
  "mod",
  "support",
  "help",
  "staff",
  "official",
  "system",
  "sparkera",
  "spark",
]);

const folded = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");

/**
 * ASCII letters and digits, with `_`, `-` or single spaces between them: a letter from another script could pass for
 * a Latin one ("аdmin" with a Cyrillic а), and HTML shows two spaces as one.
 */
const SHAPE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]| (?! ))*[A-Za-z0-9]$/;

type Check = readonly [passes: (name: string) => boolean, message: string];

/** Checked in order on the trimmed name; the first that fails is the message. */
export const DISPLAY_NAME_CHECKS: readonly [Check, ...Check[]] = [
  [
    (name) => name.length >= DISPLAY_NAME_MIN_LENGTH && name.length <= DISPLAY_NAME_MAX_LENGTH,
    `A name has ${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters.`,
  ],
  [(name) => !name.includes("@"), "A name can’t look like an email address."],
  // A name is shown where a wallet's address would be: it must never pass for one.
  [(name) => !/^0x/i.test(name), "A name can’t start with 0x: it would look like a wallet address."],
  [(name) => SHAPE.test(name), "Use letters A–Z and digits, with _, - or single spaces between them."],
  [(name) => !RESERVED.has(folded(name)), "That name is reserved: choose another."],
];

/** The message for a (trimmed) name, or null when it is a valid name. */
export function displayNameProblem(name: string): string | null {
  for (const [passes, message] of DISPLAY_NAME_CHECKS) if (!passes(name)) return message;
  return null;
}

/** What must be unique across accounts: the name without case, so "StarLord" and "starlord" are one name. */
export function displayNameKey(name: string): string {
  return name.toLowerCase();
}
