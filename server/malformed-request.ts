import type { RequestHandler } from "express";
import { plainPage } from "./plain-page";

export const MALFORMED_PATH = "This address is not valid. Check the link, or start again from the home page.";

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
 * A path that does not decode is the client's mistake: a 400 and one log line, where Express's router would
 * log a URIError's stack. Mount it first, before any router that decodes the path.
 */
export function refuseMalformedPaths({ apiPaths }: { apiPaths: string[] }): RequestHandler {
  return (req, res, next) => {
    if (!isMalformedPath(req.url)) return next();
    console.warn(`400 malformed path ${JSON.stringify(req.url.slice(0, 200))}`);
    res.status(400).set("Cache-Control", "no-store");
    const pathname = req.url.split("?", 1)[0];
    if (apiPaths.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) {
      // API callers get the backends' envelope.
      res.json({ code: 400, msg: "Malformed path", data: null, success: false });
    } else {
      res.type("html").send(plainPage("Bad address", MALFORMED_PATH));
    }
  };
}
