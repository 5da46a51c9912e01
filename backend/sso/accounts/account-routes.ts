import { setTimeout as sleep } from "node:timers/promises";
import { ApiError, handle, parseInput, sendOk } from "../../http";
import express from "express";
import { clientKey } from "../../client-address";
import type { BackendOptions } from "../../types";
import { CODE_TTL_MS, RESEND_COOLDOWN_MS } from "../codes";
import type { SsoCore } from "../core";
import { hashPassword, verifyNothing, verifyPassword } from "./passwords";
import {
  forgetPwdInput,
  loginInput,
  registerInput,
  sendCodeInput,
  userInfoValidateInput,
  validateForgetCodeInput,
} from "../shared/schemas";
import { signIn } from "./session-auth";
import type { CodePurpose } from "../shared/tables";

export const BAD_CREDENTIALS = "Incorrect user name or password";
export const EMAIL_TAKEN = "This email is already registered";
/** product §5, word for word. */
export const USER_INFO_VALIDATE_KEY = "userInfoValidate: error key";
export const EMAIL_UNKNOWN = "No account is registered with this email";
/**
 * The code endpoints' answers say whether an email has an account (as /sso/userInfoValidate does, in the same
 * rate-limit tier); their time must tell no more. Sending the mail takes a database write and an SMTP exchange,
 * refusing takes one read: both answers wait until this long after the request came in. A mail server slower than
 * this still shows.
 */
export const CODE_ANSWER_FLOOR_MS = 500;

/** `work`'s outcome, given no sooner than `floorMs` after it began, whether it succeeded or threw. */
async function noSoonerThan<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    const left = started + floorMs - Date.now();
    if (left > 0) await sleep(left);
  }
}

/** Email accounts: sign-in, registration with an emailed code, the three-step password reset. */
export function accountRoutes(core: SsoCore, options: BackendOptions) {
  const router = express.Router();
  const codeAnswerFloorMs = options.codeAnswerFloorMs ?? CODE_ANSWER_FLOOR_MS;

  /**
   * POST `path`: mails a `purpose` code to the email `Name`, unless `refusal` (told whether it has an account) refuses
   * it; either answer waits out the floor.
   */
  function codeRoute(path: string, purpose: CodePurpose, refusal: (registered: boolean) => ApiError | null) {
    router.post(
      path,
      handle(async (req, res) => {
        const { Name } = parseInput(sendCodeInput, req.body);
        const sent = await noSoonerThan(codeAnswerFloorMs, async () => {
          const refused = refusal(await core.users.exists(Name));
          if (refused) throw refused;
          await core.codes.send(Name, purpose);
          return { resendAfterSeconds: RESEND_COOLDOWN_MS / 1000, expiresInSeconds: CODE_TTL_MS / 1000 };
        });
        sendOk(res, sent);
      }),
    );
  }

  router.post(
    "/basic/login",
    handle(async (req, res) => {
      const { UserName, Passsword } = parseInput(loginInput, req.body);
      const user = await core.users.byEmail(UserName);
      if (!user) {
        await verifyNothing(Passsword);
        throw new ApiError(400, BAD_CREDENTIALS);
      }
      // Counted before the slow check: parallel guesses cannot all slip past a budget none of them has spent yet.
      const attempt = await core.guard.reserve(user.id, clientKey(req, options.internalToken));
      // A wrong password keeps its attempt counted.
      if (!(await verifyPassword(Passsword, user.password_hash))) throw new ApiError(400, BAD_CREDENTIALS);
      await core.guard.succeeded(attempt);
      sendOk(res, await signIn(core, user, "email"));
    }),
  );

  codeRoute("/basic/sendCode", "register", (registered) => (registered ? new ApiError(409, EMAIL_TAKEN) : null));

  router.post(
    "/basic/userInfo",
    handle(async (req, res) => {
      const input = parseInput(registerInput, req.body);
      // Checked before the code, so a taken email does not burn the code.
      if (await core.users.exists(input.UserName)) throw new ApiError(409, EMAIL_TAKEN);
      await core.codes.check(input.UserName, "register", input.Code, { consume: true });
      const user = await core.users.insert(input.UserName, await hashPassword(input.Passsword), input.RefferAddr);
      if (!user) throw new ApiError(409, EMAIL_TAKEN);
      sendOk(res, await signIn(core, user, "email"));
    }),
  );

  // Not hidden: /sso/userInfoValidate tells anyone whether an email is registered anyway.
  codeRoute("/basic/sendCodeToForgetPwd", "reset", (registered) => (registered ? null : new ApiError(404, EMAIL_UNKNOWN)));

  router.post(
    "/basic/validateForgetCode",
    handle(async (req, res) => {
      const { UserName, Code } = parseInput(validateForgetCodeInput, req.body);
      await core.codes.check(UserName, "reset", Code, { consume: false });
      sendOk(res, { valid: true });
    }),
  );

  router.post(
    "/basic/forgetPwd",
    handle(async (req, res) => {
      const { UserName, Passsword, Code } = parseInput(forgetPwdInput, req.body);
      const user = await core.users.byEmail(UserName);
      if (!user) throw new ApiError(404, EMAIL_UNKNOWN);
      await core.codes.check(UserName, "reset", Code, { consume: true });
      await core.users.setPassword(user.id, await hashPassword(Passsword));
      await core.guard.clear(user.id);
      // Whoever knew the old password is signed out everywhere.
      await core.sessions.revokeAll(user.id);
      sendOk(res, null);
    }),
  );

  router.post(
    "/sso/userInfoValidate",
    handle(async (req, res) => {
      // product §5: the one key it checks is the email (UserName); a body naming any other is refused as a whole.
      const keys = Object.keys((req.body as object | undefined) ?? {});
      if (keys.length !== 1 || keys[0] !== "UserName") throw new ApiError(400, USER_INFO_VALIDATE_KEY);
      const { UserName } = parseInput(userInfoValidateInput, req.body);
      sendOk(res, { exists: await core.users.exists(UserName) });
    }),
  );

  return router;
}
