/** Email verification codes (docs/api/sso.md "Codes"): issued, mailed and checked for sign-up and password reset. */
export { CODE_TTL_MS, RESEND_COOLDOWN_MS, createCodes, type Codes } from "./codes";
