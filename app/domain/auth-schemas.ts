/**
 * The auth forms' Zod schemas for the actions (parseWithZod), built from the rules the browser checks too
 * (auth-rules.ts). Imported by server modules only, so no page carries Zod.
 */
import { z } from "zod";
import { FORGOT_RULES, LOGIN_RULES, REGISTER_RULES, SEND_CODE_RULES } from "./auth-rules";
import type { FieldRule } from "./form-rules";
import { ruledText } from "./rule-schemas";

const redirectTo = z.string().max(2000).optional();
const email = (fieldRule: FieldRule) => ruledText(fieldRule).transform((text) => text.toLowerCase());

export const LoginSchema = z.object({
  email: email(LOGIN_RULES.email),
  password: ruledText(LOGIN_RULES.password),
  redirectTo,
});

export const RegisterSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send-code"),
    email: email(SEND_CODE_RULES.email),
    referral: z.string().trim().max(64).optional(),
    redirectTo,
  }),
  z.object({
    intent: z.literal("register"),
    email: email(REGISTER_RULES.email),
    code: ruledText(REGISTER_RULES.code),
    password: ruledText(REGISTER_RULES.password),
    referral: z.string().trim().max(64, "The referral code is too long").optional(),
    redirectTo,
  }),
]);

export const ForgotPasswordSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("send"), email: email(FORGOT_RULES.send.email) }),
  z.object({ step: z.literal("verify"), email: email(FORGOT_RULES.verify.email), code: ruledText(FORGOT_RULES.verify.code) }),
  z.object({
    step: z.literal("reset"),
    email: email(FORGOT_RULES.reset.email),
    code: ruledText(FORGOT_RULES.reset.code),
    password: ruledText(FORGOT_RULES.reset.password),
  }),
]);
