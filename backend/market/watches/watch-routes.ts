/**
 * Watched searches (docs/api/market.md "Watched searches"): a signed-in account's watches, its alert inbox, and the
 * unsubscribe link of an email, which needs no session (its token is the proof).
 */
import type { Router } from "express";
import type { AlertRecord, Inbox, UnsubscribeTarget, WatchRecord } from "~core/api/watches";
import { ApiError, handle, sendOk } from "../../http";
import type { MarketCore } from "../core";
import { parseMarketInput } from "../shared/params";
import { requireOwner } from "../request";
import { addWatchSchema, watchIdSchema } from "./watch-schemas";
import {
  type AlertRow,
  type AlertWatch,
  type WatchRow,
  WATCH_MSG,
  addWatch,
  listAlerts,
  listWatches,
  markAlertsRead,
  markWatchesSeen,
  removeWatch,
  unreadAlerts,
  unsubscribeWatch,
} from "./watches";

const iso = (ms: number) => new Date(ms).toISOString();

function watchRecord(row: WatchRow & { fresh?: number }): WatchRecord {
  return {
    id: row.id,
    search: row.search,
    label: row.label,
    currency: row.currency,
    ceiling: row.ceiling,
    emailOn: row.email_on === 1,
    fresh: row.fresh ?? 0,
    createdAt: iso(row.created_at),
  };
}

function alertRecord(row: AlertRow & { watches: AlertWatch[] }): AlertRecord {
  return {
    id: row.id,
    watches: row.watches,
    nftType: row.nft_type,
    tokenId: row.token_id,
    name: row.name,
    price: row.price,
    currency: row.currency,
    createdAt: iso(row.created_at),
    read: row.read_at !== null,
  };
}

export function watchRoutes(router: Router, core: MarketCore) {
  const { db } = core;

  router.get(
    "/watches",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      sendOk(res, (await listWatches(db, userName)).map(watchRecord));
    }),
  );

  router.post(
    "/watches/add",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      const input = parseMarketInput(addWatchSchema, req.body);
      sendOk(res, watchRecord(await db.write((tx) => addWatch(tx, userName, input, Date.now()))));
    }),
  );

  router.post(
    "/watches/remove",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      const { id } = parseMarketInput(watchIdSchema, req.body);
      await db.write((tx) => removeWatch(tx, userName, id));
      sendOk(res, null);
    }),
  );

  router.post(
    "/watches/seen",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      await db.write((tx) => markWatchesSeen(tx, userName));
      sendOk(res, null);
    }),
  );

  router.get(
    "/watches/inbox",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      const [alerts, unread] = await Promise.all([listAlerts(db, userName), unreadAlerts(db, userName)]);
      sendOk(res, { alerts: alerts.map(alertRecord), unread } satisfies Inbox);
    }),
  );

  router.get(
    "/watches/unread",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      sendOk(res, { unread: await unreadAlerts(db, userName) });
    }),
  );

  router.post(
    "/watches/read",
    handle(async (req, res) => {
      const { userName } = await requireOwner(core, req);
      await db.write((tx) => markAlertsRead(tx, userName, Date.now()));
      sendOk(res, null);
    }),
  );

  /** The unsubscribe link's target (GET, no change: mail scanners open links) and the unsubscribing (POST). */
  for (const method of ["get", "post"] as const) {
    router[method](
      "/watches/unsubscribe",
      handle(async (req, res) => {
        const { token } = (method === "get" ? req.query : req.body) as { token?: unknown };
        const id = typeof token === "string" ? core.watchTokens.verify(token) : null;
        if (id === null) throw new ApiError(400, WATCH_MSG.badLink);
        const row =
          method === "get"
            ? await db.get<WatchRow>("select * from market_watches where id = ?", [id])
            : await db.write((tx) => unsubscribeWatch(tx, id));
        // A watch removed since the mail: nothing is left to stop.
        if (!row) throw new ApiError(404, WATCH_MSG.notFound);
        sendOk(res, { id: row.id, search: row.search, emailOn: row.email_on === 1 } satisfies UnsubscribeTarget);
      }),
    );
  }
}
