/** A signed-in session for the loader tests: the demo user's info and the Cookie header that carries it. */
import type { UserInfo } from "~core/api/sso";
import { commitSession, sessionStorage } from "~/services/session.server";

export const DEMO_USER: UserInfo = {
  UserName: "demo@sparkera.test",
  Email: "demo@sparkera.test",
  UserWithThirdName: "",
  LoginType: "email",
  UserWithThird: "",
  BindAddrType: 2,
  WalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
};

/** The Cookie header of a session holding `token` and `user` (a token alone is what the root loader completes). */
export async function sessionCookie(token: string | null, user: UserInfo | null = DEMO_USER): Promise<string> {
  const session = await sessionStorage().getSession();
  if (token) session.set("token", token);
  if (token && user) session.set("user", user);
  return (await commitSession(session)).split(";", 1)[0];
}
