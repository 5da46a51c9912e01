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

/** Our forms send a few hundred bytes; the payment webhook's events a few kilobytes. */
export const MAX_BODY_BYTES = 100 * 1024;
export const TOO_LARGE = "This request is larger than any of our forms sends, so nothing was done.";
export const LENGTH_REQUIRED = "This request did not say how large it is, so nothing was done.";

/**
 * Every action reads its body with request.formData(), which throws (a 500) on JSON, text, no body at all, and
 * on multipart whose body does not parse. So an action request must carry the one body our forms send, and
 * anything else gets a 415 before Remix runs. Mount it after the API paths: the backends take JSON. `jsonPaths` are
 * the resource routes that read a JSON body themselves (the payment webhook, which checks its signature).
 * The body must also say its length (browsers and the payment provider do), at most MAX_BODY_BYTES: an action
 * buffers its body whole, and this one process also runs the backends and the on-chain executor.
 */
export function formBodiesOnly({ jsonPaths = [] }: { jsonPaths?: readonly string[] } = {}): RequestHandler {
  /** Why an action request is refused before Remix runs, or null to let it through. */
  function refusal(req: Parameters<RequestHandler>[0]): [status: number, message: string] | null {
    const type = mediaType(req.headers["content-type"]);
    if (type !== FORM_TYPE && !(jsonPaths.includes(req.path) && type === "application/json")) return [415, NOT_A_FORM];
    const length = Number(req.headers["content-length"] ?? NaN);
    if (!Number.isSafeInteger(length)) return [411, LENGTH_REQUIRED];
    return length > MAX_BODY_BYTES ? [413, TOO_LARGE] : null;
  }
  return (req, res, next) => {
    const refused = ACTION_METHODS.has(req.method) ? refusal(req) : null;
    if (!refused) return next();
    const [status, message] = refused;
    // Not read: the connection closes after the answer instead of taking the body in.
    res.status(status).set({ "Cache-Control": "no-store", Connection: "close" });
    if (isDataRequest(req.originalUrl)) res.json({ error: message });
    else res.type("html").send(plainPage(status === 415 ? "Not a form" : "Not accepted", message));
  };
}
