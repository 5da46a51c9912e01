/**
 * The alert emails (decision 0021): one digest per account listing the new matches of its watches, each watch
 * mailed at most once an hour. A watch is claimed for a digest by moving its `emailed_at` in one conditional update,
 * so two processes (or a timer and a kick) never mail the same alerts; the mail goes out after the claim commits,
 * through the SSO's mailer (the market does not keep emails): at most once, never twice.
 */
import { INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import { formatPrice } from "~core/money";
import type { MarketDb } from "./db";
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

interface PendingAlert {
  id: number;
  watch_id: number;
  user_name: string;
  nft_type: number;
  token_id: string;
  name: string;
  price: string;
  currency: string;
  search: string;
}

interface WatchDigest {
  watchId: number;
  search: string;
  alerts: PendingAlert[];
}

/** The digest of one account: its watches' new matches, each with its item link and its watch's unsubscribe link. */
export function digestMail(userName: string, watches: WatchDigest[], siteUrl: string, tokens: WatchTokens): DigestMail {
  const count = watches.reduce((sum, watch) => sum + watch.alerts.length, 0);
  const lines = ["New listings match searches you watch on Spark Era.", ""];
  for (const watch of watches) {
    lines.push(`Your search: ${siteUrl}/marketplace/market${watch.search ? `?${watch.search}` : ""}`);
    for (const alert of watch.alerts) {
      lines.push(
        `- ${alert.name}, ${formatPrice(alert.price, alert.currency)}: ${siteUrl}/marketplace/detail?nftType=${alert.nft_type}&tokenId=${alert.token_id}`,
      );
    }
    lines.push(`Stop emails for this search: ${siteUrl}/marketplace/watches/unsubscribe?token=${tokens.sign(watch.watchId)}`, "");
  }
  lines.push(`Your inbox: ${siteUrl}/marketplace/inbox`);
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

/** Mails every due digest once; answers the mails sent. */
export async function runDigests(db: MarketDb, { siteUrl, tokens, send, now = Date.now, log = console }: DigestOptions): Promise<number> {
  const at = now();
  const dueBefore = at - DIGEST_INTERVAL_MS;
  const pending = await db.all<PendingAlert>(
    `select a.id, a.watch_id, a.user_name, a.nft_type, a.token_id, a.name, a.price, a.currency, w.search
     from market_watch_alerts a join market_watches w on w.id = a.watch_id
     where a.emailed_at is null and w.email_on = 1 and (w.emailed_at is null or w.emailed_at <= ?)
     order by a.id limit ?`,
    [dueBefore, DIGEST_BATCH],
  );
  if (!pending.length) return 0;
  const byWatch = new Map<number, WatchDigest>();
  for (const alert of pending) {
    const watch = byWatch.get(alert.watch_id) ?? { watchId: alert.watch_id, search: alert.search, alerts: [] };
    watch.alerts.push(alert);
    byWatch.set(alert.watch_id, watch);
  }
  const claimed = await db.write(async (tx) => {
    const won: WatchDigest[] = [];
    for (const watch of byWatch.values()) {
      const { changes } = await tx.run(
        "update market_watches set emailed_at = ? where id = ? and email_on = 1 and (emailed_at is null or emailed_at <= ?)",
        [at, watch.watchId, dueBefore],
      );
      if (!changes) continue;
      const last = watch.alerts[watch.alerts.length - 1].id;
      await tx.run("update market_watch_alerts set emailed_at = ? where watch_id = ? and emailed_at is null and id <= ?", [
        at,
        watch.watchId,
        last,
      ]);
      won.push(watch);
    }
    return won;
  });
  const byUser = new Map<string, WatchDigest[]>();
  for (const watch of claimed) {
    const user = watch.alerts[0].user_name;
    byUser.set(user, [...(byUser.get(user) ?? []), watch]);
  }
  let sent = 0;
  for (const [userName, watches] of byUser) {
    try {
      await send(digestMail(userName, watches, siteUrl, tokens));
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

/** Hands a digest to the SSO's mailer (backend/sso/watch-mail-routes.ts) over HTTP, with the internal token. */
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
