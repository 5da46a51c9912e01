/**
 * Accounts (docs/api/sso.md "Accounts"): users and their display names, passwords, sessions and the session auth every
 * feature's routes use, and the sign-in guard. What other SSO features and core.ts use goes through this file; the
 * feature's routes (account-routes.ts) are mounted by service.ts only.
 */
export { createUsers, publicUserInfo, userInfo, type Users } from "./users";
export { createSessions, type LiveSession, type Sessions } from "./sessions";
export { createLoginGuard, type LoginGuard } from "./login-guard";
export { hashPassword } from "./passwords";
export { INVALID_SESSION, requireSession, signIn } from "./session-auth";
