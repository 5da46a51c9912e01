import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendError, createBackendClient, SessionExpiredError, toQueryString } from "~/services/http-client.server";
import { requestScope } from "~/services/request-scope.server";

/** A real local server that answers, fails or stalls as each path says. */
let server: http.Server;
let baseUrl: string;
const seen: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
      };
      if (req.url?.startsWith("/ok")) return send(200, { code: 200, msg: "success", data: { value: 42 }, success: true });
      if (req.url?.startsWith("/expired")) return send(401, { code: 401, msg: "expired", data: null, success: false });
      if (req.url?.startsWith("/code401")) return send(200, { code: 401, msg: "expired", data: null });
      if (req.url?.startsWith("/refused")) return send(400, { code: 400, msg: "Price has changed", data: null, success: false });
      if (req.url?.startsWith("/soft-fail")) return send(200, { code: 200, msg: "Already sold", data: null, success: false });
      if (req.url?.startsWith("/code-error")) return send(200, { code: 500, codeError: "Bad things" });
      if (req.url?.startsWith("/html")) return send(502, "<html>Bad gateway</html>");
      if (req.url?.startsWith("/stall")) return; // never answers
      if (req.url?.startsWith("/trickle")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"code":200,'); // then never finishes
        return;
      }
      if (req.url?.startsWith("/cut")) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"code":200,');
        setTimeout(() => res.destroy(), 10);
        return;
      }
      send(404, { code: 404, msg: "Not found", data: null, success: false });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("toQueryString", () => {
  it("writes nested objects as name[key], lists as comma lists, and drops empty values", () => {
    expect(toQueryString({ pageNumber: 1, camp: [0, 2], min: { level: 3, price: 10n ** 18n }, address: undefined, x: null })).toBe(
      "?pageNumber=1&camp=0%2C2&min%5Blevel%5D=3&min%5Bprice%5D=1000000000000000000",
    );
    expect(toQueryString({})).toBe("");
  });
});

describe("createBackendClient", () => {
  it("unwraps data and sends the authToken header and a JSON body", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 1000, token: "tok-1" });
    await expect(client.post("/ok", { query: { a: 1 }, body: { price: 5n } })).resolves.toEqual({ value: 42 });
    const last = seen.at(-1)!;
    expect(last.url).toBe("/ok?a=1");
    expect(last.headers.authtoken).toBe("tok-1");
    expect(JSON.parse(last.body)).toEqual({ price: "5" });
  });

  it("leaves the token off when the call opts out, or when there is none", async () => {
    await createBackendClient({ baseUrl, timeoutMs: 1000, token: "tok-1" }).get("/ok", { anonymous: true });
    expect(seen.at(-1)!.headers.authtoken).toBeUndefined();
    await createBackendClient({ baseUrl, timeoutMs: 1000 }).get("/ok");
    expect(seen.at(-1)!.headers.authtoken).toBeUndefined();
  });

  it("turns a 401 status or code into SessionExpiredError", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 1000, token: "old" });
    await expect(client.get("/expired")).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(client.get("/code401")).rejects.toThrow("Invalid session, or session has expired, please log in again.");
  });

  it("turns any other failure into a BackendError carrying msg", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 1000 });
    await expect(client.post("/refused")).rejects.toMatchObject({ name: "BackendError", message: "Price has changed", status: 400 });
    await expect(client.post("/soft-fail")).rejects.toMatchObject({ message: "Already sold", status: 400 });
    await expect(client.get("/code-error")).rejects.toMatchObject({ message: "Bad things" });
    await expect(client.get("/html")).rejects.toMatchObject({ message: "Request failed (502)", status: 502 });
  });

  it("gives up after the timeout", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 150 });
    const error = await client.get("/stall").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status: 504 });
  });

  it("counts the body in the timeout, and treats a body cut short as unreachable", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 150 });
    await expect(client.get("/trickle")).rejects.toMatchObject({ status: 504 });
    await expect(client.get("/cut")).rejects.toMatchObject({ status: 502 });
  });

  it("reports an unreachable server", async () => {
    const client = createBackendClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 });
    await expect(client.get("/ok")).rejects.toMatchObject({ status: 502 });
  });

  it("gives all the calls of one request a single deadline: after it passes, calls fail without being sent", async () => {
    const client = createBackendClient({ baseUrl, timeoutMs: 10_000 });
    await requestScope.run({ clientIp: "203.0.113.7", deadline: Date.now() + 150 }, async () => {
      await expect(client.post("/stall?call=action")).rejects.toMatchObject({ status: 504 });
      await expect(client.get("/stall?call=revalidation")).rejects.toMatchObject({ status: 504 });
    });
    expect(seen.some((request) => request.url === "/stall?call=revalidation")).toBe(false);
  });

  it("sends the internal token and the browser's address only on calls to the embedded backends", async () => {
    const scope = { clientIp: "203.0.113.7", deadline: Date.now() + 5000 };
    await requestScope.run(scope, () => createBackendClient({ baseUrl, timeoutMs: 1000, internalToken: "secret-1" }).get("/ok"));
    expect(seen.at(-1)!.headers).toMatchObject({ "x-spark-internal": "secret-1", "x-spark-client-ip": "203.0.113.7" });
    await requestScope.run(scope, () => createBackendClient({ baseUrl, timeoutMs: 1000 }).get("/ok"));
    expect(seen.at(-1)!.headers["x-spark-internal"]).toBeUndefined();
    expect(seen.at(-1)!.headers["x-spark-client-ip"]).toBeUndefined();
  });
});
