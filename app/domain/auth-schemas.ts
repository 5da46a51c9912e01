import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~core/constants";

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

const email = (message: string) => z.string({ required_error: message }).trim().toLowerCase().refine(isEmail, message);

const loginPassword = z
  .string({ required_error: AUTH_MESSAGES.passwordLength })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordLength)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordLength);

const newPassword = z
  .string({ required_error: AUTH_MESSAGES.passwordComplexity })
  .refine(isComplexPassword, AUTH_MESSAGES.passwordComplexity);

const code = z
  .string({ required_error: AUTH_MESSAGES.code })
  .trim()
  .regex(/^\d{6}$/, AUTH_MESSAGES.code);

const redirectTo = z.string().max(2000).optional();

export const LoginSchema = z.object({
  email: email(AUTH_MESSAGES.userNameFormat),
  password: loginPassword,
  redirectTo,
});

/** Register has two buttons: "send code" checks only the email, "register" checks everything. */
export const RegisterSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send-code"),
    email: email(AUTH_MESSAGES.validEmail),
    referral: z.string().trim().max(64).optional(),
    redirectTo,
  }),
  z.object({
    intent: z.literal("register"),
    email: email(AUTH_MESSAGES.userNameFormat),
    code,
    password: newPassword,
    referral: z.string().trim().max(64, "The referral code is too long").optional(),
    redirectTo,
  }),
]);

export const ForgotPasswordSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("send"), email: email(AUTH_MESSAGES.validEmail) }),
  z.object({ step: z.literal("verify"), email: email(AUTH_MESSAGES.validEmail), code }),
  z.object({ step: z.literal("reset"), email: email(AUTH_MESSAGES.validEmail), code, password: newPassword }),
]);

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
