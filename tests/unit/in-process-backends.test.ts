/**
 * Decision 0036: the app calls its embedded backends in process, through the backends' own router. Each call must
 * come back as it would over loopback HTTP: the same envelope, the same errors, the same headers seen by the
 * handlers (token, internal token, the browser's address, the request id), the same body parsing, the same metrics.
 * A router built like startBackends' (its body parsers, backend/http.ts helpers) answers both ways here, and each
 * test compares the two transports.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { handle, parseInput, sendError, sendOk } from "../../backend/http";
import { clientAddress } from "../../backend/client-address";
import { inProcessBackends } from "../../server/in-process-backends";
import { refuseMalformedRequests } from "../../server/malformed-request";
import { inProcessTransport, serveEmbeddedBackendsInProcess } from "~/services/embedded-backends.server";
import {
  BackendError,
  createBackendClient,
  SessionExpiredError,
  type BackendClient,
  type BackendTransport,
} from "~/services/http-client.server";
import { backendCallFailures, backendCallSeconds } from "~/services/metrics.server";
import { requestScope, type RequestScope } from "~/services/request-scope.server";

const INTERNAL = "internal-token-0123456789";
const API_PATHS = ["/sso", "/api/v1"];

/** What the handlers saw of each call. */
const seen: { id?: string; ip: string; client: string; token?: string; logged: boolean; body?: unknown }[] = [];
let release: (() => void) | undefined;

/** Like startBackends' router: body parsers on the API paths, handlers answering in the envelope. */
function backendRouter() {
  const router = express.Router();
  router.use(API_PATHS, express.json({ limit: "100kb" }));
  const note = (req: Request) =>
    seen.push({
      id: (req as { id?: string }).id,
      ip: req.ip ?? "",
      client: clientAddress(req, INTERNAL),
      token: req.get("authToken"),
      logged: Boolean((req as { log?: unknown }).log),
      body: req.body as unknown,
    });
  router.get(
    "/api/v1/items/:id",
    handle((req, res) => {
      note(req);
      sendOk(res, { id: req.params.id, query: req.query, price: "1000000000000000000" });
    }),
  );
  router.post(
    "/api/v1/orders",
    handle((req, res) => {
      note(req);
      const order = parseInput(z.object({ price: z.string().regex(/^\d+$/), note: z.string().optional() }), req.body);
      sendOk(res, { order }, "listed");
    }),
  );
  router.get(
    "/sso/user",
    handle((req, res) => {
      if (!req.get("authToken")) return sendError(res, 401, "Invalid session");
      sendOk(res, { name: "demo" });
    }),
  );
  router.get(
    "/api/v1/soft",
    handle((_req, res) => {
      res.json({ code: 200, msg: "Already sold", data: null, success: false });
    }),
  );
  router.get(
    "/api/v1/broken",
    handle(() => {
      throw new Error("a bug");
    }),
  );
  router.get(
    "/api/v1/stall",
    handle(() => new Promise<void>((resolve) => (release = resolve))),
  );
  return router;
}

/** The same router mounted as server.ts mounts it, over HTTP: what a loopback call reaches. */
let server: http.Server;
let baseUrl: string;
let inProcess: BackendTransport;

beforeAll(async () => {
  const router = backendRouter();
  const app = express();
  app.set("etag", false);
  app.use((req, _res, next) => {
    const id = req.headers["x-request-id"];
    if (typeof id === "string") (req as { id?: string }).id = id;
    (req as { log?: unknown }).log = { error() {} };
    next();
  });
  // server.ts: malformed paths are refused first, then the internal call goes to the backends' router.
  app.use(refuseMalformedRequests({ apiPaths: API_PATHS, warn: () => undefined }));
  app.use(router);
  app.use(API_PATHS, (_req, res) => {
    res.status(404).json({ code: 404, msg: "Not found", data: null, success: false });
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  serveEmbeddedBackendsInProcess(inProcessBackends(router, { apiPaths: API_PATHS, warn: () => undefined }));
  inProcess = inProcessTransport()!;
});

afterAll(async () => {
  serveEmbeddedBackendsInProcess(undefined);
  release?.();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A client of each kind, as backendClients makes them for the embedded backends. */
function clients(options: { token?: string; timeoutMs?: number } = {}): Record<"http" | "inProcess", BackendClient> {
  const common = { timeoutMs: options.timeoutMs ?? 2000, token: options.token, internalToken: INTERNAL };
  return {
    http: createBackendClient({ baseUrl, ...common }),
    // An address nothing listens on: a call that went over HTTP would fail.
    inProcess: createBackendClient({ baseUrl: "http://127.0.0.1:9", transport: inProcess, ...common }),
  };
}

const scope = (extra: Partial<RequestScope> = {}): RequestScope => ({
  clientIp: "203.0.113.7",
  deadline: Date.now() + 5000,
  requestId: "req-abc-1",
  log: { error() {} } as unknown as RequestScope["log"],
  ...extra,
});

/** Each kind's outcome of `call`: the data, or the error's name, message and status. */
async function both<T>(call: (client: BackendClient) => Promise<T>, options?: { token?: string; timeoutMs?: number }) {
  type Outcome = { data?: T; error?: { name: string; message: string; status?: number } };
  const outcome = (promise: Promise<T>): Promise<Outcome> =>
    promise.then(
      (data) => ({ data }),
      (error: Error & { status?: number }) => ({ error: { name: error.name, message: error.message, status: error.status } }),
    );
  const { http: overHttp, inProcess: here } = clients(options);
  return {
    http: await requestScope.run(scope(), () => outcome(call(overHttp))),
    inProcess: await requestScope.run(scope(), () => outcome(call(here))),
  };
}

describe("the in-process transport", () => {
  it("is there only once server.ts has handed over a dispatcher", () => {
    serveEmbeddedBackendsInProcess(undefined);
    expect(inProcessTransport()).toBeUndefined();
    serveEmbeddedBackendsInProcess(inProcessBackends(backendRouter(), { apiPaths: API_PATHS }));
    expect(inProcessTransport()).toBeTypeOf("function");
  });

  it("unwraps the same data, with the query parsed as over HTTP", async () => {
    const { http: a, inProcess: b } = await both((client) =>
      client.get("/api/v1/items/12", { query: { camp: [0, 2], min: { level: 3 }, q: "a b/ü" } }),
    );
    expect(a).toEqual({ data: { id: "12", query: { camp: "0,2", min: { level: "3" }, q: "a b/ü" }, price: "1000000000000000000" } });
    expect(b).toEqual(a);
  });

  it("sends the body through the same parser and validation", async () => {
    const ok = await both((client) => client.post("/api/v1/orders", { body: { price: 5n * 10n ** 18n, note: undefined } }));
    expect(ok.http).toEqual({ data: { order: { price: "5000000000000000000" } } });
    expect(ok.inProcess).toEqual(ok.http);
    expect(seen.at(-1)!.body).toEqual({ price: "5000000000000000000" });
    const refused = await both((client) => client.post("/api/v1/orders", { body: { price: "five" } }));
    expect(refused.http).toMatchObject({ error: { name: "BackendError", status: 400 } });
    expect(refused.inProcess).toEqual(refused.http);
    const tooLarge = await both((client) => client.post("/api/v1/orders", { body: { price: "1", note: "x".repeat(110_000) } }));
    expect(tooLarge.http).toEqual({ error: { name: "BackendError", message: "Request failed (413)", status: 413 } });
    expect(tooLarge.inProcess).toEqual(tooLarge.http);
  });

  it("shows the handlers the same token, internal token, browser's address and request id", async () => {
    seen.length = 0;
    await both((client) => client.get("/api/v1/items/1"), { token: "tok-1" });
    const [overHttp, here] = seen;
    expect(overHttp).toMatchObject({ id: "req-abc-1", client: "203.0.113.7", token: "tok-1", logged: true });
    expect(here).toMatchObject({ id: "req-abc-1", client: "203.0.113.7", token: "tok-1", logged: true });
    expect(here.ip).toBe("127.0.0.1");
  });

  it("turns a 401 into SessionExpiredError and any other failure into the same BackendError", async () => {
    const expired = await both((client) => client.get("/sso/user"));
    expect(expired.http.error?.name).toBe(new SessionExpiredError().name);
    expect(expired.inProcess).toEqual(expired.http);
    expect((await both((client) => client.get("/sso/user"), { token: "t" })).inProcess).toEqual({ data: { name: "demo" } });
    for (const path of ["/api/v1/soft", "/api/v1/nothing-here", "/sso/../api/v1/nothing", "/api/v1/items/%ff"]) {
      const { http: a, inProcess: b } = await both((client) => client.get(path));
      expect(a.error?.name, path).toBe("BackendError");
      expect(b, path).toEqual(a);
    }
  });

  it("answers a handler's uncaught error as the backend's 500, a BackendError", async () => {
    const { http: a, inProcess: b } = await both((client) => client.get("/api/v1/broken"));
    expect(a).toEqual({ error: { name: "BackendError", message: "Internal error", status: 500 } });
    expect(b).toEqual(a);
  });

  it("gives up at the call's deadline with the same 504, and at the request's", async () => {
    const error = await clients({ timeoutMs: 100 })
      .inProcess.get("/api/v1/stall")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status: 504 });
    release?.();
    const late = await requestScope.run(scope({ deadline: Date.now() + 100 }), () =>
      clients()
        .inProcess.get("/api/v1/stall")
        .catch((e: unknown) => e),
    );
    expect(late).toMatchObject({ status: 504 });
    release?.();
  });

  it("counts its calls and failures under the same metric labels", async () => {
    const count = async (endpoint: string) =>
      (await backendCallSeconds.get()).values.find(
        (v) => v.metricName === "spark_backend_call_duration_seconds_count" && v.labels.endpoint === endpoint,
      )?.value ?? 0;
    const failures = async (endpoint: string) =>
      (await backendCallFailures.get()).values.find((v) => v.labels.endpoint === endpoint && v.labels.reason === "server_error")?.value ??
      0;
    const [calls, failed] = [await count("/api/v1/items/:id"), await failures("/api/v1/broken")];
    await clients().inProcess.get("/api/v1/items/123456");
    await clients()
      .inProcess.get("/api/v1/broken")
      .catch(() => undefined);
    expect(await count("/api/v1/items/:id")).toBe(calls + 1);
    expect(await failures("/api/v1/broken")).toBe(failed + 1);
  });
});
