import { ApiError, handle, parseInput, sendOk } from "../../http";
import express from "express";
import { bindWalletMessage } from "~core/bind-message";
import type { SsoCore } from "../core";
import { DISPLAY_NAME_TAKEN } from "~core/display-name";
import type { DisplayNameSet } from "~core/api/sso";
import { bindWalletInput, displayNameInput, loginOtherInput, walletParam } from "../shared/schemas";
import { publicUserInfo, requireSession, signIn, userInfo } from "../accounts";
import { assertFresh, assertSignedBy } from "./wallets";

/**
 * The session (user info, sign-out), everything wallet (binding, managed wallets, wallet sign-in) and what anyone may
 * see of a wallet's player: the lookup, and the display name its owner sets.
 */
export function walletRoutes(core: SsoCore) {
  const router = express.Router();

  router.get(
    "/sso/getUserInfo",
    handle(async (req, res) => {
      const { user, session } = await requireSession(core, req);
      sendOk(res, userInfo(user, session));
    }),
  );

  router.get(
    "/sso/loginOut",
    handle(async (req, res) => {
      const { session } = await requireSession(core, req);
      await core.sessions.revoke(session.id);
      sendOk(res, null);
    }),
  );

  router.post(
    "/sso/loginOther",
    handle(async (req, res) => {
      const { accessToken } = parseInput(loginOtherInput, req.body);
      const { user, address } = await core.wallets.signInWithWallet(accessToken.message, accessToken.signature);
      sendOk(res, await signIn(core, user, "wallet", address));
    }),
  );

  router.post(
    "/sso/walletNonce",
    handle(async (_req, res) => {
      sendOk(res, await core.wallets.issueSignInNonce());
    }),
  );

  router.post(
    "/sso/bindWalletWithAccount",
    handle(async (req, res) => {
      const { user, session } = await requireSession(core, req);
      const input = parseInput(bindWalletInput, req.body);
      if (input.UserName !== user.email) throw new ApiError(403, "UserName is not the signed-in account");
      assertFresh(input.IssuedAt);
      const message = bindWalletMessage({ userName: user.email, address: input.Address, issuedAt: input.IssuedAt });
      await assertSignedBy(message, input.Signature, input.Address);
      const bound = await core.wallets.bindBrowserWallet(user, input.Address);
      sendOk(res, userInfo(bound, session));
    }),
  );

  router.get(
    "/sso/createAddress",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const bound = await core.wallets.createManagedWallet(user);
      sendOk(res, { address: bound.wallet_address });
    }),
  );

  router.post(
    "/sso/displayName",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const { DisplayName } = parseInput(displayNameInput, req.body);
      const updated = await core.users.setDisplayName(user.id, DisplayName);
      if (!updated) throw new ApiError(409, DISPLAY_NAME_TAKEN);
      const answer: DisplayNameSet = { DisplayName: updated.display_name };
      sendOk(res, answer);
    }),
  );

  router.get(
    "/api/user/:walletAddress",
    handle(async (req, res) => {
      const { walletAddress } = parseInput(walletParam, req.params);
      const user = await core.users.byWallet(walletAddress);
      if (!user) throw new ApiError(404, "No account is bound to this wallet");
      sendOk(res, publicUserInfo(user));
    }),
  );

  return router;
}
