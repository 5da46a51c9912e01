import type { ErrorRequestHandler, RequestHandler } from "express";
import { plainPage } from "./plain-page";
import { apiPrefixOf } from "./api-paths";

export const MALFORMED_PATH = "This address is not valid. Check the link, or start again from the home page.";
export const MALFORMED_HOST = "This request named no valid host, so it could not be served.";
export const OVERLONG_PATH = "This address is too long to be one of ours. Check the link, or start again from the home page.";

/**
 * Bounds on a path, far above any of ours (the longest is under 100 bytes and 5 segments). Remix's route discovery
 * matches the routes once for every ancestor of a path, so its cost grows with the square of the segments: 7,000
 * of them held the event loop for 5 s. A path past either bound never reaches Remix.
 */
export const MAX_PATH_BYTES = 2048;
export const MAX_PATH_SEGMENTS = 64;
/** Remix's route discovery endpoint: each `p` in its query is a path it matches the same way. */
const MANIFEST_PATH = "/__manifest";

/** DNS limits (RFC 1035): a name of at most 253 characters, in labels of at most 63. */
const MAX_HOST_NAME = 253;
const MAX_HOST_LABEL = 63;

/** Express and Remix decode the path with decodeURIComponent, which throws a URIError on a bad escape (`%ff`). */
export function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?", 1)[0]);
    return false;
  } catch {
    return true;
  }
}

function isOverlong(path: string): boolean {
  if (path.length > MAX_PATH_BYTES) return true;
  let segments = 0;
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) if (++segments > MAX_PATH_SEGMENTS) return true;
  return false;
}

/** A path, or a path that Remix's route discovery is asked to match, past the bounds above. */
export function isOverlongPath(url: string): boolean {
  const [pathname, query = ""] = url.split("?", 2);
  if (isOverlong(pathname)) return true;
  if (pathname !== MANIFEST_PATH) return false;
  return new URLSearchParams(query).getAll("p").some(isOverlong);
}

/**
 * Remix builds each request's URL from the Host header: one that is no host (`[`, `a b`, `x@y`, port 99999)
 * makes `new URL` throw, and a name past the DNS limits names nothing. An absent Host is left to Express, which
 * serves it.
 */
export function isMalformedHost(host: string | undefined): boolean {
  if (host === undefined || host === "") return false;
  try {
    const url = new URL(`http://${host}`);
    if (url.username !== "" || url.password !== "" || url.host !== host.toLowerCase().replace(/:80$/, "")) return true;
    // An IPv6 literal is bracketed and has no labels.
    if (url.hostname.startsWith("[")) return false;
    const name = url.hostname.replace(/\.$/, "");
    return name.length > MAX_HOST_NAME || name.split(".").some((label) => label.length > MAX_HOST_LABEL);
  } catch {
    return true;
  }
}

interface Refusal {
  status: 400 | 414;
  /** The log line's words, after the status. */
  what: string;
  /** The API envelope's message. */
  apiMessage: string;
  title: string;
  message: string;
}

/**
 * X-Forwarded-Host, each of its entries checked like a Host: Express reads it for the host behind TRUST_PROXY, and
 * Remix reads a port from it whatever the setting (`a:99999` made its URL throw, a 500).
 */
function isMalformedForwardedHost(value: string | undefined): boolean {
  return value !== undefined && value.split(",").some((entry) => entry.trim() === "" || isMalformedHost(entry.trim()));
}

function refusalOf(url: string, host: string | undefined, forwardedHost: string | undefined): Refusal | null {
  const shown = JSON.stringify(url.slice(0, 200));
  // First: the other checks read the path, and an overlong one costs them in proportion.
  if (isOverlongPath(url))
    return {
      status: 414,
      what: `path of ${url.length} bytes ${shown}`,
      apiMessage: "Path too long",
      title: "Address too long",
      message: OVERLONG_PATH,
    };
  if (isMalformedPath(url))
    return { status: 400, what: `malformed path ${shown}`, apiMessage: "Malformed path", title: "Bad address", message: MALFORMED_PATH };
  const badHost = isMalformedHost(host) ? host : isMalformedForwardedHost(forwardedHost) ? forwardedHost : undefined;
  if (badHost !== undefined)
    return {
      status: 400,
      what: `malformed host ${JSON.stringify(badHost.slice(0, 200))}`,
      apiMessage: "Malformed host",
      title: "Bad request",
      message: MALFORMED_HOST,
    };
  return null;
}

/**
 * A path too long to be ours, a path that does not decode, or a Host that is no host is the client's mistake: a 414
 * or 400 and one log line, where Express's router or Remix would log a stack and answer 500, or stall the process.
 * Mount it first.
 */
export function refuseMalformedRequests({
  apiPaths,
  warn = (message) => console.warn(message),
}: {
  apiPaths: string[];
  /** Runs before the request logger: the server passes its JSON logger. */
  warn?: (message: string) => void;
}): RequestHandler {
  return (req, res, next) => {
    const refusal = refusalOf(req.url, req.headers.host, req.get("x-forwarded-host"));
    if (!refusal) return next();
    warn(`${refusal.status} ${refusal.what}`);
    res.status(refusal.status).set("Cache-Control", "no-store");
    if (apiPrefixOf(req.url.split("?", 1)[0], apiPaths)) {
      // API callers get the backends' envelope.
      res.json({ code: refusal.status, msg: refusal.apiMessage, data: null, success: false });
    } else {
      res.type("html").send(plainPage(refusal.title, refusal.message));
    }
  };
}

/**
 * The last error handler: a client error some middleware handed on (a Range past the end of a static file
 * gives 416) is answered with its status and one log line, where Express's final handler prints a stack.
 */
export const clientErrorsInOneLine: ErrorRequestHandler = (
  error: { status?: number; statusCode?: number; message?: string },
  req,
  res,
  next,
) => {
  const status = error.status ?? error.statusCode ?? 500;
  if (res.headersSent || status < 400 || status >= 500) return next(error);
  const line = `${status} ${req.method} ${JSON.stringify(req.originalUrl.slice(0, 200))}: ${error.message}`;
  if (req.log) req.log.warn(line);
  else console.warn(line);
  res.status(status).set("Cache-Control", "no-store").end();
};
