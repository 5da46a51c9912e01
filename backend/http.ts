import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ZodType, ZodTypeDef } from "zod";
import type { Envelope } from "~core/api/envelope";
import { DatabaseBusyError } from "./db/sql";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** What failed underneath a 5xx (a chain read, a provider): logged, never shown. */
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

export function sendOk<T>(res: Response, data: T, msg = "success") {
  const body: Envelope<T> = { code: 200, msg, data, success: true };
  res.status(200).json(body);
}

export function sendError(res: Response, status: number, msg: string) {
  const body: Envelope<null> = { code: status, msg, data: null, success: false };
  res.status(status).json(body);
}

/** Parses input with a Zod schema (typed by its output), or throws a 400 ApiError naming the first bad field. */
export function parseInput<T>(schema: ZodType<T, ZodTypeDef, unknown>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  throw new ApiError(400, `${where}${issue.message}`);
}

/**
 * Wraps an async handler: ApiErrors become their status, a database that stayed busy through its retries a 503,
 * anything else a logged 500 without details.
 */
export function handle(fn: (req: Request, res: Response) => Promise<void> | void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .catch((error: unknown) => {
        if (error instanceof ApiError) {
          if (error.cause !== undefined) logFailure(req, error.cause);
          return sendError(res, error.status, error.message);
        }
        if (res.headersSent) return next(error);
        if (error instanceof DatabaseBusyError) {
          res.setHeader("Retry-After", "1");
          return sendError(res, 503, "The service is busy, please try again in a moment");
        }
        logFailure(req, error);
        sendError(res, 500, "Internal error");
      });
  };
}

/** Behind the server's request logger (pino-http) the line carries the request id the app forwarded. */
function logFailure(req: Request, error: unknown) {
  if (req.log) req.log.error({ err: error }, "backend request failed");
  else console.error(error);
}
