/**
 * The fuzz run: prepares the sessions and targets, sends each drawn request over raw HTTP (so odd paths,
 * methods and bodies reach the server as written) and tallies the answers. Any answer ≥ 500 is a failure,
 * printed with its seed so `npm run fuzz -- --replay <seed>` sends it again.
 */
import http from "node:http";
import { apiFieldNames, apiTargets, appTargets, manifestVersion, publicFiles, routeIds } from "./targets";
import { requestSeed } from "./rng";
import { apiLogin, apiLogout, appLogin, postForm, registerAccount } from "./client";
import { type DrawOptions, type FuzzContext, type FuzzRequest, type Sessions, drawRequest } from "./requests";

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
  return {
    app,
    api: await apiTargets(),
    routeIds: routeIds(app),
    publicFiles: publicFiles(),
    apiFields: apiFieldNames(),
    manifestVersion: manifestVersion(),
  };
}

export interface Outcome {
  request: FuzzRequest;
  status?: number;
  error?: string;
  ms: number;
  /** The server's own render time, from its Server-Timing header, when it rendered a page. */
  renderMs?: number;
  /** The start of the answer's body, for the report. */
  snippet: string;
}

function renderTimeOf(serverTiming: string | undefined): number | undefined {
  const match = serverTiming && /(?:^|,)\s*render;dur=([\d.]+)/.exec(serverTiming);
  return match ? Number(match[1]) : undefined;
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
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          renderMs: renderTimeOf(res.headers["server-timing"] as string | undefined),
          snippet: Buffer.concat(chunks).toString("utf8").slice(0, 600),
        }),
      );
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
  /** The request whose page took the server longest to render. */
  longestRender?: Outcome;
  /** /healthz asked every 100 ms through the run: how often, and its slowest answer (a stalled event loop shows here). */
  healthz: { probes: number; worstMs: number; failures: number };
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
  const report: Report = {
    seed: options.seed,
    requests: seeds.length,
    ms: 0,
    byClass: {},
    byTarget: {},
    failures: [],
    errors: [],
    slowest: [],
    healthz: { probes: 0, worstMs: 0, failures: 0 },
  };
  const started = Date.now();
  let running = true;
  const probeHealth = async () => {
    const probe: FuzzRequest = {
      seed: 0,
      target: "healthz",
      method: "GET",
      path: "/healthz",
      headers: {},
      bodyKind: "none",
      session: "anon",
    };
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (running) {
      const outcome = await send(options.baseUrl, probe, probeAgent, 10_000);
      report.healthz.probes++;
      report.healthz.worstMs = Math.max(report.healthz.worstMs, outcome.ms);
      if (outcome.status !== 200) report.healthz.failures++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    probeAgent.destroy();
  };
  const health = probeHealth();
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
      if ((outcome.renderMs ?? 0) > (report.longestRender?.renderMs ?? 0)) report.longestRender = outcome;
      options.onProgress?.(++finished);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  running = false;
  await health;
  agent.destroy();
  report.ms = Date.now() - started;
  return report;
}
