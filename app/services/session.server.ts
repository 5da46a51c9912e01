import { createCookie, createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { BIND_ADDR_TYPE, type UserInfo } from "~core/api/sso";
import { SESSION_MAX_AGE_SECONDS, TOAST_DURATION_MS } from "~core/constants";
import { getEnv } from "./env.server";

/**
 * The signed-in user as every page gets it (root loader data). `managedWallet` is worked out here, so the
 * header in every page's bundle needs no BindAddrType codes.
 */
export function pageUser(user: UserInfo) {
  return {
    userName: user.UserName,
    email: user.Email || user.UserName,
    walletAddress: user.WalletAddress,
    bindAddrType: user.BindAddrType,
    managedWallet: user.BindAddrType === BIND_ADDR_TYPE.managed,
  };
}

export type ToastKind = "success" | "error" | "info";
export interface Toast {
  kind: ToastKind;
  title?: string;
  message: string;
  durationMs: number;
}

/** Dialogs of product §8 that the server can show from a flash, so they work without JavaScript. */
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
  const cookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.publicUrl.startsWith("https:"),
    secrets: env.sessionSecrets,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  return { cookie, ...createCookieSessionStorage<SessionData, FlashData>({ cookie }) };
}
export function sessionStorage() {
  storage ??= createStorage();
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

type AppSession = Session<SessionData, FlashData>;

/** Browsers drop a bigger cookie, and Remix throws (a 500) rather than write one. */
export const MAX_COOKIE_BYTES = 4096;
/** The longest way back the session keeps for a dialog; any page of ours fits, a padded URL does not. */
export const MAX_KEPT_URL_LENGTH = 1024;

/** A URL kept in the cookie: as it is when short, else without its query, else the home page. */
export function keptUrl(url: string): string {
  if (url.length <= MAX_KEPT_URL_LENGTH) return url;
  const path = url.split(/[?#]/, 1)[0];
  return path.length <= MAX_KEPT_URL_LENGTH ? path : "/home";
}

/**
 * The Set-Cookie header for the session, never over the browser limit: a kept URL is shortened, and should
 * the cookie still be too big, the one-shot notices go rather than the sign-in (or the whole request).
 */
export async function commitSession(session: AppSession) {
  const { cookie, commitSession: commit } = sessionStorage();
  const dialog = session.data.__flash_dialog__;
  if (dialog?.kind === "session-expired" && keptUrl(dialog.redirectTo) !== dialog.redirectTo) {
    session.flash("dialog", { ...dialog, redirectTo: keptUrl(dialog.redirectTo) });
  }
  const header = await cookie.serialize(session.data);
  if (header.length <= MAX_COOKIE_BYTES) return header;
  // Reading a flash consumes it.
  session.get("dialog");
  session.get("toast");
  return commit(session);
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
