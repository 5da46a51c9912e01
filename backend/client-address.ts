import { timingSafeEqual } from "node:crypto";
import type { Request } from "express";
import { CLIENT_IP_HEADER, INTERNAL_TOKEN_HEADER } from "~core/internal-call";

/** True when the request carries this process's internal token: the app calling its own embedded backends. */
export function hasInternalToken(req: Request, internalToken: string | undefined): boolean {
  const sent = req.headers[INTERNAL_TOKEN_HEADER];
  if (!internalToken || typeof sent !== "string") return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(internalToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The address of the person behind a request. The app's own calls speak for a browser and name its address;
 * that claim is believed only with the internal token. Anyone else is who Express says they are.
 */
export function clientAddress(req: Request, internalToken: string | undefined): string {
  const claimed = req.headers[CLIENT_IP_HEADER];
  if (typeof claimed === "string" && claimed && hasInternalToken(req, internalToken)) return claimed;
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
