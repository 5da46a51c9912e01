/**
 * POST /sso/internal/watchDigest: the market's watch digests (backend/market/watch-digest.ts) reach the account's
 * email through the SSO's mailer, the one place that knows emails and SMTP (decision 0021). Only the app's own
 * process may call it: the internal token is required.
 */
import express from "express";
import { z } from "zod";
import { hasInternalToken } from "../../client-address";
import { ApiError, handle, parseInput, sendOk } from "../../http";
import type { BackendOptions } from "../../types";
import type { SsoCore } from "../core";
import { createMailer } from "./mail";

export const WATCH_DIGEST_PATH = "/sso/internal/watchDigest";

const digestInput = z.object({
  userName: z.string().min(1).max(254),
  subject: z.string().min(1).max(200),
  text: z.string().min(1).max(100_000),
});

export function watchMailRoutes(core: SsoCore, options: BackendOptions) {
  const router = express.Router();
  const send = createMailer(core.db, options.smtpUrl, options.mailFrom);
  router.post(
    WATCH_DIGEST_PATH,
    handle(async (req, res) => {
      if (!hasInternalToken(req, options.internalToken)) throw new ApiError(403, "Forbidden");
      const { userName, subject, text } = parseInput(digestInput, req.body);
      const user = await core.users.byEmail(userName);
      if (!user) throw new ApiError(404, "No such account");
      await send({ to: user.email, subject, text });
      sendOk(res, null);
    }),
  );
  return router;
}
