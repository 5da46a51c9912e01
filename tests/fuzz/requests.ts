/**
 * Draws one request per seed: a target (an app route, a backend endpoint, or an odd path outside both), its
 * method, path and query, headers, session and body. The same seed always gives the same request.
 */
import { type AppTarget, type ApiTarget, apiValue } from "./targets";
import { type Gen, Rng, garbage } from "./rng";
import { encodeValue, headerText, rawPathText } from "./encoding";
import { type Body, makeBody } from "./bodies";

export type SessionKind = "anon" | "live" | "stale" | "forged";

/** Credentials the requests may carry: a live and a signed-out app cookie, a live and a signed-out SSO token. */
export interface Sessions {
  liveCookie: string;
  staleCookie: string;
  liveToken: string;
  staleToken: string;
}

export interface FuzzRequest {
  seed: number;
  /** The target's id, or `raw:…` for odd paths outside every route. */
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Which body generator made the body. */
  bodyKind: string;
  session: SessionKind;
}

export interface FuzzContext {
  app: AppTarget[];
  api: ApiTarget[];
  routeIds: string[];
  publicFiles: string[];
  apiFields: string[];
  /** The build's manifest version, which Remix's route discovery endpoint asks for before it matches anything. */
  manifestVersion: string;
}

const OTHER_METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS"] as const;
const EVIL_ORIGIN = "http://evil.example";

function methodFor(r: Rng, declared: "GET" | "POST" | null, hasAction: boolean): string {
  if (declared)
    return r.weighted<string>([
      [7, declared],
      [1, declared === "GET" ? "POST" : "GET"],
      [1, "HEAD"],
      [1, r.pick(OTHER_METHODS)],
    ]);
  return hasAction
    ? r.weighted<string>([
        [5, "POST"],
        [3, "GET"],
        [1, "HEAD"],
        [1, r.pick(OTHER_METHODS)],
      ])
    : r.weighted<string>([
        [5, "GET"],
        [1, "HEAD"],
        [2, "POST"],
        [1, r.pick(OTHER_METHODS)],
      ]);
}

function fillPath(r: Rng, pattern: string, params: Record<string, Gen>): string {
  return pattern
    .replace(/\/:(\w+)\?/g, (_, name: string) => (r.chance(0.5) ? "" : `/${encodeValue(r, (params[name] ?? garbage)(r))}`))
    .replace(/:(\w+)/g, (_, name: string) => encodeValue(r, (params[name] ?? garbage)(r)))
    .replace("*", () => rawPathText((params["*"] ?? garbage)(r)));
}

function queryOf(r: Rng, keys: Record<string, Gen>): [string, string][] {
  const names = Object.keys(keys);
  const pairs: [string, string][] = r.sample(names, r.int(0, Math.min(5, names.length))).map((name) => [name, keys[name](r)]);
  if (r.chance(0.15)) pairs.push([r.pick([garbage(r), "a[]", "a[b][c]", "__proto__[x]", "constructor[prototype][x]"]), garbage(r)]);
  if (pairs.length && r.chance(0.1)) pairs.push([pairs[0][0], garbage(r)]);
  return pairs;
}

function sessionFor(r: Rng, endsSession: boolean | undefined): SessionKind {
  const kind = r.weighted<SessionKind>([
    [60, "anon"],
    [25, "live"],
    [8, "stale"],
    [7, "forged"],
  ]);
  // Signing out the live session would leave the rest of the run anonymous.
  return kind === "live" && endsSession ? "stale" : kind;
}

function oddHeaders(r: Rng): Record<string, string> {
  const headers: Record<string, string> = {};
  const maybe = (p: number, name: string, value: () => string) => {
    if (r.chance(p)) headers[name] = headerText(value());
  };
  maybe(0.5, "Accept", () => r.pick(["text/html", "application/json", "*/*", "text/x-script", "", garbage(r)]));
  maybe(0.2, "Accept-Encoding", () => r.pick(["gzip", "br", "identity;q=0", "*;q=0", "gzip;q=NaN", garbage(r)]));
  maybe(0.1, "Accept-Language", () => r.pick(["zh-CN", "*", "x;q=2", garbage(r)]));
  maybe(0.05, "Range", () => r.pick(["bytes=0-10", "bytes=999999999-", "bytes=-1", "lines=1-2", garbage(r)]));
  maybe(0.05, "If-None-Match", () => r.pick(['"x"', "*", garbage(r)]));
  maybe(0.05, "If-Modified-Since", () => r.pick(["Thu, 01 Jan 1970 00:00:00 GMT", garbage(r)]));
  maybe(0.05, "X-Forwarded-For", () => r.pick(["1.2.3.4", "::1", "1.2.3.4, 5.6.7.8", "not-an-ip", garbage(r)]));
  maybe(0.03, "X-Forwarded-Proto", () => r.pick(["https", "gopher", garbage(r)]));
  maybe(0.03, "X-Forwarded-Host", () => r.pick(["evil.example", "a:99999", "a.example, b:-1", `${"x".repeat(64)}.example`, garbage(r)]));
  maybe(0.03, "x-spark-internal", () => r.string(32, "0123456789abcdef"));
  maybe(0.03, "x-spark-client-ip", () => r.pick(["9.9.9.9", garbage(r)]));
  maybe(0.05, "User-Agent", () => garbage(r));
  maybe(0.03, "Sec-Fetch-Site", () => r.pick(["same-origin", "cross-site", "same-site", "none", garbage(r)]));
  return headers;
}

/** A cookie header for the session kind (the value is filled in when sending, from the run's sessions). */
function cookieFor(r: Rng, kind: SessionKind, sessions: Sessions): string | undefined {
  if (kind === "live") return sessions.liveCookie;
  if (kind === "stale") return sessions.staleCookie;
  if (kind === "forged")
    return r.pick([
      "__session=garbage",
      `__session=${r.string(200)}.${r.string(20)}`,
      `__session=${"a".repeat(8000)}`,
      "__session=",
      "a=b; __session",
      garbage(r),
    ]);
  return undefined;
}

function tokenFor(r: Rng, kind: SessionKind, sessions: Sessions): string | undefined {
  if (kind === "live") return sessions.liveToken;
  if (kind === "stale") return sessions.staleToken;
  if (kind === "forged") return r.pick(["", "null", r.string(64, "0123456789abcdef"), garbage(r)]);
  return undefined;
}

function appRequest(
  r: Rng,
  ctx: FuzzContext,
  target: AppTarget,
  origin: string,
  sessions: Sessions,
  huge: boolean,
): Omit<FuzzRequest, "seed"> {
  const method = methodFor(r, null, target.action);
  let pathname = fillPath(r, target.path, target.params);
  const query = queryOf(r, target.query);
  const transport = r.weighted<string>([
    [70, "document"],
    [12, "_data"],
    [12, ".data"],
    [6, "index"],
  ]);
  if (transport === "_data") query.push(["_data", r.chance(0.7) ? target.id : r.chance(0.5) ? r.pick(ctx.routeIds) : garbage(r)]);
  if (transport === "index") query.push(["index", r.pick(["", "1", garbage(r)])]);
  if (transport === ".data") {
    pathname = pathname === "/" ? "/_root.data" : `${pathname.replace(/\/$/, "")}.data`;
    if (r.chance(0.3)) query.push(["_routes", r.chance(0.6) ? r.sample(ctx.routeIds, r.int(1, 3)).join(",") : garbage(r)]);
  }
  const session = sessionFor(r, target.endsSession);
  const headers = oddHeaders(r);
  const cookie = cookieFor(r, session, sessions);
  if (cookie) headers.Cookie = headerText(cookie);
  const withBody = method !== "GET" && method !== "HEAD" ? r.chance(0.95) : r.chance(0.05);
  const body = withBody ? makeBody(r, target.form, huge) : undefined;
  if (method !== "GET" && method !== "HEAD") {
    const site = r.weighted<string>([
      [85, "same"],
      [8, "cross"],
      [7, "none"],
    ]);
    if (site === "same") headers.Origin = origin;
    if (site === "cross")
      headers.Origin = r.pick([EVIL_ORIGIN, "null", origin.replace("127.0.0.1", "127.0.0.2"), `${origin}.evil.example`]);
  }
  const search = query.length ? `?${query.map(([key, value]) => `${encodeValue(r, key)}=${encodeValue(r, value)}`).join("&")}` : "";
  return finish({ target: target.id, method, path: pathname + search, headers, session }, body);
}

function apiRequest(r: Rng, ctx: FuzzContext, target: ApiTarget, sessions: Sessions, huge: boolean): Omit<FuzzRequest, "seed"> {
  const method = methodFor(r, target.method === "GET" ? "GET" : "POST", false);
  const fields = Object.fromEntries(r.sample(ctx.apiFields, r.int(0, 8)).map((name) => [name, apiValue(name)]));
  const query = method === "GET" || r.chance(0.2) ? queryOf(r, fields) : [];
  const session = sessionFor(r, target.endsSession);
  const headers = oddHeaders(r);
  const token = tokenFor(r, session, sessions);
  if (token !== undefined) headers.authToken = headerText(token);
  const withBody = method !== "GET" && method !== "HEAD" ? r.chance(0.95) : r.chance(0.05);
  const body = withBody ? makeBody(r, fields, huge) : undefined;
  const search = query.length ? `?${query.map(([key, value]) => `${encodeValue(r, key)}=${encodeValue(r, value)}`).join("&")}` : "";
  return finish({ target: target.id, method, path: fillPath(r, target.path, target.params) + search, headers, session }, body);
}

/** Paths outside every route: static files bent out of shape, dot segments, unknown API paths, huge paths. */
function rawRequest(r: Rng, ctx: FuzzContext, origin: string): Omit<FuzzRequest, "seed"> {
  const file = r.pick(ctx.publicFiles);
  const [target, path] = r.weighted<[string, string]>([
    [3, ["raw:static", `${file}${r.pick(["", "%ff", "%00", "/", "/..", "?x=%ff", "%2f..%2f..%2fpackage.json", ".map"])}`]],
    [2, ["raw:static", `/build/${r.pick(["%ff", "..%2f..%2fserver.ts", "manifest-x.js", "%e0%a4%a", `${"a".repeat(300)}.js`])}`]],
    [
      2,
      [
        "raw:path",
        r.pick([
          "/lootbox/%ff",
          "/lootbox/%",
          "/%ff",
          "/%c0%ae%c0%ae/",
          "/.//evil.example",
          "/..//evil.example",
          "//evil.example",
          "/a/..//b",
          "/%2e%2e//x",
          "/marketplace/market/",
          "/MARKETPLACE/MARKET",
          "/login/",
          "/healthz?x=%ff",
        ]),
      ],
    ],
    [
      2,
      [
        "raw:api",
        `${r.pick(["/api/v1", "/sso", "/basic", "/store", "/api/user", "/dev/outbox"])}/${rawPathText(garbage(r)).slice(0, 200)}`,
      ],
    ],
    // Long and deep paths: Remix's route discovery costs the square of the segments (issue 24), in a page's own path
    // and in each path its manifest endpoint is asked about. Node refuses a request line over 16 KB with a 431.
    [1, ["raw:path", `/${"a/".repeat(r.int(100, 7000))}`]],
    [1, ["raw:path", `/marketplace/${"x".repeat(r.int(1000, 15000))}`]],
    [1, ["raw:manifest", `/__manifest?version=${ctx.manifestVersion}&p=${"/a".repeat(r.int(60, 3800))}`]],
    [1, ["raw:path", `/${rawPathText(garbage(r))}`]],
  ]);
  const method = r.weighted<string>([
    [6, "GET"],
    [1, "HEAD"],
    [2, "POST"],
    [1, r.pick(OTHER_METHODS)],
  ]);
  const headers = oddHeaders(r);
  if (method !== "GET" && method !== "HEAD") headers.Origin = r.chance(0.9) ? origin : EVIL_ORIGIN;
  const body = method !== "GET" && method !== "HEAD" ? makeBody(r, {}, false) : undefined;
  return finish({ target, method, path, headers, session: "anon" }, body);
}

function finish(request: Omit<FuzzRequest, "seed" | "bodyKind" | "body">, body: Body | undefined): Omit<FuzzRequest, "seed"> {
  if (!body) return { ...request, bodyKind: "none" };
  const headers = { ...request.headers, ...body.headers };
  if (body.contentType) headers["Content-Type"] = body.contentType;
  return { ...request, headers, body: body.body, bodyKind: body.kind };
}

export interface DrawOptions {
  /** The server's origin, sent as Origin on same-site posts. */
  origin: string;
  sessions: Sessions;
  /** Allow 1 MB bodies. */
  huge: boolean;
}

/** The request of one seed: the same seed always gives the same request (given the same code and sessions). */
export function drawRequest(seed: number, ctx: FuzzContext, options: DrawOptions): FuzzRequest {
  const r = new Rng(seed);
  const kind = r.weighted<"app" | "api" | "raw">([
    [55, "app"],
    [35, "api"],
    [10, "raw"],
  ]);
  let request: Omit<FuzzRequest, "seed">;
  if (kind === "app") request = appRequest(r, ctx, r.pick(ctx.app), options.origin, options.sessions, options.huge);
  else if (kind === "api") request = apiRequest(r, ctx, r.pick(ctx.api), options.sessions, options.huge);
  else request = rawRequest(r, ctx, options.origin);
  // A bad Host breaks URL building in some servers; our own origin otherwise.
  if (r.chance(0.02))
    request.headers.Host = headerText(
      r.pick([
        "",
        "[",
        "evil.example",
        "a b",
        "x".repeat(300),
        "x".repeat(5000),
        `${"a".repeat(64)}.example`,
        `${"abc.".repeat(64)}example`,
        "127.0.0.1:99999",
        garbage(r),
      ]),
    );
  return { seed, ...request };
}
