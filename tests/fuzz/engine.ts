/**
 * The fuzz engine: draws one request per seed (target, method, path and query, headers, body), sends it over
 * raw HTTP (so odd paths, methods and bodies reach the server as written), and tallies the answers. Any answer
 * ≥ 500 is a failure, printed with its seed so `npm run fuzz -- --replay <seed>` sends it again.
 */
import http from "node:http";
import { type AppTarget, type ApiTarget, apiFieldNames, apiTargets, apiValue, appTargets, publicFiles, routeIds } from "./targets";
import { EDGE_STRINGS, type Gen, Rng, garbage, requestSeed } from "./rng";
import { apiLogin, apiLogout, appLogin, postForm, registerAccount } from "./client";

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
}

/**
 * A throwaway account (never a demo one: wrong passwords would lock it for the other tests) signed in twice
 * in the app and twice in the SSO API, one of each then signed out.
 */
export async function prepareSessions(baseUrl: string): Promise<Sessions> {
  const account = await registerAccount(baseUrl, "fz");
  const liveCookie = await appLogin(baseUrl, account.email, account.password);
  const staleCookie = await appLogin(baseUrl, account.email, account.password);
  const signedOut = await postForm(baseUrl, "/logout", staleCookie, {});
  if (signedOut.status !== 302) throw new Error(`Logout answered ${signedOut.status}`);
  const staleToken = await apiLogin(baseUrl, account.email, account.password);
  await apiLogout(baseUrl, staleToken);
  return { liveCookie, staleCookie, liveToken: account.token, staleToken };
}

export async function fuzzContext(): Promise<FuzzContext> {
  const app = appTargets();
  return { app, api: await apiTargets(), routeIds: routeIds(app), publicFiles: publicFiles(), apiFields: apiFieldNames() };
}

// ---- encoding ------------------------------------------------------------------------------------------

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser would send them). */
function pct(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Text as raw bytes in a request line: UTF-8 bytes as latin1, without the characters no client may send there. */
function rawPathText(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[\u0000-\u0020\u007f]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** A value as a header may carry it (Node refuses control characters). */
function headerText(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "");
}

/** Mostly properly encoded; sometimes raw, so invalid escapes (`%ff`, `%zz`) and bare `&`/`=` reach the parser. */
function encodeValue(r: Rng, text: string): string {
  return r.chance(0.1) ? rawPathText(text) : pct(text);
}

// ---- bodies --------------------------------------------------------------------------------------------

interface Body {
  kind: string;
  contentType?: string;
  headers?: Record<string, string>;
  body: Buffer;
}

function pickFields(r: Rng, fields: Record<string, Gen>): [string, string][] {
  const names = Object.keys(fields);
  const chosen: [string, string][] = names.filter(() => r.chance(0.65)).map((name) => [name, fields[name](r)]);
  for (let i = r.int(0, 2); i > 0; i--) chosen.push([r.chance(0.5) ? garbage(r) : r.pick(EDGE_STRINGS), garbage(r)]);
  if (chosen.length && r.chance(0.15)) chosen.push([chosen[0][0], garbage(r)]);
  return chosen;
}

function urlencoded(r: Rng, pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${encodeValue(r, key)}=${encodeValue(r, value)}`).join("&");
}

function multipart(r: Rng, pairs: [string, string][], boundary: string): string {
  const parts = pairs.map(([key, value]) => {
    const file = r.chance(0.1) ? `; filename="${r.pick(["a.txt", "../../x", "", "ü.png"])}"\r\nContent-Type: ${r.pick(["text/plain", "image/png", "application/json"])}` : "";
    return `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/"/g, "%22")}"${file}\r\n\r\n${value}\r\n`;
  });
  return `${parts.join("")}--${boundary}--\r\n`;
}

function jsonValue(r: Rng, gen: Gen): unknown {
  return r.weighted<() => unknown>([
    [6, () => gen(r)],
    [1, () => r.int(-1e9, 1e9)],
    [1, () => r.pick([null, true, false, 1e308, -0, 0.1])],
    [1, () => [gen(r), gen(r)]],
    [1, () => ({ [garbage(r)]: gen(r), __proto__: { polluted: true } })],
  ])();
}

function deepJson(r: Rng): string {
  const depth = r.pick([100, 1000, 10_000, 40_000]);
  return r.chance(0.5) ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

function makeBody(r: Rng, fields: Record<string, Gen>, huge: boolean): Body {
  const pairs = () => pickFields(r, fields);
  const kind = r.weighted<string>([
    [30, "urlencoded"],
    [10, "multipart"],
    [6, "multipart-broken"],
    [10, "json"],
    [3, "json-deep"],
    [4, "json-broken"],
    [5, "text"],
    [6, "empty"],
    [3, "binary"],
    [4, "charset"],
    [3, "content-encoding"],
    [2, "many-fields"],
    [huge ? 2 : 0, "huge"],
  ]);
  switch (kind) {
    case "urlencoded":
      return { kind, contentType: r.pick(["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8", "APPLICATION/X-WWW-FORM-URLENCODED"]), body: Buffer.from(urlencoded(r, pairs()), "latin1") };
    case "multipart": {
      const boundary = `----fz${r.string(16)}`;
      return { kind, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(multipart(r, pairs(), boundary)) };
    }
    case "multipart-broken": {
      const boundary = `----fz${r.string(16)}`;
      const text = multipart(r, pairs(), boundary);
      return r.weighted<Body>([
        [1, { kind, contentType: "multipart/form-data", body: Buffer.from(text) }],
        [1, { kind, contentType: `multipart/form-data; boundary=other${boundary}`, body: Buffer.from(text) }],
        [1, { kind, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(text.slice(0, r.int(0, text.length - 1))) }],
        [1, { kind, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--`) }],
        [1, { kind, contentType: `multipart/form-data; boundary="${"b".repeat(100)}"`, body: Buffer.from(garbage(r)) }],
        [1, { kind, contentType: `multipart/mixed; boundary=${boundary}`, body: Buffer.from(text) }],
      ]);
    }
    case "json": {
      const object = Object.fromEntries(pickFields(r, fields).map(([key, value]) => [key, r.chance(0.7) ? value : jsonValue(r, garbage)]));
      const root = r.weighted<unknown>([
        [8, object],
        [1, [object]],
        [1, r.pick(["x", 1, null, true])],
      ]);
      return { kind, contentType: r.pick(["application/json", "application/json; charset=utf-8", "application/vnd.api+json", "text/json"]), body: Buffer.from(JSON.stringify(root)) };
    }
    case "json-deep":
      return { kind, contentType: "application/json", body: Buffer.from(deepJson(r)) };
    case "json-broken":
      return { kind, contentType: "application/json", body: Buffer.from(r.pick(["{", '{"a":', "nul", "\ufeff{}", "{'a':1}", '{"a":1,}', "[1,2", garbage(r)])) };
    case "text":
      return { kind, contentType: r.pick(["text/plain", "text/plain; charset=utf-8", "text/html", "application/xml"]), body: Buffer.from(r.chance(0.5) ? urlencoded(r, pairs()) : garbage(r)) };
    case "empty":
      return { kind, contentType: r.pick([undefined, "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json", "text/plain"]), body: Buffer.alloc(0) };
    case "binary": {
      const bytes = Buffer.alloc(r.int(1, 4096));
      for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(0, 255);
      return { kind, contentType: r.pick([undefined, "application/octet-stream", "application/x-www-form-urlencoded", "application/json", "image/png"]), body: bytes };
    }
    case "charset": {
      const type = r.pick(["application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data; boundary=x"]);
      const charset = r.pick(["utf-16", "utf-16le", "latin1", "bogus", "utf-7", '"', "iso-2022-jp"]);
      const text = type === "application/json" ? JSON.stringify(Object.fromEntries(pairs())) : urlencoded(r, pairs());
      return { kind, contentType: `${type}; charset=${charset}`, body: charset.startsWith("utf-16") ? Buffer.from(text, "utf16le") : Buffer.from(text) };
    }
    case "content-encoding": {
      const text = r.chance(0.5) ? urlencoded(r, pairs()) : JSON.stringify(Object.fromEntries(pairs()));
      return {
        kind,
        contentType: text.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded",
        headers: { "Content-Encoding": r.pick(["gzip", "deflate", "br", "identity", "bogus", "gzip, gzip"]) },
        body: Buffer.from(text),
      };
    }
    case "many-fields": {
      const count = r.pick([1001, 5000, 20_000]);
      return { kind, contentType: "application/x-www-form-urlencoded", body: Buffer.from(Array.from({ length: count }, (_, i) => `f${i}=${i}`).join("&")) };
    }
    default: {
      // Over every parser's limit: a 1 MB form value, JSON string or part.
      const big = "x".repeat(1_048_576);
      const field = r.pick(Object.keys(fields).concat("big"));
      return r.weighted<Body>([
        [1, { kind, contentType: "application/x-www-form-urlencoded", body: Buffer.from(`${pct(field)}=${big}`) }],
        [1, { kind, contentType: "application/json", body: Buffer.from(JSON.stringify({ [field]: big })) }],
        [1, { kind, contentType: "multipart/form-data; boundary=big", body: Buffer.from(multipart(r, [[field, big]], "big")) }],
      ]);
    }
  }
}

// ---- requests ------------------------------------------------------------------------------------------

const OTHER_METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS"] as const;
const EVIL_ORIGIN = "http://evil.example";

function methodFor(r: Rng, declared: "GET" | "POST" | null, hasAction: boolean): string {
  if (declared) return r.weighted<string>([[7, declared], [1, declared === "GET" ? "POST" : "GET"], [1, "HEAD"], [1, r.pick(OTHER_METHODS)]]);
  return hasAction
    ? r.weighted<string>([[5, "POST"], [3, "GET"], [1, "HEAD"], [1, r.pick(OTHER_METHODS)]])
    : r.weighted<string>([[5, "GET"], [1, "HEAD"], [2, "POST"], [1, r.pick(OTHER_METHODS)]]);
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
  const kind = r.weighted<SessionKind>([[60, "anon"], [25, "live"], [8, "stale"], [7, "forged"]]);
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
  maybe(0.03, "X-Forwarded-Host", () => r.pick(["evil.example", garbage(r)]));
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
  if (kind === "forged") return r.pick(["__session=garbage", `__session=${r.string(200)}.${r.string(20)}`, `__session=${"a".repeat(8000)}`, "__session=", "a=b; __session", garbage(r)]);
  return undefined;
}

function tokenFor(r: Rng, kind: SessionKind, sessions: Sessions): string | undefined {
  if (kind === "live") return sessions.liveToken;
  if (kind === "stale") return sessions.staleToken;
  if (kind === "forged") return r.pick(["", "null", r.string(64, "0123456789abcdef"), garbage(r)]);
  return undefined;
}

function appRequest(r: Rng, ctx: FuzzContext, target: AppTarget, origin: string, sessions: Sessions, huge: boolean): Omit<FuzzRequest, "seed"> {
  const method = methodFor(r, null, target.action);
  let pathname = fillPath(r, target.path, target.params);
  const query = queryOf(r, target.query);
  const transport = r.weighted<string>([[70, "document"], [12, "_data"], [12, ".data"], [6, "index"]]);
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
    const site = r.weighted<string>([[85, "same"], [8, "cross"], [7, "none"]]);
    if (site === "same") headers.Origin = origin;
    if (site === "cross") headers.Origin = r.pick([EVIL_ORIGIN, "null", origin.replace("127.0.0.1", "127.0.0.2"), `${origin}.evil.example`]);
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
    [2, ["raw:path", r.pick(["/lootbox/%ff", "/lootbox/%", "/%ff", "/%c0%ae%c0%ae/", "/.//evil.example", "/..//evil.example", "//evil.example", "/a/..//b", "/%2e%2e//x", "/marketplace/market/", "/MARKETPLACE/MARKET", "/login/", "/healthz?x=%ff"])]],
    [2, ["raw:api", `${r.pick(["/api/v1", "/sso", "/basic", "/store", "/api/user", "/dev/outbox"])}/${rawPathText(garbage(r)).slice(0, 200)}`]],
    [1, ["raw:path", `/${"a/".repeat(r.int(100, 2000))}`]],
    [1, ["raw:path", `/${rawPathText(garbage(r))}`]],
  ]);
  const method = r.weighted<string>([[6, "GET"], [1, "HEAD"], [2, "POST"], [1, r.pick(OTHER_METHODS)]]);
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
  const kind = r.weighted<"app" | "api" | "raw">([[55, "app"], [35, "api"], [10, "raw"]]);
  let request: Omit<FuzzRequest, "seed">;
  if (kind === "app") request = appRequest(r, ctx, r.pick(ctx.app), options.origin, options.sessions, options.huge);
  else if (kind === "api") request = apiRequest(r, ctx, r.pick(ctx.api), options.sessions, options.huge);
  else request = rawRequest(r, ctx, options.origin);
  // A bad Host breaks URL building in some servers; our own origin otherwise.
  if (r.chance(0.02)) request.headers.Host = headerText(r.pick(["", "[", "evil.example", "a b", "x".repeat(300), "127.0.0.1:99999", garbage(r)]));
  return { seed, ...request };
}

// ---- sending and tallying -----------------------------------------------------------------------------

export interface Outcome {
  request: FuzzRequest;
  status?: number;
  error?: string;
  ms: number;
  /** The start of the answer's body, for the report. */
  snippet: string;
}

function sendOnce(baseUrl: string, request: FuzzRequest, agent: http.Agent, timeoutMs: number): Promise<Omit<Outcome, "request" | "ms">> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        agent,
        headers: { ...request.headers, ...(request.body ? { "Content-Length": String(request.body.length) } : {}) },
        setHost: !("Host" in request.headers),
        timeout: timeoutMs,
      });
    } catch (error) {
      resolve({ error: `client refused to send: ${(error as Error).message}`, snippet: "" });
      return;
    }
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < 2048) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", () => resolve({ status: res.statusCode, snippet: Buffer.concat(chunks).toString("utf8").slice(0, 600) }));
      res.on("error", (error) => resolve({ status: res.statusCode, error: error.message, snippet: "" }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message, snippet: "" }));
    req.end(request.body);
  });
}

/** A reset before any answer: a reused or recycled connection (or a port still in TIME_WAIT), not the request's fault. */
const RETRIED = ["ECONNRESET", "EPIPE"];

export async function send(baseUrl: string, request: FuzzRequest, agent: http.Agent, timeoutMs = 30_000): Promise<Outcome> {
  const started = Date.now();
  let outcome = await sendOnce(baseUrl, request, agent, timeoutMs);
  for (let retry = 0; retry < 2 && outcome.status === undefined && RETRIED.includes(outcome.error ?? ""); retry++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    outcome = await sendOnce(baseUrl, request, agent, timeoutMs);
  }
  return { request, ms: Date.now() - started, ...outcome };
}

export interface Report {
  seed: number;
  requests: number;
  ms: number;
  byClass: Record<string, number>;
  byTarget: Record<string, Record<string, number>>;
  failures: Outcome[];
  /** Requests that got no HTTP answer, even after retries (a reset while a refused body was still being sent, a timeout). */
  errors: Outcome[];
  slowest: Outcome[];
}

function classOf(outcome: Outcome): string {
  if (outcome.status === undefined) return "error";
  return `${Math.floor(outcome.status / 100)}xx`;
}

export interface RunOptions extends DrawOptions {
  baseUrl: string;
  seed: number;
  count: number;
  concurrency: number;
  onProgress?: (done: number) => void;
}

export async function runFuzz(ctx: FuzzContext, options: RunOptions): Promise<Report> {
  const seeds = Array.from({ length: options.count }, (_, i) => requestSeed(options.seed, i));
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const report: Report = { seed: options.seed, requests: seeds.length, ms: 0, byClass: {}, byTarget: {}, failures: [], errors: [], slowest: [] };
  const started = Date.now();
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const request = drawRequest(seeds[next++], ctx, options);
      const outcome = await send(options.baseUrl, request, agent);
      const kind = classOf(outcome);
      report.byClass[kind] = (report.byClass[kind] ?? 0) + 1;
      const perTarget = (report.byTarget[request.target] ??= {});
      perTarget[kind] = (perTarget[kind] ?? 0) + 1;
      if (outcome.status !== undefined && outcome.status >= 500) report.failures.push(outcome);
      if (outcome.status === undefined) report.errors.push(outcome);
      report.slowest = [...report.slowest, outcome].sort((a, b) => b.ms - a.ms).slice(0, 5);
      options.onProgress?.(++finished);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  report.ms = Date.now() - started;
  return report;
}

// ---- reporting -------------------------------------------------------------------------------------------

/** The request as text: enough to send it again by hand (long bodies shortened, cookies named by kind). */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => {
      const shown = name === "Cookie" || name === "authToken" ? `<${request.session} ${name === "Cookie" ? "cookie" : "token"}> ${value.slice(0, 40)}…` : value;
      return `  ${name}: ${shown.length > 200 ? `${shown.slice(0, 200)}… (${shown.length} chars)` : shown}`;
    })
    .join("\n");
  const body = request.body
    ? `\n  body (${request.bodyKind}, ${request.body.length} bytes): ${JSON.stringify(request.body.subarray(0, 300).toString("latin1"))}${request.body.length > 300 ? "…" : ""}`
    : "";
  const path = request.path.length > 300 ? `${request.path.slice(0, 300)}… (${request.path.length} chars)` : request.path;
  return `seed ${request.seed} (0x${request.seed.toString(16)}) → ${request.target}\n  ${request.method} ${path}\n${headers}${body}`;
}

export function describeOutcome(outcome: Outcome): string {
  const answer = outcome.status === undefined ? `no answer after ${outcome.ms} ms: ${outcome.error}` : `${outcome.status} in ${outcome.ms} ms: ${JSON.stringify(outcome.snippet.slice(0, 300))}`;
  return `${describeRequest(outcome.request)}\n  → ${answer}`;
}

function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** What a failure looks like from outside, to group many failures into few causes. */
export function signature(outcome: Outcome): string {
  const { request } = outcome;
  const badHost = "Host" in request.headers ? " bad-Host" : "";
  const type = request.headers["Content-Type"]?.split(";", 1)[0].toLowerCase() ?? "no type";
  const body = request.body ? ` ${request.bodyKind} (${type})` : "";
  return `${outcome.status} ${request.target} ${request.method}${body}${badHost}`;
}

export function formatReport(report: Report): string {
  const classes = ["1xx", "2xx", "3xx", "4xx", "5xx", "error"];
  const line = (counts: Record<string, number>) => classes.map((kind) => String(counts[kind] ?? 0).padStart(6)).join("");
  const rows = Object.entries(report.byTarget)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([target, counts]) => `${target.padEnd(56)}${line(counts)}`);
  return [
    `Fuzz: ${report.requests} requests, seed ${report.seed} (0x${report.seed.toString(16)}), ${(report.ms / 1000).toFixed(1)} s`,
    `${"".padEnd(56)}${classes.map((kind) => kind.padStart(6)).join("")}`,
    `${"all".padEnd(56)}${line(report.byClass)}`,
    ...rows,
    "",
    `${report.failures.length} answers ≥ 500${report.failures.length ? ", by signature:" : ""}`,
    ...Object.entries(tally(report.failures.map(signature)))
      .sort(([, a], [, b]) => b - a)
      .map(([key, count]) => `${String(count).padStart(6)}  ${key}`),
    "",
    ...report.failures.map(describeOutcome),
    ...(report.errors.length ? ["", `${report.errors.length} requests without an answer:`, ...report.errors.slice(0, 20).map(describeOutcome)] : []),
    "",
    "Slowest:",
    ...report.slowest.map((outcome) => `  ${outcome.ms} ms  seed ${outcome.request.seed} ${outcome.request.method} ${outcome.request.path.slice(0, 120)}`),
  ].join("\n");
}
