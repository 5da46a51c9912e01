/**
 * Structured logs (issue 16): JSON lines with pino, and the access log with pino-http, one line per request. Each
 * request gets an id (a valid incoming X-Request-Id, else a new UUID), echoed in the response, bound to every line
 * its logger writes and forwarded to the backends by the app's client, whose own lines then carry the same id.
 * Secrets never reach a line: logged URLs lose the values of secret query parameters (`?code=`, `?token=`...), the
 * access line names only a few harmless headers, and pino's `redact` blanks secret keys in anything logged.
 */
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, stdTimeFunctions, type DestinationStream, type LevelWithSilent, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { REQUEST_ID_HEADER } from "../app/services/request-scope.server";

export const CENSOR = "[Redacted]";

/**
 * Keys whose values are secrets wherever a logged object holds them, at the top or one level down (a body, headers):
 * body fields, and the headers that carry a session, a token or the internal token (Node names headers in lower
 * case). A wildcard two levels down would cost 13 µs a line instead of 6: a request's headers are named in full.
 */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "oldPassword",
  "token",
  "authToken",
  "authtoken",
  "code",
  "secret",
  "privateKey",
  "sessionId",
  "cookie",
  "set-cookie",
  "authorization",
  "x-spark-internal",
];

const SECRET_HEADERS = ["cookie", "set-cookie", "authorization", "authtoken", "x-spark-internal"];

const keyPath = (key: string) => (/^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `["${key}"]`);
export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [keyPath(key).replace(/^\./, ""), `*${keyPath(key)}`]),
  // A request logged whole (a response is logged as its status alone).
  ...SECRET_HEADERS.map((name) => `req.headers${keyPath(name)}`),
];

/** Query parameters whose values are secrets: codes, keys, signatures, sessions, and any *token, *secret, *password. */
const SECRET_PARAM = /^(?:code|key|sig|signature|otp|auth|session_?id|api_?key|.*(?:token|secret|passw(?:or)?d))$/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}

/** `url` (a path or an absolute URL) with the values of its secret query parameters replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf("?");
  if (query === -1) return url;
  const hash = url.indexOf("#", query);
  const end = hash === -1 ? url.length : hash;
  const pairs = url
    .slice(query + 1, end)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals !== -1 && SECRET_PARAM.test(decodedName(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=${CENSOR}` : pair;
    });
  return `${url.slice(0, query + 1)}${pairs.join("&")}${url.slice(end)}`;
}

export function createLogger({ level = "info", destination }: { level?: LevelWithSilent; destination?: DestinationStream } = {}): Logger {
  return pino({ level, timestamp: stdTimeFunctions.isoTime, redact: { paths: REDACT_PATHS, censor: CENSOR } }, destination);
}

/**
 * The logger as the embedded backends write to it (console-shaped: a message, maybe an error): one JSON line each,
 * an error under `err` with its stack.
 */
export function consoleOf(logger: Logger): Pick<Console, "info" | "warn" | "error"> {
  const at =
    (level: "info" | "warn" | "error") =>
    (...parts: unknown[]) => {
      const err = parts.find((part) => part instanceof Error);
      // inspect, not JSON.stringify: a bigint or a cycle must not turn a log call into a throw.
      const message = parts
        .filter((part) => part !== err)
        .map((part) => (typeof part === "string" ? part : inspect(part, { depth: 3, breakLength: Infinity })))
        .join(" ");
      if (err) logger[level]({ err }, message);
      else logger[level](message);
    };
  return { info: at("info"), warn: at("warn"), error: at("error") };
}

/** What a client may call its request: short, and only characters that are safe in a header and a log line. */
const VALID_REQUEST_ID = /^[\w.:@=+/-]{1,128}$/;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

interface SerializedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  remoteAddress: string;
  raw: IncomingMessage & { ip?: string };
}

/**
 * The request id and logger of every request (`req.id`, `req.log`: lines carry `reqId`), and with `accessLog` one line
 * when it ends: method, URL, status, time, client address (Express's `req.ip`, which honours TRUST_PROXY), user agent, referrer.
 */
export function requestLogger(logger: Logger, { accessLog }: { accessLog: boolean }) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    autoLogging: accessLog,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    serializers: {
      req: (req: SerializedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.raw.ip ?? req.remoteAddress,
        userAgent: req.headers["user-agent"],
        referer: typeof req.headers.referer === "string" ? redactUrl(req.headers.referer) : undefined,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
