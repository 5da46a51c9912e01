import type { Request } from "express";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { ApiError } from "../../http";
import type { LiveSession, Sessions } from "./sessions";
import type { LoginType, SignIn } from "~core/api/sso";
import { userInfo } from "./users";
import type { UserRow } from "../shared/tables";

/** product §8's wording; the app shows its expired-session prompt on any 401. */
export const INVALID_SESSION = "Invalid session, or session has expired, please log in again.";

/** What session auth needs of the SSO core: its sessions only, so this file sits below core.ts (no import ring). */
type SessionSource = { sessions: Sessions };

/** The live session of the request's authToken header, or a 401. */
export async function requireSession(core: SessionSource, req: Request): Promise<LiveSession> {
  const token = req.get(AUTH_TOKEN_HEADER);
  const live = token ? await core.sessions.find(token) : null;
  if (!live) throw new ApiError(401, INVALID_SESSION);
  return live;
}

export async function signIn(core: SessionSource, user: UserRow, loginType: LoginType, identity?: string): Promise<SignIn> {
  const { token, expiresAt, session } = await core.sessions.issue(user.id, loginType, identity);
  return { token, expiresAt, userInfo: userInfo(user, session) };
}
