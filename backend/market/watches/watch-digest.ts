/**
 * The alert emails (decision 0021): one digest per account listing the new matches of its watches, each listing once
 * (issue 42), each watch mailed at most once an hour. A watch is claimed for a digest by moving its `emailed_at` in one conditional update,
 * so two processes (or a timer and a kick) never mail the same alerts; the mail goes out after the claim commits,
 * through the SSO's mailer (the market does not keep emails): at most once, never twice.
 */
import { INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import { formatPrice } from "~core/money";
import type { MarketDb } from "../shared/db";
import type { WatchTokens } from "./watch-tokens";

/** A watch is mailed at most once in this long. */
export const DIGEST_INTERVAL_MS = 60 * 60 * 1000;
/** Pending alerts read per run; the rest wait for the next one. */
const DIGEST_BATCH = 1000;
/** How often each process looks for due digests, besides the kick after each new listing. */
export const DIGEST_POLL_MS = 60_000;

export interface DigestMail {
  /** The account (its email is its name at the SSO). */
  userName: string;
  subject: string;
  text: string;
}

/** One pending alert under one of its due watches (an alert matching two due watches is two rows). */
interface PendingRow {
  id: number;
  watch_id: number;
  user_name: string;
  nft_type: number;
  token_id: string;
  name: string;
  price: string;
  currency: string;
}

interface DigestWatch {
  id: number;
  search: string;
  label: string;
}

/** One listing in a digest, with the watches it matched. */
interface DigestAlert {
  alert: PendingRow;
  watches: DigestWatch[];
}

const watchName = (watch: DigestWatch, siteUrl: string) =>
  // A watch made before labels has only its link.
  watch.label || `${siteUrl}/marketplace/market${watch.search ? `?${watch.search}` : ""}`;

/**
 * The digest of one account: each new listing once (issue 42) with its item link and the watches it matched by
 * their labels, then each mailed watch's unsubscribe link.
 */
export function digestMail(userName: string, alerts: DigestAlert[], siteUrl: string, tokens: WatchTokens): DigestMail {
  const count = alerts.length;
  const lines = ["New listings match searches you watch on Spark Era.", ""];
  const watches = new Map<number, DigestWatch>();
  for (const { alert, watches: matched } of alerts) {
    lines.push(
      `- ${alert.name}, ${formatPrice(alert.price, alert.currency)}: ${siteUrl}/marketplace/detail?nftType=${alert.nft_type}&tokenId=${alert.token_id}`,
      `  Matches: ${matched.map((watch) => watchName(watch, siteUrl)).join("; ")}`,
    );
    for (const watch of matched) watches.set(watch.id, watch);
  }
  lines.push("", "Stop emails for a search:");
  for (const watch of watches.values()) {
    lines.push(`- ${watchName(watch, siteUrl)}: ${siteUrl}/marketplace/watches/unsubscribe?token=${tokens.sign(watch.id)}`);
  }
  lines.push("", `Your watched searches: ${siteUrl}/marketplace/watches`, `Your inbox: ${siteUrl}/marketplace/inbox`);
  return {
    userName,
    subject: `Spark Era: ${count} new ${count === 1 ? "match" : "matches"} for your watched searches`,
    text: lines.join("\n"),
  };
}

export interface DigestOptions {
  siteUrl: string;
  tokens: WatchTokens;
  send: (mail: DigestMail) => Promise<void>;
  now?: () => number;
  log?: Pick<Console, "error">;
}

/**
 * Mails every due digest once; answers the mails sent. A due watch is claimed by moving its `emailed_at`, then each
 * pending alert under a claimed watch by moving its own: an alert of two watches claimed by two runs goes out once.
 */
export async function runDigests(db: MarketDb, { siteUrl, tokens, send, now = Date.now, log = console }: DigestOptions): Promise<number> {
  const at = now();
  const dueBefore = at - DIGEST_INTERVAL_MS;
  const pending = await db.all<PendingRow>(
    `select a.id, l.watch_id, a.user_name, a.nft_type, a.token_id, a.name, a.price, a.currency
     from market_watch_alerts a join market_watch_alert_watches l on l.alert_id = a.id join market_watches w on w.id = l.watch_id
     where a.emailed_at is null and w.email_on = 1 and (w.emailed_at is null or w.emailed_at <= ?)
     order by a.id, w.id limit ?`,
    [dueBefore, DIGEST_BATCH],
  );
  if (!pending.length) return 0;
  const watchIds = [...new Set(pending.map((row) => row.watch_id))];
  const claimed = await db.write(async (tx) => {
    const won = new Set<number>();
    for (const id of watchIds) {
      const { changes } = await tx.run(
        "update market_watches set emailed_at = ? where id = ? and email_on = 1 and (emailed_at is null or emailed_at <= ?)",
        [at, id, dueBefore],
      );
      if (changes) won.add(id);
    }
    const alertIds = [...new Set(pending.filter((row) => won.has(row.watch_id)).map((row) => row.id))];
    const mailed = new Set<number>();
    for (const id of alertIds) {
      const { changes } = await tx.run("update market_watch_alerts set emailed_at = ? where id = ? and emailed_at is null", [at, id]);
      if (changes) mailed.add(id);
    }
    return mailed;
  });
  if (!claimed.size) return 0;
  // An alert names every watch it matched, mailed this hour or not (the inbox does the same).
  const ids = [...claimed];
  const matched = await db.all<{ alert_id: number; id: number; search: string; label: string }>(
    `select l.alert_id, w.id, w.search, w.label from market_watch_alert_watches l join market_watches w on w.id = l.watch_id
     where l.alert_id in (${ids.map(() => "?").join(", ")}) and w.email_on = 1 order by l.alert_id, w.id`,
    ids,
  );
  const watchesOf = new Map<number, DigestWatch[]>();
  for (const { alert_id, ...watch } of matched) watchesOf.set(alert_id, [...(watchesOf.get(alert_id) ?? []), watch]);
  const byUser = new Map<string, Map<number, DigestAlert>>();
  for (const row of pending) {
    if (!claimed.has(row.id)) continue;
    const alerts = byUser.get(row.user_name) ?? new Map<number, DigestAlert>();
    if (!alerts.has(row.id)) alerts.set(row.id, { alert: row, watches: watchesOf.get(row.id) ?? [] });
    byUser.set(row.user_name, alerts);
  }
  let sent = 0;
  for (const [userName, alerts] of byUser) {
    try {
      await send(digestMail(userName, [...alerts.values()], siteUrl, tokens));
      sent++;
    } catch (error) {
      log.error(`watch digest for one account not sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return sent;
}

/**
 * Runs the digests every DIGEST_POLL_MS and on `kick` (after a listing is written), one run at a time in this
 * process; `stop` ends the timer.
 */
export function createDigestRunner(db: MarketDb, options: DigestOptions) {
  let running: Promise<unknown> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = runDigests(db, options)
      .catch((error: unknown) => options.log?.error(`watch digests failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, DIGEST_POLL_MS);
  timer.unref();
  return {
    kick: run,
    stop: () => clearInterval(timer),
    /** Resolves when no run is under way (tests). */
    idle: async () => {
      while (running) await running;
    },
  };
}

/** Hands a digest to the SSO's mailer (backend/sso/mail/watch-mail-routes.ts) over HTTP, with the internal token. */
export function ssoDigestSender(sso: { baseUrl: string; internalToken?: string }): DigestOptions["send"] {
  const url = new URL("/sso/internal/watchDigest", sso.baseUrl);
  return async (mail) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(sso.internalToken ? { [INTERNAL_TOKEN_HEADER]: sso.internalToken } : {}) },
      body: JSON.stringify(mail),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`the SSO answered ${response.status}`);
  };
}
