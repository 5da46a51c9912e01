import type { RequestHandler } from "express";
import { plainPage } from "./plain-page";

export const NOT_A_FORM = "This request did not come from one of our forms, so nothing was done.";

/** What our forms post: Remix's <Form> and fetcher.submit default to it, and no page has a file input. */
const FORM_TYPE = "application/x-www-form-urlencoded";
/** The methods Remix hands to an action. */
const ACTION_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A Content-Type header's media type, without its parameters (`; charset=UTF-8`). */
export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";", 1)[0].trim().toLowerCase();
}

/** Remix's data requests (single fetch's `.data`, the older `?_data=`) expect data back, not a page. */
export function isDataRequest(url: string): boolean {
  const [pathname, search = ""] = url.split("?", 2);
  return pathname.endsWith(".data") || new URLSearchParams(search).has("_data");
}

/**
 * Every action reads its body with request.formData(), which throws (a 500) on JSON, text, no body at all, and
 * on multipart whose body does not parse. So an action request must carry the one body our forms send, and
 * anything else gets a 415 before Remix runs. Mount it after the API paths: the backends take JSON. `jsonPaths` are
 * the resource routes that read a JSON body themselves (the payment webhook, which checks its signature).
 */
export function formBodiesOnly({ jsonPaths = [] }: { jsonPaths?: readonly string[] } = {}): RequestHandler {
  return (req, res, next) => {
    if (!ACTION_METHODS.has(req.method) || mediaType(req.headers["content-type"]) === FORM_TYPE) return next();
    if (jsonPaths.includes(req.path) && mediaType(req.headers["content-type"]) === "application/json") return next();
    res.status(415).set("Cache-Control", "no-store");
    if (isDataRequest(req.originalUrl)) res.json({ error: NOT_A_FORM });
    else res.type("html").send(plainPage("Not a form", NOT_A_FORM));
  };
}
