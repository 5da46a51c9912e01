import { timingSafeEqual } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
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

/**
 * What one client is counted as by the rate limits, the sign-in budgets and the view counts: an IPv4 address
 * itself, an IPv6 address by its /64 network. One IPv6 subscriber or host is given a whole /64, so keying by the
 * full address would give one attacker 2^64 fresh budgets. An IPv4 address written as IPv6 (::ffff:a.b.c.d) is
 * that IPv4 address. Anything else (a test's "unknown") is kept as it is.
 */
export function networkKey(address: string): string {
  const bare = address.split("%", 1)[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(bare)) return address;
  return `${ipv6Groups(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing dotted IPv4 is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** The client's rate-limit key (networkKey of clientAddress). */
export function clientKey(req: Request, internalToken: string | undefined): string {
  return networkKey(clientAddress(req, internalToken));
}
