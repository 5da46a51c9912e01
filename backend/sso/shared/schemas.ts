import { type Hex, getAddress, isAddress } from "viem";
import { z } from "zod";
import { WALLET_LOGIN_TYPE } from "~core/bind-message";
import { displayNameProblem } from "~core/display-name";

/**
 * Zod schemas of every SSO input. Field names are product §7's, typos included (Passsword, RefferAddr).
 * Bodies may be JSON or urlencoded forms, so numbers are also accepted as digit strings.
 * parseBody (parseInput) prefixes each message with the field's name.
 */

/** product §5 words the email error differently per form; each schema keeps its own wording. */
function emailField(message: string) {
  return z.string().trim().toLowerCase().max(254, message).email(message);
}

const userNameEmail = emailField("The user name format is incorrect");
const nameEmail = emailField("Please enter a valid email");

/** The backend sees only the client's pre-hash (product §5), so the complexity rules are the client's. */
const passsword = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "must be the 64-hex-character hash of the password, not the password itself")
  .transform((hash) => hash.toLowerCase());

const code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "The verification code is 6 digits");

/** Strict: a mixed-case address must carry a valid EIP-55 checksum. Normalised to the checksummed form. */
export const addressField = z
  .string()
  .trim()
  .refine((value) => isAddress(value, { strict: true }), "is not a valid wallet address (or its checksum is wrong)")
  .transform((value) => getAddress(value));

const signature = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte personal_sign signature in hex")
  .transform((value) => value as Hex);

const issuedAt = z.string().trim().datetime({ message: "must be an ISO 8601 UTC time such as 2025-01-01T12:00:00.000Z" });

/** A number, or its digits as a form sends them. */
const integer = z.union([z.number(), z.string().trim().regex(/^\d+$/, "must be a number").transform(Number)]);

const referral = z
  .string()
  .trim()
  .max(64, "must be an invite code or a wallet address")
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const looksLikeAddress = /^0x[0-9a-fA-F]{40}$/.test(value);
    if (looksLikeAddress && isAddress(value, { strict: true })) return getAddress(value);
    if (!looksLikeAddress && /^[A-Za-z0-9_-]+$/.test(value)) return value;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be an invite code or a wallet address (with a valid checksum)" });
    return z.NEVER;
  });

export const loginInput = z.object({ UserName: userNameEmail, Passsword: passsword });

export const sendCodeInput = z.object({ Name: nameEmail });

export const registerInput = z.object({
  UserName: userNameEmail,
  Passsword: passsword,
  Code: code,
  RefferAddr: referral,
});

export const validateForgetCodeInput = z.object({ UserName: nameEmail, Code: code });

export const forgetPwdInput = z.object({ UserName: nameEmail, Passsword: passsword, Code: code });

export const userInfoValidateInput = z.object({ UserName: emailField("Invalid email address") });

export const bindWalletInput = z.object({
  BindType: integer.pipe(
    z.literal(1, { errorMap: () => ({ message: "must be 1 (browser wallet); managed wallets come from GET /sso/createAddress" }) }),
  ),
  Address: addressField,
  UserName: userNameEmail,
  Signature: signature,
  IssuedAt: issuedAt,
});

const walletProof = z.object({ message: z.string().max(2000, "is too long"), signature });

export const loginOtherInput = z.object({
  LoginType: z.literal(WALLET_LOGIN_TYPE, {
    errorMap: () => ({ message: `must be "${WALLET_LOGIN_TYPE}", the only third-party sign-in offered` }),
  }),
  accessToken: z
    .string()
    .max(4000, "is too long")
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be the JSON wallet proof {message, signature}" });
        return z.NEVER;
      }
    })
    .pipe(walletProof),
});

export const walletParam = z.object({ walletAddress: addressField });

/** A display name to set, trimmed; "" (or null) clears it. */
export const displayNameInput = z.object({
  DisplayName: z
    .string()
    .max(200, "is too long")
    .trim()
    .nullable()
    .transform((name, ctx) => {
      if (!name) return null;
      const problem = displayNameProblem(name);
      if (!problem) return name;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      return z.NEVER;
    }),
});

const checkoutSessionId = z
  .string()
  .trim()
  .regex(/^cs_[A-Za-z0-9_]{1,250}$/, "must be a checkout session id (cs_...)");

export const createOrderInput = z.object({
  typeBox: z.number().int().min(0).max(1_000_000),
  quantity: z.number().int().min(1).max(1_000),
  sessionId: checkoutSessionId.optional(),
});

export const testCheckoutInput = z.object({
  sessionId: checkoutSessionId,
  cardNumber: z.string().max(40),
  expiry: z.string().max(20),
  cvc: z.string().max(10),
});

/** The provider's event as it came, byte for byte, since its signature covers those bytes. */
export const paymentEventInput = z.object({
  payload: z.string().min(2).max(100_000),
  signature: z.string().min(1).max(2_000),
});

export const orderDetailInput = z.object({ sessionId: checkoutSessionId });
