import type { ErrorRequestHandler, RequestHandler } from "express";
import { plainPage } from "./plain-page";
import { apiPrefixOf } from "./api-paths";

export const MALFORMED_PATH = "This address is not valid. Check the link, or start again from the home page.";
export const MALFORMED_HOST = "This request named no valid host, so it could not be served.";

/** Express and Remix decode the path with decodeURIComponent, which throws a URIError on a bad escape (`%ff`). */
export function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?", 1)[0]);
    return false;
  } catch {
    return true;
  }
}

/**
 * Remix builds each request's URL from the Host header: one that is no host (`[`, `a b`, `x@y`, port 99999)
 * makes `new URL` throw. An absent Host is left to Express, which serves it.
 */
export function isMalformedHost(host: string | undefined): boolean {
  if (host === undefined || host === "") return false;
  try {
    const url = new URL(`http://${host}`);
    return url.username !== "" || url.password !== "" || url.host !== host.toLowerCase().replace(/:80$/, "");
  } catch {
    return true;
  }
}

/**
 * A path that does not decode, or a Host that is no host, is the client's mistake: a 400 and one log line,
 * where Express's router or Remix would log a stack and answer 500. Mount it first.
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
    const badPath = isMalformedPath(req.url);
    if (!badPath && !isMalformedHost(req.headers.host)) return next();
    const what = badPath
      ? `path ${JSON.stringify(req.url.slice(0, 200))}`
      : `host ${JSON.stringify(String(req.headers.host).slice(0, 200))}`;
    warn(`400 malformed ${what}`);
    res.status(400).set("Cache-Control", "no-store");
    const pathname = req.url.split("?", 1)[0];
    if (apiPrefixOf(pathname, apiPaths)) {
      // API callers get the backends' envelope.
      res.json({ code: 400, msg: badPath ? "Malformed path" : "Malformed host", data: null, success: false });
    } else {
      res.type("html").send(plainPage(badPath ? "Bad address" : "Bad request", badPath ? MALFORMED_PATH : MALFORMED_HOST));
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
