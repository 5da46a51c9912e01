import express from "express";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { ApiError, handle, parseInput, sendOk } from "../../http";
import type { SsoCore } from "../core";
import { requireSession } from "../accounts";
import { type Executor, MANAGED_WALLET_ONLY } from "./executor";
import { actionRequestInput, executionIdParam, executionKeyQuery } from "./schemas";

/**
 * POST /sso/actions, GET /sso/actions?idempotencyKey=, GET /sso/actions/:id, and a sponsored action's fee:
 * GET /sso/actions/quotes/:id and POST /sso/actions/quotes/:id/confirm (docs/api/sso.md "On-chain actions (managed
 * wallets)", "Network fees paid by the site").
 */
export function actionRoutes(core: SsoCore, executor: Executor) {
  const router = express.Router();

  router.post(
    "/sso/actions",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      if (user.bind_addr_type !== BIND_ADDR_TYPE.managed) throw new ApiError(403, MANAGED_WALLET_ONLY);
      const request = parseInput(actionRequestInput, req.body);
      sendOk(res, await executor.submit(user.id, request));
    }),
  );

  router.get(
    "/sso/actions",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const query = executionKeyQuery.safeParse(req.query);
      const execution = query.success ? await executor.findByKey(user.id, query.data.idempotencyKey) : null;
      if (!execution) throw new ApiError(404, "No such action");
      sendOk(res, execution);
    }),
  );

  router.get(
    "/sso/actions/quotes/:id",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const id = executionIdParam.safeParse(req.params);
      const quote = id.success ? await executor.findQuote(user.id, id.data.id) : null;
      if (!quote) throw new ApiError(404, "No such fee to confirm.");
      sendOk(res, quote);
    }),
  );

  router.post(
    "/sso/actions/quotes/:id/confirm",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      if (user.bind_addr_type !== BIND_ADDR_TYPE.managed) throw new ApiError(403, MANAGED_WALLET_ONLY);
      const id = executionIdParam.safeParse(req.params);
      if (!id.success) throw new ApiError(404, "No such fee to confirm.");
      sendOk(res, await executor.confirmQuote(user.id, id.data.id));
    }),
  );

  router.get(
    "/sso/actions/:id",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const id = executionIdParam.safeParse(req.params);
      const execution = id.success ? await executor.find(user.id, id.data.id) : null;
      if (!execution) throw new ApiError(404, "No such action");
      sendOk(res, execution);
    }),
  );

  return router;
}
