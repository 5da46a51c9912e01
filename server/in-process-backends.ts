/**
 * The app's calls to its embedded backends, answered in this process (decision 0036): each call runs through the
 * backends' own Express router, as a loopback request would after the server's front middleware let it through
 * (isInternalApiCall), with the same headers: the internal token, the browser's address, the request id, the body
 * read and checked by the same parsers. What it saves is the connection, the HTTP parsing and writing on both sides,
 * and the access-log middleware a loopback request went through.
 */
import http from "node:http";
import express, { type RequestHandler } from "express";
import type { Logger } from "pino";
import type { InProcessDispatch } from "../app/services/embedded-backends.server";
import { currentRequestScope, REQUEST_ID_HEADER } from "../app/services/request-scope.server";
import { apiPrefixOf } from "./api-paths";
import { refuseMalformedRequests } from "./malformed-request";

/** The peer a loopback request came from: the backends' req.ip for the app's own calls, as over HTTP. */
const LOOPBACK = "127.0.0.1";

/** A request as the node HTTP server would make it: headers in lower case, the body a stream the parsers read. */
function incoming(method: string, path: string, headers: Record<string, string>, body: string | undefined) {
  // No real connection: what Express and the backends read of one (the peer's address; not TLS).
  const socket = { remoteAddress: LOOPBACK, remotePort: 0, encrypted: false, readableHighWaterMark: 16384, destroy() {} };
  const req = new http.IncomingMessage(socket as never);
  req.method = method;
  req.url = path;
  req.httpVersion = "1.1";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  for (const [name, value] of Object.entries(headers)) req.headers[name.toLowerCase()] = value;
  req.headers.host ??= LOOPBACK;
  if (body !== undefined) req.push(body);
  req.push(null);
  // The whole message is there: once read, the stream ends as a finished request does, not as an aborted one.
  req.complete = true;
  return req;
}

/** A response that keeps what is written: its status and body text, when it ends. */
function outgoing(req: http.IncomingMessage, done: (answer: { status: number; text: string }) => void) {
  const res = new http.ServerResponse(req);
  const chunks: Buffer[] = [];
  let ended = false;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"),
    );
  };
  Object.defineProperty(res, "headersSent", { get: () => ended });
  res.write = ((chunk: unknown, encoding?: unknown) => {
    keep(chunk, encoding);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (ended) return res;
    keep(chunk, encoding);
    ended = true;
    done({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") });
    res.emit("finish");
    res.emit("close");
    return res;
  }) as typeof res.end;
  return res;
}

/**
 * The dispatcher for services/embedded-backends.server.ts: `router` is the backends' (startBackends), `apiPaths`
 * their prefixes. A path outside them, or one no route takes, answers the server's 404 envelope; an error no
 * handler caught, its status without an envelope, as Express's error page did over loopback.
 */
export function inProcessBackends(
  router: RequestHandler,
  { apiPaths, warn = console.warn }: { apiPaths: string[]; warn?: (message: string) => void },
): InProcessDispatch {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // What answered a loopback call first: a bad escape or an overlong path is refused in the envelope.
  app.use(refuseMalformedRequests({ apiPaths, warn }));
  // The loopback request's own middleware: its id (as server/logging.ts requestId takes a forwarded one) and the
  // page request's logger, whose lines carry that id.
  app.use((req, res, next) => {
    const id = req.headers[REQUEST_ID_HEADER];
    const scope = currentRequestScope();
    if (typeof id === "string") {
      (req as { id?: string }).id = id;
      res.setHeader(REQUEST_ID_HEADER, id);
    }
    if (scope?.log) (req as { log?: Logger }).log = scope.log;
    next();
  });
  // Only the backends' paths reach their router, as over loopback (server.ts isInternalApiCall).
  app.use((req, res, next) => (apiPrefixOf(req.path, apiPaths) === undefined ? next() : router(req, res, next)));
  app.use((_req, res) => {
    res.status(404).json({ code: 404, msg: "Not found", data: null, success: false });
  });
  // An error past the backends' own handlers: Express's answer to it over HTTP (its status, a page that is no
  // envelope), which the client reads as "Request failed (status)".
  app.use((error: { status?: unknown; statusCode?: unknown }, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const given = Number(error?.status ?? error?.statusCode);
    const status = given >= 400 && given < 600 ? given : 500;
    if (status >= 500) (req as { log?: Logger }).log?.error({ err: error }, "backend request failed");
    if (!res.headersSent)
      res
        .status(status)
        .type("text/plain")
        .send(http.STATUS_CODES[status] ?? "Error");
  });
  return ({ method, path, headers, body }) =>
    new Promise((resolve) => {
      // The path as a URL writes it over HTTP (spaces and non-ASCII escaped, dot segments resolved).
      const url = new URL(path, `http://${LOOPBACK}`);
      const req = incoming(method, url.pathname + url.search, headers, body);
      app(req, outgoing(req, resolve));
    });
}
