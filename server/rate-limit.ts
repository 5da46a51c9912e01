import type { Request, RequestHandler, Response } from "express";
import rateLimit from "express-rate-limit";

const MESSAGE = "Too many attempts. Please wait a minute and try again.";

/** Form posts that sign in, register, send codes or reset passwords, on the app and on the SSO API. */
export const AUTH_PATHS = [
  "/login",
  "/forgot-password",
  "/basic/login",
  "/basic/sendCode",
  "/basic/userInfo",
  "/basic/sendCodeToForgetPwd",
  "/basic/validateForgetCode",
  "/basic/forgetPwd",
  "/sso/loginOther",
];

/**
 * Rate-limit tiers as in the Epic Stack: reads are generous, writes less so, sign-in paths strict.
 * `multiple` scales them all (the end-to-end suite signs in many times from one address).
 */
export function rateLimits({ multiple = 1, apiPaths }: { multiple?: number; apiPaths: string[] }): RequestHandler {
  const handler = (req: Request, res: Response) => {
    // API callers get the backends' envelope; people get a readable page.
    if (apiPaths.some((prefix) => req.path.startsWith(prefix))) {
      res.status(429).json({ code: 429, msg: MESSAGE, data: null, success: false });
      return;
    }
    res
      .status(429)
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many attempts | Spark Era</title></head><body><h1>Too many attempts</h1><p>${MESSAGE}</p><p><a href="/home">Back home</a></p></body></html>`,
      );
  };
  const tier = (limit: number) =>
    rateLimit({ windowMs: 60_000, limit: limit * multiple, standardHeaders: true, legacyHeaders: false, handler });
  const general = tier(1000);
  const writes = tier(100);
  const auth = tier(10);
  return (req, res, next) => {
    // The app's own calls to the embedded backends come over loopback on behalf of every user at once:
    // they were limited when the user's request reached the app.
    if (isInternalApiCall(req, apiPaths)) return next();
    if (req.method === "GET" || req.method === "HEAD") return general(req, res, next);
    if (AUTH_PATHS.includes(req.path)) return auth(req, res, next);
    return writes(req, res, next);
  };
}

/** A request from this machine to an embedded backend path: the app calling its own backends. */
export function isInternalApiCall(req: Request, apiPaths: string[]): boolean {
  const ip = req.socket.remoteAddress ?? "";
  const loopback = ip === "127.0.0.1" || ip === "::1" || ip === "::ffff:127.0.0.1";
  // originalUrl: inside a mounted router req.path has lost its prefix.
  const pathname = req.originalUrl.split("?", 1)[0];
  return loopback && !req.headers["x-forwarded-for"] && apiPaths.some((prefix) => pathname.startsWith(prefix));
}
