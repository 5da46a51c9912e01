/**
 * Delivers the executor's analytics events (decision 0009): the outbox rows an execution released when it was
 * mined go to the sink one at a time, in order, each marked delivered only once the sink took it. A sink that
 * fails is tried again with a growing pause; a restart picks up whatever was not marked. One deliverer per
 * database (the server's lock), so no two send the same row. A delivered row is kept a week, then dropped.
 */
import type { Kysely } from "kysely";
import { type AnalyticsEvent, type AnalyticsSink, sendToSink } from "~core/analytics";
import { shortError } from "~core/rpc-errors";
import type { BackendLog, Database } from "../../types";

/** What goes to the sink: the event, its stable id (a sink that sees it twice can drop it) and when the action was mined. */
export type DeliveredEvent = AnalyticsEvent & { event_id: string; at: string };

export type SendEvent = (event: DeliveredEvent) => Promise<void>;

/** The sink's sender (core/analytics.ts): it resolves only once the sink took the event. */
export function sinkSender(sink: AnalyticsSink, write = (line: string) => void process.stdout.write(`${line}\n`)): SendEvent {
  return (event) => sendToSink(sink, event, { write });
}

export interface DelivererDeps {
  db: Kysely<Database>;
  send: SendEvent;
  log: BackendLog;
  /** The first pause after a failure; it doubles up to `retryMaxMs`. */
  retryMs: number;
  retryMaxMs: number;
  now?: () => number;
}

const BATCH = 50;
/** How long a delivered event stays in the outbox: long enough to look into a delivery, not for ever. */
export const DELIVERED_EVENT_RETENTION_MS = 7 * 24 * 3_600_000;
/** Delivered events are dropped at most this often, before a delivery pass (a failing sink does not stop it). */
const PRUNE_EVERY_MS = 3_600_000;
/** How many delivered events one delete drops. */
export const PRUNE_BATCH = 500;

export function createEventDeliverer({ db, send, log, retryMs, retryMaxMs, now = Date.now }: DelivererDeps) {
  let stopped = false;
  let prunedAt = -Infinity;
  /** Set by kick(): released rows may be waiting, so look again before sleeping. */
  let dirty = true;
  /** Ends the current pause: stop() ends any, kick() only an idle one (a failing sink keeps its pause). */
  let wake: ((byKick: boolean) => void) | null = null;
  let loop: Promise<void> | null = null;

  const pause = (ms: number | null) =>
    new Promise<void>((resolve) => {
      // stop() may have come while a pass was in flight, with no pause to wake: an idle pause would never end.
      if (stopped) return resolve();
      const timer = ms === null ? null : setTimeout(done, ms);
      function done() {
        if (timer) clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = (byKick) => {
        if (!byKick || ms === null) done();
      };
    });

  const waiting = () =>
    db
      .selectFrom("action_events")
      .selectAll()
      .where("delivered_at", "is", null)
      .where("released_at", "is not", null)
      .orderBy("seq")
      .limit(BATCH)
      .execute();

  /** Sends what is waiting, in order; false when nothing was. */
  async function deliverWaiting(): Promise<boolean> {
    const rows = await waiting();
    for (const row of rows) {
      if (stopped) break;
      await send({ ...(JSON.parse(row.payload) as AnalyticsEvent), event_id: row.id, at: row.released_at! });
      await db
        .updateTable("action_events")
        .set({ delivered_at: new Date(now()).toISOString() })
        .where("seq", "=", row.seq)
        .execute();
    }
    return rows.length > 0;
  }

  /**
   * Drops the events delivered before the retention window (the undelivered index's leading column finds them), a
   * batch per statement: a week of a busy outbox in one delete would hold its locks, and the deliverer, for long.
   */
  async function pruneDelivered(): Promise<void> {
    const at = now();
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    const before = new Date(at - DELIVERED_EVENT_RETENTION_MS).toISOString();
    for (let deleted = PRUNE_BATCH; deleted === PRUNE_BATCH && !stopped; ) {
      const result = await db
        .deleteFrom("action_events")
        .where("seq", "in", (eb) => eb.selectFrom("action_events").select("seq").where("delivered_at", "<", before).limit(PRUNE_BATCH))
        .executeTakeFirst();
      deleted = Number(result.numDeletedRows);
    }
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      dirty = false;
      try {
        await pruneDelivered();
        const sent = await deliverWaiting();
        failures = 0;
        if (!sent && !dirty) await pause(null);
      } catch (error) {
        // The sink, or the database, failed: the rows not marked go on the next try.
        log.warn(`executor: analytics delivery failed, trying again: ${shortError(error)}`);
        if (!stopped) await pause(Math.min(retryMaxMs, retryMs * 2 ** failures++));
      }
    }
  }

  return {
    /** Delivers what an earlier run left, then waits for kicks. */
    start(): void {
      loop ??= run().catch((error: unknown) => log.error(`executor: analytics delivery stopped: ${shortError(error)}`));
    },
    /** An execution released events. */
    kick(): void {
      dirty = true;
      wake?.(true);
    },
    /** Lets the event being sent finish (and be marked), then stops. */
    async stop(): Promise<void> {
      stopped = true;
      wake?.(false);
      await loop;
    },
  };
}
