import { expect } from "vitest";
import { prehashPassword } from "~core/password-hash";
import type { startTestBackends } from "./harness";

/** Shared by the sso*.test.ts files. */
export type Backend = Omit<Awaited<ReturnType<typeof startTestBackends>>, "indexer">;

export interface SignIn {
  token: string;
  expiresAt: string;
  userInfo: {
    UserName: string;
    Email: string;
    UserWithThirdName: string;
    LoginType: string;
    UserWithThird: string;
    BindAddrType: number;
    WalletAddress: string;
  };
}

export const INVALID_SESSION = "Invalid session, or session has expired, please log in again.";

export function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

/** The code in the newest mail to this address, from the dev outbox. */
export async function latestCode(t: Backend, email: string): Promise<string> {
  const { data } = await t.call<{ body: string }[]>("GET", `/dev/outbox.json?to=${encodeURIComponent(email)}`);
  const match = /Your Spark Era verification code is (\d{6})/.exec(data[0]?.body ?? "");
  if (!match) throw new Error(`No code mailed to ${email}`);
  return match[1];
}

export async function login(t: Backend, email: string, password: string): Promise<SignIn> {
  const answer = await t.call<SignIn>("POST", "/basic/login", { UserName: email, Passsword: prehashPassword(password) });
  expect(answer.status, answer.msg).toBe(200);
  return answer.data;
}

/** Registers a fresh account through sendCode + userInfo. */
export async function register(t: Backend, email: string, password = "Fresh-pass-1", referrer?: string): Promise<SignIn> {
  const sent = await t.call("POST", "/basic/sendCode", { Name: email });
  expect(sent.status, sent.msg).toBe(200);
  const answer = await t.call<SignIn>("POST", "/basic/userInfo", {
    UserName: email,
    Passsword: prehashPassword(password),
    Code: await latestCode(t, email),
    RefferAddr: referrer,
  });
  expect(answer.status, answer.msg).toBe(200);
  return answer.data;
}

/** A code that is surely not the one mailed. */
export function otherCode(code: string): string {
  return code === "000000" ? "111111" : "000000";
}
