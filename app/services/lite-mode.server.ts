/**
 * Lite mode (issue 17): pages rendered with no script and no modulepreload, for players who pay for every byte or
 * block scripts. A cookie set by the menu's switch turns it on or off; without one, a browser that sends
 * `Save-Data: on` gets it on. The cookie says only "on" or "off", so it needs no signature.
 */
import { createCookie } from "@remix-run/node";
import { getEnv } from "./env.server";

export type LiteSource = "switch" | "save-data";

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
  return request.headers.get("Save-Data")?.trim().toLowerCase() === "on" ? "save-data" : null;
}
