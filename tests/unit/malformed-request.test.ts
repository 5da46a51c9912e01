import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  clientErrorsInOneLine,
  isMalformedHost,
  isMalformedPath,
  isOverlongPath,
  MALFORMED_HOST,
  MALFORMED_PATH,
  MAX_PATH_BYTES,
  MAX_PATH_SEGMENTS,
  OVERLONG_PATH,
  refuseMalformedRequests,
} from "../../server/malformed-request";

let baseUrl: string;
let server: Server;

beforeAll(async () => {
  const app = express();
  app.use(refuseMalformedRequests({ apiPaths: ["/api/v1", "/sso"] }));
  const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-static-"));
  fs.writeFileSync(path.join(publicDir, "favicon.svg"), "<svg/>");
  app.use(express.static(publicDir));
  // A parameter route like Remix's catch-all: Express decodes its parameter, and a bad escape throws there.
  app.all("*", (req, res) => {
    res.send(`reached ${(req.params as Record<string, string>)[0]}`);
  });
  app.use(clientErrorsInOneLine);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
});

describe("refuseMalformedRequests", () => {
  it("answers a path that does not decode with a 400 page and one log line, no stack", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await fetch(`${baseUrl}/lootbox/%ff`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(MALFORMED_PATH);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toBe('400 malformed path "/lootbox/%ff"');
    expect(error).not.toHaveBeenCalled();
  });

  it("answers API callers in the backends' envelope", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const response = await fetch(`${baseUrl}/api/v1/market/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 400, msg: "Malformed path", data: null, success: false });
  });

  it("lets a well-formed path through, and a bad escape in the query too", async () => {
    const response = await fetch(`${baseUrl}/lootbox/%E2%9C%93?q=%ff`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("reached /lootbox/✓");
  });
});

/** fetch will not send a broken Host: speak HTTP by hand. */
function getWithHost(host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/home`, { headers: { ...headers, host } }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a path too long to be ours", () => {
  it("gets a 414 page and one log line, for many segments and for one long segment", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const path of [`/${"a/".repeat(7000)}`, `/marketplace/${"x".repeat(MAX_PATH_BYTES)}`]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(414);
      expect(await response.text()).toContain(OVERLONG_PATH);
    }
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0][0])).toMatch(/^414 path of 14001 bytes "\/a\/a\/a/);
  });

  it("answers API callers in the backends' envelope", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const response = await fetch(`${baseUrl}/api/v1/${"a/".repeat(100)}`);
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ code: 414, msg: "Path too long", data: null, success: false });
  });

  it("is told by its bytes and its segments, and by the paths Remix's route discovery is asked to match", () => {
    const deepest = "/a".repeat(MAX_PATH_SEGMENTS);
    for (const bad of [
      `${deepest}/a`,
      `/${"x".repeat(MAX_PATH_BYTES)}`,
      `/__manifest?version=1&p=${deepest}/a`,
      `/__manifest?p=/home&p=${"/a".repeat(3000)}`,
    ])
      expect(isOverlongPath(bad), bad.slice(0, 40)).toBe(true);
    for (const good of [
      deepest,
      `/${"x".repeat(MAX_PATH_BYTES - 1)}`,
      `/marketplace/market?${"a/".repeat(1000)}`,
      `/__manifest?version=1&p=/marketplace/detail&p=${deepest}`,
      `/home?p=${"/a".repeat(3000)}`,
    ])
      expect(isOverlongPath(good), good.slice(0, 40)).toBe(false);
  });
});

describe("a Host header that is no host", () => {
  it("gets a 400 page and one log line", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const host of ["[", "a b", "x@y", "127.0.0.1:99999"]) {
      const response = await getWithHost(host);
      expect(response.status, host).toBe(400);
      expect(response.body).toContain(MALFORMED_HOST);
    }
    expect(warn).toHaveBeenCalledTimes(4);
  });

  it("is told apart from real hosts", () => {
    for (const bad of ["[", "a b", "x@y", "u:p@h", "h:99999", "h/x", "h?x"]) expect(isMalformedHost(bad), bad).toBe(true);
    for (const good of [undefined, "", "localhost:3000", "127.0.0.1", "[::1]:3000", "SparkEra.example", "sparkera.example:80"])
      expect(isMalformedHost(good), good).toBe(false);
  });

  it("keeps to the DNS limits: names of at most 253 characters, labels of at most 63", () => {
    const label63 = "a".repeat(63);
    const name253 = `${"abc.".repeat(62)}example`.slice(-253);
    for (const bad of ["x".repeat(5000), `${"a".repeat(64)}.example`, `${"abc.".repeat(63)}example`, `${label63}x:3000`])
      expect(isMalformedHost(bad), bad.slice(0, 30)).toBe(true);
    for (const good of [`${label63}.example`, `${label63}.example:3000`, name253, "sparkera.example."])
      expect(isMalformedHost(good), good.slice(0, 30)).toBe(false);
  });

  it("is refused in X-Forwarded-Host too, whose port Remix reads whatever TRUST_PROXY says", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const forwarded of ["a:99999", "a.example, b:-1", "x".repeat(64), ","]) {
      const response = await getWithHost("sparkera.example", { "x-forwarded-host": forwarded });
      expect(response.status, forwarded).toBe(400);
    }
    expect((await getWithHost("sparkera.example", { "x-forwarded-host": "shop.example:8443, sparkera.example" })).status).toBe(200);
  });

  it("gets a 400 page for a 5,000-character label", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const response = await getWithHost("x".repeat(5000));
    expect(response.status).toBe(400);
    expect(response.body).toContain(MALFORMED_HOST);
  });
});

describe("a client error handed on by a middleware", () => {
  it("is answered with its status and one log line, no stack", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await fetch(`${baseUrl}/favicon.svg`, { headers: { range: "bytes=999999-" } });
    expect(response.status).toBe(416);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toBe('416 GET "/favicon.svg": Range Not Satisfiable');
    expect(error).not.toHaveBeenCalled();
  });
});

describe("isMalformedPath", () => {
  it("flags exactly the paths decodeURIComponent refuses", () => {
    for (const bad of ["/%ff", "/a%", "/%E0%A4%A", "/%c0%af", "/x/%zz"]) expect(isMalformedPath(bad), bad).toBe(true);
    for (const good of ["/", "/a%20b", "/%E2%9C%93", "/x?y=%ff", "/100%25"]) expect(isMalformedPath(good), good).toBe(false);
  });
});
