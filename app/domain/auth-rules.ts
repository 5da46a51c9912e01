import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~core/constants";
import { rule, type FormRules } from "./form-rules";

/** product §5 messages, word for word. */
export const AUTH_MESSAGES = {
  userNameFormat: "The user name format is incorrect",
  validEmail: "Please enter a valid email",
  passwordLength: "The password contains 6 to 18 characters",
  passwordComplexity:
    "The password contains 6 to 18 characters, including at least letters, digits, and symbols, and does not contain Spaces",
  invalidEmail: "Invalid email address",
  userInfoValidateKey: "userInfoValidate: error key",
  code: "Enter the 6-digit code from your email",
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string) {
  return EMAIL_PATTERN.test(value) && value.length <= 254;
}

/** Chinese characters, which product §5 refuses in new passwords. */
const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

/** product §5: 6–18 characters, at least two of letters, digits and symbols, no spaces, no Chinese characters. */
export function isComplexPassword(password: string) {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return false;
  if (/\s/u.test(password) || CHINESE.test(password)) return false;
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d\s]/].filter((kind) => kind.test(password)).length;
  return kinds >= 2;
}

const email = (message: string) => rule([[isEmail, message]]);
/** A password is never trimmed: a space in it is the person's choice (and refused in a new one). */
const loginPassword = rule(
  [[(password) => password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordLength]],
  { trim: false, constraint: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH } },
);
const newPassword = rule([[isComplexPassword, AUTH_MESSAGES.passwordComplexity]], {
  trim: false,
  constraint: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH },
});
const code = rule([[(text) => /^\d{6}$/.test(text), AUTH_MESSAGES.code]], { constraint: { pattern: "\\s*\\d{6}\\s*" } });

export const LOGIN_RULES = { email: email(AUTH_MESSAGES.userNameFormat), password: loginPassword } satisfies FormRules;

/**
 * Register has two buttons: "send code" checks only the email, "register" checks everything. The code is sent only
 * after userInfoValidate accepts the email, so its message is the one a bad email gets there.
 */
export const SEND_CODE_RULES = { email: email(AUTH_MESSAGES.invalidEmail) } satisfies FormRules;

/** The SSO's words for an email that already has an account (docs/api/sso.md). */
export const EMAIL_TAKEN = "This email is already registered";
export const REGISTER_RULES = { email: email(AUTH_MESSAGES.userNameFormat), code, password: newPassword } satisfies FormRules;

/** Resetting a password takes three posts, each checking the field it asks for (and the ones before, carried along). */
export const FORGOT_RULES = {
  send: { email: email(AUTH_MESSAGES.validEmail) },
  verify: { email: email(AUTH_MESSAGES.validEmail), code },
  reset: { email: email(AUTH_MESSAGES.validEmail), code, password: newPassword },
} satisfies Record<string, FormRules>;

/**
 * product §5 userInfoValidate: only the key "email" may be checked; its value must be an email.
 * Returns the normalised email, or throws the product spec's message.
 */
export function userInfoValidate(key: string, value: string): string {
  if (key !== "email") throw new Error(AUTH_MESSAGES.userInfoValidateKey);
  const normalised = value.trim().toLowerCase();
  if (!isEmail(normalised)) throw new Error(AUTH_MESSAGES.invalidEmail);
  return normalised;
}
