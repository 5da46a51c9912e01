/**
 * Analytics events through a configurable sink, `ANALYTICS_SINK` (parsed by env-values.server.ts):
 * - `log` (default): one JSON line on stdout;
 * - `off`: nothing;
 * - an http(s) URL: a fire-and-forget POST of the event as JSON; failures are swallowed (analytics never breaks a trade).
 * What the app sees alone goes out here; a managed wallet's on-chain actions are reported by the SSO backend (decision 0009).
 */
import { type AnalyticsEvent, type SelectContentEvent, sendToSink } from "~core/analytics";
import { getEnv } from "./env.server";

/** Emits the event; returns at once (an http POST continues in the background, and its failure is swallowed). */
export function emitAnalytics(
  event: AnalyticsEvent,
  { sink = getEnv().ANALYTICS_SINK, write = (line: string) => void process.stdout.write(`${line}\n`), fetchImpl = fetch } = {},
): void {
  // Analytics never breaks a trade.
  sendToSink(sink, { ...event, at: new Date().toISOString() }, { write, fetchImpl }).catch(() => undefined);
}

/** User agents that announce a crawler, a link preview or an automated browser. */
const NOT_A_PERSON = /bot\b|crawl|spider|slurp|preview|headless|lighthouse/i;

/**
 * Whether a person asked for this, as far as the request tells: not a HEAD, not a prefetch (browsers say
 * `Sec-Purpose` or `Purpose: prefetch`, Remix's prefetch links included) and not a user agent announcing a bot.
 */
export function isPersonOpening(request: Request): boolean {
  if (request.method === "HEAD") return false;
  const purpose = `${request.headers.get("sec-purpose") ?? ""} ${request.headers.get("purpose") ?? ""}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  return !NOT_A_PERSON.test(request.headers.get("user-agent") ?? "");
}

/** Remix's own search parameters on a data request: not part of the page's address. */
const DATA_PARAMS = ["_data", "_routes", "index"];

function pageAddress(url: URL): string {
  const search = new URLSearchParams(url.search);
  for (const name of DATA_PARAMS) search.delete(name);
  search.sort();
  return `${url.origin}${url.pathname.replace(/\.data$/, "")}?${search}`;
}

/**
 * Whether the request comes from the page it loads, so it is the page again rather than a view of it: Remix
 * revalidating after a post (its fetch is made from the page's own URL, where a client navigation's is made from
 * the page it leaves), the redirect back after a form post without JavaScript, a meta refresh. The Referer tells
 * (the site's policy is same-origin, so it is there for every request of ours).
 */
export function isSamePageAgain(request: Request): boolean {
  const referer = request.headers.get("referer");
  if (!referer) return false;
  try {
    return pageAddress(new URL(referer)) === pageAddress(new URL(request.url));
  } catch {
    return false;
  }
}

/** `select_content` for what the request opened, unless a bot or a prefetch asked for it. */
export function emitSelectContent(
  request: Request,
  content_type: SelectContentEvent["content_type"],
  item_id: string,
  options?: Parameters<typeof emitAnalytics>[1],
): void {
  if (isPersonOpening(request)) emitAnalytics({ event: "select_content", content_type, item_id }, options);
}

/** An item page's `select_content`, from its loader: once per page view, not each time the loader runs again. */
export function emitItemView(request: Request, item_id: string, options?: Parameters<typeof emitAnalytics>[1]): void {
  if (!isSamePageAgain(request)) emitSelectContent(request, "item", item_id, options);
}
