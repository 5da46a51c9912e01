import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { SESSION_MAX_AGE_SECONDS, TOAST_DURATION_MS } from "~/domain/constants";
import { getEnv } from "./env.server";

export interface UserInfo {
  UserName: string;
  Email: string;
  UserWithThirdName: string;
  LoginType: string | number;
  UserWithThird: string;
  /** 0 none, 1 browser wallet, 2 managed wallet (web path). */
  BindAddrType: number;
  WalletAddress: string;
}

export type ToastKind = "success" | "error" | "info";
export interface Toast {
  kind: ToastKind;
  title?: string;
  message: string;
  durationMs: number;
}

/** Dialogs of SPEC §8 that the server can show from a flash, so they work without JavaScript. */
export type Dialog = { kind: "session-expired"; redirectTo: string } | { kind: "bind-wallet" } | { kind: "failed"; message: string };

interface SessionData {
  token: string;
  user: UserInfo;
  /** Invite code given at registration; accepted once the account has a wallet (rebates are per wallet). */
  pendingReferral: string;
}
interface FlashData {
  toast: Toast;
  dialog: Dialog;
}

let storage: ReturnType<typeof createStorage> | undefined;
function createStorage() {
  const env = getEnv();
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.publicUrl.startsWith("https:"),
      secrets: env.sessionSecrets,
      maxAge: SESSION_MAX_AGE_SECONDS,
    },
  });
}
export function sessionStorage() {
  storage ??= createStorage();
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: Awaited<ReturnType<typeof getSession>>) {
  return sessionStorage().commitSession(session);
}

/** Reads and consumes the one-shot toast and dialog; the caller must commit the session it returns. */
export async function readFlash(request: Request) {
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  const dialog = session.get("dialog") ?? null;
  return { session, toast, dialog, consumed: Boolean(toast || dialog) };
}

export function makeToast(kind: ToastKind, message: string, title?: string): Toast {
  return { kind, message, title, durationMs: TOAST_DURATION_MS };
}

/** Redirects and shows a toast on the next page. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init: ResponseInit = {}) {
  const session = await getSession(request);
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { ...init, headers });
}
