/**
 * Watched searches in the app (issue 30 part 1, decision 0021): the market view's "Watch this search", the list of
 * watches, the inbox of alerts and the email's unsubscribe page. Everything is a plain form post and a server page;
 * the views get finished strings and paths, so no page ships formatting code.
 */
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { json } from "@remix-run/node";
import type { AlertRecord, AlertWatch, WatchRecord } from "~core/api/watches";
import { formatIsoTime } from "~core/chain-text";
import { DEFAULT_PAGE } from "~core/constants";
import { CURRENCIES, formatPrice, parseTokenAmount } from "~core/money";
import { loginHref } from "~/domain/login-href";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery } from "~/features/market/filters/market";
import type { MarketFilter } from "~/features/market/filters/market-options";
import { searchLabel } from "~/features/market/filters/search-label";
import { MARKET_PATH } from "~/features/market/filters/shared";
import { detailHref } from "~/features/market/market-views.server";
import { apis, backendProblem, getAuth, publicApis, signedInApis } from "~/services/apis.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { WATCH_MESSAGES } from "./watch-messages";
import { AddWatchSchema, RemoveWatchSchema } from "./watch-schemas.server";

export const WATCHES_PATH = "/marketplace/watches";
export const INBOX_PATH = "/marketplace/inbox";
export const UNSUBSCRIBE_PATH = "/marketplace/watches/unsubscribe";

const WATCH_FORM_WORDS = { ceiling: "Price ceiling (optional)", currency: "Currency", any: "Any currency", submit: "Watch this search" };

/**
 * The market view's watch control: the form for a signed-in user, a sign-in link back here for a visitor. Its words
 * come with the data, so the market page's JavaScript (its budget spent) carries none of them.
 */
export type WatchControl =
  | { search: string; action: string; words: typeof WATCH_FORM_WORDS; currencies: readonly string[] }
  | { login: string; text: string };

/**
 * What the market page shows of watching. Depends on the URL and whether there is a session only: a visitor's page
 * (no cookie) stays cacheable by its URL.
 */
export async function watchControl(request: Request, filter: MarketFilter): Promise<WatchControl> {
  const view = { ...filter, page: DEFAULT_PAGE };
  const { token } = await getAuth(request);
  return token
    ? { search: serializeMarketFilter(view), action: WATCHES_PATH, words: WATCH_FORM_WORDS, currencies: CURRENCIES }
    : { login: loginHref(marketHref(view)), text: "Sign in to watch this search" };
}

const viewHref = (search: string) => (search ? `${MARKET_PATH}?${search}` : MARKET_PATH);

/**
 * A watch in words: its view's label (searchLabel, as a collection offer's) with the watch's currency and ceiling
 * folded in as the backend folds them into its query ("Hero cards · Rarity: Legend · FIRE ≤ 500").
 */
export function watchLabel(watch: Pick<WatchRecord, "search" | "currency" | "ceiling">): string {
  const { filter } = parseMarketFilter(new URLSearchParams(watch.search));
  const ceiling = watch.ceiling === null ? undefined : BigInt(watch.ceiling);
  const max = ceiling !== undefined && (filter.price?.max === undefined || ceiling < filter.price.max) ? ceiling : filter.price?.max;
  const price = filter.price || max !== undefined ? { ...filter.price, max } : undefined;
  return searchLabel({ ...filter, currency: (watch.currency as MarketFilter["currency"]) ?? filter.currency, price });
}

/** A watch's label and the market view it follows. */
export interface WatchLink {
  label: string;
  href: string;
}

const watchLink = (watch: AlertWatch): WatchLink => ({ label: watchLabel(watch), href: viewHref(watch.search) });

export interface WatchRow extends WatchLink {
  id: number;
  price: string;
  fresh: string;
  email: string;
}

function watchRow(watch: WatchRecord): WatchRow {
  return {
    id: watch.id,
    ...watchLink(watch),
    price:
      watch.ceiling !== null && watch.currency
        ? `At or under ${formatPrice(watch.ceiling, watch.currency)}`
        : watch.currency
          ? `Any price in ${watch.currency}`
          : "Any price",
    fresh: watch.fresh === 0 ? "No new matches" : `${watch.fresh} new ${watch.fresh === 1 ? "match" : "matches"}`,
    email: watch.emailOn ? "Emails on" : "Emails off",
  };
}

/** The list of watches (a visitor is asked to log in); opening it is looking at them, so their new matches are counted, shown once, then seen. */
const noWatches: ReturnType<typeof watchRow>[] = [];
const noAlerts: ReturnType<typeof alertRow>[] = [];

export async function watchesPage(request: Request) {
  const { token, watches } = await apis(request);
  if (!token) return json({ login: loginHref(WATCHES_PATH), watches: noWatches, problem: null });
  try {
    const list = await watches.list();
    if (list.some((watch) => watch.fresh > 0)) await watches.markSeen();
    return json({ login: null, watches: list.map(watchRow), problem: null });
  } catch (error) {
    const problem = backendProblem(error);
    return json({ login: null, watches: noWatches, problem: problem.message }, { status: problem.status });
  }
}

export interface WatchActionData {
  result: SubmissionResult<string[]>;
  /** The view being watched, to post again, and its label. */
  search: string;
  label: string;
}

/**
 * Backend refusals of the ceiling or currency name their field ("currency: …"); the form shows them there. A 409
 * (already watched, too many) is in words already; any other refusal is about the view's query, which the person did
 * not write, so it is said in the product's words, never as the schema's path.
 */
function refusal(view: { search: string; label: string }, reason: string, status: number, values: Record<string, string>) {
  const match = /^(currency|ceiling): (.*)$/.exec(reason);
  const error = match ? { [match[1]]: [match[2]] } : { "": [status === 400 ? WATCH_MESSAGES.viewRefused : reason] };
  return json<WatchActionData>({ ...view, result: { status: "error", initialValue: values, error } }, { status });
}

export async function watchesAction(request: Request) {
  const form = await request.formData();
  const { watches } = await signedInApis(request, { returnTo: WATCHES_PATH });
  if (form.get("intent") === "remove") {
    const submission = parseWithZod(form, { schema: RemoveWatchSchema });
    if (submission.status !== "success") throw json({ message: "This request was incomplete. Please reload the page." }, { status: 400 });
    try {
      await watches.remove(submission.value.id);
    } catch (error) {
      const problem = backendProblem(error);
      return redirectWithToast(request, WATCHES_PATH, makeToast("error", problem.message));
    }
    return redirectWithToast(request, WATCHES_PATH, makeToast("success", "You no longer watch that search."));
  }
  const submission = parseWithZod(form, { schema: AddWatchSchema });
  const { filter } = parseMarketFilter(new URLSearchParams(typeof form.get("search") === "string" ? String(form.get("search")) : ""));
  const view = { ...filter, page: DEFAULT_PAGE };
  const search = serializeMarketFilter(view);
  if (submission.status !== "success") {
    return json<WatchActionData>({ search, label: searchLabel(view), result: submission.reply() }, { status: 400 });
  }
  const { currency } = submission.value;
  const ceiling = submission.value.ceiling === undefined ? undefined : parseTokenAmount(submission.value.ceiling)!.toString();
  const label = watchLabel({ search, currency: currency ?? null, ceiling: ceiling ?? null });
  try {
    await watches.add({ search, label, query: toMarketQuery(view), currency, ceiling });
  } catch (error) {
    const problem = backendProblem(error);
    const values = { ceiling: submission.value.ceiling ?? "", currency: currency ?? "" };
    return refusal({ search, label: searchLabel(view) }, problem.reason, problem.status, values);
  }
  return redirectWithToast(
    request,
    WATCHES_PATH,
    makeToast("success", "You are watching this search. New matches will show in your inbox."),
  );
}

export interface AlertRow {
  id: number;
  title: string;
  price: string;
  href: string;
  /** The watches the listing matched (one alert per listing). */
  watches: WatchLink[];
  when: string;
  unread: boolean;
}

function alertRow(alert: AlertRecord): AlertRow {
  return {
    id: alert.id,
    title: alert.name,
    price: formatPrice(alert.price, alert.currency),
    href: detailHref(alert, INBOX_PATH),
    watches: alert.watches.map(watchLink),
    when: formatIsoTime(alert.createdAt),
    unread: !alert.read,
  };
}

/** The inbox, newest first (a visitor is asked to log in); opening it reads it (the header's count goes back to 0). */
export async function inboxPage(request: Request) {
  const { token, watches } = await apis(request);
  if (!token) return json({ login: loginHref(INBOX_PATH), alerts: noAlerts, unread: 0, problem: null });
  try {
    const inbox = await watches.inbox();
    if (inbox.unread > 0) await watches.markRead();
    return json({ login: null, alerts: inbox.alerts.map(alertRow), unread: inbox.unread, problem: null });
  } catch (error) {
    const problem = backendProblem(error);
    return json({ login: null, alerts: noAlerts, unread: 0, problem: problem.message }, { status: problem.status });
  }
}

export type UnsubscribeView =
  | { state: "confirm" | "done"; token: string; viewHref: string; emailOn: boolean }
  | { state: "refused"; message: string };

const tokenOf = (value: FormDataEntryValue | string | null) => (typeof value === "string" ? value.slice(0, 100) : "");

/** GET shows what the link stops, and changes nothing: mail scanners open links. */
export async function unsubscribePage(request: Request) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  return unsubscribeAnswer(token, "confirm", () => publicApis().watches.unsubscribeTarget(token));
}

/** POST stops the watch's emails. */
export async function unsubscribeAction(request: Request) {
  const token = tokenOf((await request.formData()).get("token"));
  return unsubscribeAnswer(token, "done", () => publicApis().watches.unsubscribe(token));
}

async function unsubscribeAnswer(token: string, state: "confirm" | "done", call: () => Promise<{ search: string; emailOn: boolean }>) {
  try {
    const target = await call();
    return json<UnsubscribeView>({ state, token, viewHref: viewHref(target.search), emailOn: target.emailOn });
  } catch (error) {
    const problem = backendProblem(error);
    return json<UnsubscribeView>({ state: "refused", message: problem.message }, { status: problem.status });
  }
}
