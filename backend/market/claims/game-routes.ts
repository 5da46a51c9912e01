import type { Router } from "express";
import type { GameBalances } from "~core/api/market";
import { CURRENCIES } from "~core/money";
import { handle, sendOk } from "../../http";
import { claimView, ownClaim, pendingClaimSignature, recentClaims, takeOutNft, takeOutToken } from "./claims";
import { settleExpiredClaims } from "./claim-settlement";
import type { MarketCore } from "../core";
import { claimStatusSchema, gameTagSchema, takeOutNftSchema, takeOutTokenSchema } from "./game-schemas";
import { balanceOf } from "../shared/ledger";
import { parseMarketInput } from "../shared/params";
import { marketInput, requireCaller } from "../request";

/** Game ↔ chain: the caller's game balances, signed claims that take tokens or NFTs out, and a claim's status. */
export function gameRoutes(router: Router, core: MarketCore) {
  const { db } = core;
  /** A read of balances or claims, after the claims past their deadline have given their assets back. */
  const afterExpiries = async <T>(read: (now: number) => Promise<T>) => {
    const now = Date.now();
    await settleExpiredClaims(db, now, Boolean(core.options.chain));
    return read(now);
  };

  router.get(
    "/gameRelate/getGameToken",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { gameTag } = parseMarketInput(gameTagSchema, marketInput(req));
      const balances = await afterExpiries(
        async () =>
          Object.fromEntries(
            await Promise.all(CURRENCIES.map(async (c) => [c, (await balanceOf(db, walletAddress, c)).toString()])),
          ) as GameBalances["balances"],
      );
      sendOk(res, { gameTag: gameTag ?? 1, address: walletAddress, balances } satisfies GameBalances);
    }),
  );

  router.post(
    "/gameRelate/takeOutTokenSign",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { fire, currency, requestKey } = parseMarketInput(takeOutTokenSchema, marketInput(req));
      sendOk(res, await takeOutToken(core, walletAddress, fire, Date.now(), currency, requestKey ?? null));
    }),
  );

  router.post(
    "/gameRelate/takeOutSign",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { takeOut, nftType, amount, requestKey } = parseMarketInput(takeOutNftSchema, marketInput(req));
      sendOk(res, await takeOutNft(core, walletAddress, { nftType, tokenId: takeOut }, Date.now(), requestKey ?? null, amount));
    }),
  );

  router.get(
    "/gameRelate/claims",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const claims = await afterExpiries(() => recentClaims(db, walletAddress));
      sendOk(res, claims.map(claimView));
    }),
  );

  router.get(
    "/gameRelate/claimSign",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { txId } = parseMarketInput(claimStatusSchema, marketInput(req));
      sendOk(res, await afterExpiries((now) => pendingClaimSignature(db, txId, walletAddress, now)));
    }),
  );

  router.get(
    "/gameRelate/claimStatus",
    handle(async (req, res) => {
      const { walletAddress } = await requireCaller(core, req);
      const { txId } = parseMarketInput(claimStatusSchema, marketInput(req));
      const claim = await afterExpiries(() => ownClaim(db, txId, walletAddress));
      sendOk(res, claimView(claim));
    }),
  );
}
