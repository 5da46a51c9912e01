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

function readBody(req: Parameters<RequestHandler>[0]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("aborted", () => reject(new Error("aborted")));
  });
}

/** Our forms send a few hundred bytes; the payment webhook's events a few kilobytes. */
export const MAX_BODY_BYTES = 100 * 1024;
export const TOO_LARGE = "This request is larger than any of our forms sends, so nothing was done.";
export const LENGTH_REQUIRED = "This request did not say how large it is, so nothing was done.";
export const NOT_OUR_FIELDS = "This form's fields are not the ones our forms send, so nothing was done.";

/**
 * Bounds on a form's fields, far above our forms' own (a dozen flat names at most). Conform builds nested objects and
 * lists from the names, so a name 20,000 levels deep (`a[0][0]…`) overflowed the stack, and `a[2999000]` in a
 * hundred names made lists of millions of slots (3 s of CPU for one post).
 */
export const MAX_FORM_FIELDS = 256;
const MAX_FIELD_NAME = 200;
const MAX_NAME_DEPTH = 8;

/** Whether a urlencoded form keeps to the bounds above. */
export function isWithinFormBounds(body: string): boolean {
  let fields = 0;
  for (const name of new URLSearchParams(body).keys()) {
    if (++fields > MAX_FORM_FIELDS || name.length > MAX_FIELD_NAME) return false;
    if ((name.match(/[.[]/g)?.length ?? 0) > MAX_NAME_DEPTH) return false;
    // A list index of four digits or more (our lists have none).
    if (/\[\d{4,}\]/.test(name)) return false;
  }
  return true;
}

/**
 * Every action reads its body with request.formData(), which throws (a 500) on JSON, text, no body at all, and
 * on multipart whose body does not parse. So an action request must carry the one body our forms send, and
 * anything else gets a 415 before Remix runs. Mount it after the API paths: the backends take JSON. `jsonPaths` are
 * the resource routes that read a JSON body themselves (the payment webhook, which checks its signature).
 * The body must also say its length (browsers and the payment provider do), at most MAX_BODY_BYTES: an action
 * buffers its body whole, and this one process also runs the backends and the on-chain executor.
 * A form is read here, checked against the field bounds above, and kept as `req.body` (a Buffer, as express.raw
 * leaves it) for the Remix handler, which reads nothing twice.
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
  function refuse(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], [status, message]: [number, string]) {
    res.status(status).set({ "Cache-Control": "no-store", Connection: "close" });
    if (isDataRequest(req.originalUrl)) res.json({ error: message });
    else res.type("html").send(plainPage(status === 415 ? "Not a form" : "Not accepted", message));
  }
  return (req, res, next) => {
    if (!ACTION_METHODS.has(req.method)) return next();
    const refused = refusal(req);
    // Not read: the connection closes after the answer instead of taking the body in.
    if (refused) return refuse(req, res, refused);
    if (mediaType(req.headers["content-type"]) !== FORM_TYPE) return next();
    readBody(req).then(
      (body) => {
        if (!isWithinFormBounds(body.toString("utf8"))) return refuse(req, res, [400, NOT_OUR_FIELDS]);
        req.body = body;
        next();
      },
      // The client went away mid-body: nobody is left to answer.
      () => res.destroy(),
    );
  };
}
