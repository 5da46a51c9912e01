/**
 * Lite mode (issue 17): pages rendered with no script and no modulepreload, for players who pay for every byte or
 * block scripts. A cookie set by the menu's switch turns it on or off; without one, a browser that sends
 * `Save-Data: on` gets it on. The cookie says only "on" or "off", so it needs no signature.
 */
import { createCookie } from "@remix-run/node";
import { NO_JS_COOKIE, NO_JS_VALUE } from "~/domain/no-js";
import { getEnv } from "./env.server";

/** Why a page renders lite: the menu's switch, Save-Data, or a browser that showed it runs no script ("no-js"). */
export type LiteSource = "switch" | "save-data" | "no-js";

let cookie: ReturnType<typeof createCookie> | undefined;
export function liteCookie() {
  cookie ??= createCookie("lite", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: getEnv().publicUrl.startsWith("https:"),
    maxAge: 365 * 24 * 60 * 60,
  });
  return cookie;
}

/** Whether the page renders lite, and why; null when it does not. */
export async function liteMode(request: Request): Promise<LiteSource | null> {
  const chosen: unknown = await liteCookie().parse(request.headers.get("Cookie"));
  if (chosen === "on") return "switch";
  if (chosen === "off") return null;
  if (request.headers.get("Save-Data")?.trim().toLowerCase() === "on") return "save-data";
  return hasNoJsCookie(request.headers.get("Cookie")) ? "no-js" : null;
}

function hasNoJsCookie(header: string | null): boolean {
  return (header ?? "").split(";").some((pair) => pair.trim() === `${NO_JS_COOKIE}=${NO_JS_VALUE}`);
}

/**
 * The no-JS cookie (issue 23): readable by scripts, so a page can delete it once scripts run again. Not the lite
 * cookie: that one is the visitor's choice, and its "off" still wins over this.
 */
export function noJsCookie(): string {
  const secure = getEnv().publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${NO_JS_COOKIE}=${NO_JS_VALUE}; Path=/; Max-Age=${365 * 24 * 60 * 60}; SameSite=Lax${secure}`;
}
