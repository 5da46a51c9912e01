import type { Router } from "express";
import type { InviteCode } from "~core/api/market";
import { ApiError, handle, sendOk } from "../../http";
import type { MarketCore } from "../core";
import { awardToSend, awardView, recentAwards, settleExpiredAwards } from "../awards";
import { acceptInviteSchema, awardSignSchema, claimRebateSchema, rebateSchema } from "./invite-schemas";
import { acceptInvite, claimRebate, inviteCode, invitePath, invitedCount, rebateInfo, rebateTotal, resolveCurrency } from "./invites";
import { parseMarketInput } from "../shared/params";
import { marketInput, requireCaller } from "../request";

/** The caller's invite code, accepting an invite, and the rebates a wallet's invitees' trades earn it. */
export function inviteRoutes(router: Router, core: MarketCore) {
  const { db, options } = core;

  router.get(
    "/informationCenter/getInviteCode",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const data = await db.write(async (tx) => {
        const code = await inviteCode(tx, walletAddress, Date.now());
        return {
          inviteCode: code,
          inviterAddress: walletAddress,
          invitePath: invitePath(code),
          invitedCount: await invitedCount(tx, walletAddress),
        } satisfies InviteCode;
      });
      sendOk(res, data);
    }),
  );

  router.post(
    "/informationCenter/acceptInvite",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { code } = parseMarketInput(acceptInviteSchema, marketInput(req));
      sendOk(res, await db.write((tx) => acceptInvite(tx, walletAddress, code, Date.now())));
    }),
  );

  router.get(
    "/informationCenter/showRebateInfo",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      sendOk(res, await db.write((tx) => rebateInfo(tx, walletAddress, Date.now())));
    }),
  );

  router.get(
    "/informationCenter/getRebate",
    handle(async (req, res) => {
      const who = await requireCaller(core, req);
      const { emailAddr, erc20Addr } = parseMarketInput(rebateSchema, marketInput(req));
      if (emailAddr !== who.email.toLowerCase()) throw new ApiError(403, "emailAddr: expected your account's email");
      const { currency, tokenAddress } = resolveCurrency(options, erc20Addr);
      const total = await rebateTotal(db, who.walletAddress, currency);
      sendOk(res, { ...total, tokenAddress, emailAddr });
    }),
  );

  router.post(
    "/informationCenter/claimRebate",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { erc20Addr } = parseMarketInput(claimRebateSchema, marketInput(req));
      const { currency } = resolveCurrency(options, erc20Addr);
      sendOk(res, await claimRebate(core, walletAddress, currency, Date.now()));
    }),
  );

  router.get(
    "/informationCenter/awards",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const now = Date.now();
      await settleExpiredAwards(db, now, Boolean(options.chain));
      sendOk(res, (await recentAwards(db, walletAddress)).map(awardView));
    }),
  );

  router.post(
    "/informationCenter/awardSign",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { txId } = parseMarketInput(awardSignSchema, marketInput(req));
      const now = Date.now();
      await settleExpiredAwards(db, now, Boolean(options.chain));
      sendOk(res, await db.write((tx) => awardToSend(tx, txId, walletAddress, now)));
    }),
  );
}
