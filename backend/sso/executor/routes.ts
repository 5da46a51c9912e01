import express, { type Request } from "express";
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

  /** The caller, who must have a managed wallet: actions are signed with its key. */
  async function managedUser(req: Request) {
    const { user } = await requireSession(core, req);
    if (user.bind_addr_type !== BIND_ADDR_TYPE.managed) throw new ApiError(403, MANAGED_WALLET_ONLY);
    return user;
  }

  /** GET `path`: the caller's own record that `find` reads from the request, or a 404 saying `missing`. */
  function getOwn(path: string, missing: string, find: (userId: number, req: Request) => Promise<unknown>) {
    router.get(
      path,
      handle(async (req, res) => {
        const { user } = await requireSession(core, req);
        const found = await find(user.id, req);
        if (!found) throw new ApiError(404, missing);
        sendOk(res, found);
      }),
    );
  }

  router.post(
    "/sso/actions",
    handle(async (req, res) => {
      const user = await managedUser(req);
      const request = parseInput(actionRequestInput, req.body);
      sendOk(res, await executor.submit(user.id, request));
    }),
  );

  getOwn("/sso/actions", "No such action", async (userId, req) => {
    const query = executionKeyQuery.safeParse(req.query);
    return query.success ? executor.findByKey(userId, query.data.idempotencyKey) : null;
  });

  getOwn("/sso/actions/quotes/:id", "No such fee to confirm.", async (userId, req) => {
    const id = executionIdParam.safeParse(req.params);
    return id.success ? executor.findQuote(userId, id.data.id) : null;
  });

  router.post(
    "/sso/actions/quotes/:id/confirm",
    handle(async (req, res) => {
      const user = await managedUser(req);
      const id = executionIdParam.safeParse(req.params);
      if (!id.success) throw new ApiError(404, "No such fee to confirm.");
      sendOk(res, await executor.confirmQuote(user.id, id.data.id));
    }),
  );

  getOwn("/sso/actions/:id", "No such action", async (userId, req) => {
    const id = executionIdParam.safeParse(req.params);
    return id.success ? executor.find(userId, id.data.id) : null;
  });

  return router;
}
