import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isMalformedPath, MALFORMED_PATH, refuseMalformedPaths } from "../../server/malformed-path";

let baseUrl: string;
let server: Server;

beforeAll(async () => {
  const app = express();
  app.use(refuseMalformedPaths({ apiPaths: ["/api/v1", "/sso"] }));
  // A parameter route like Remix's catch-all: Express decodes its parameter, and a bad escape throws there.
  app.all("*", (req, res) => {
    res.send(`reached ${(req.params as Record<string, string>)[0]}`);
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
});

describe("refuseMalformedPaths", () => {
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

describe("isMalformedPath", () => {
  it("flags exactly the paths decodeURIComponent refuses", () => {
    for (const bad of ["/%ff", "/a%", "/%E0%A4%A", "/%c0%af", "/x/%zz"]) expect(isMalformedPath(bad), bad).toBe(true);
    for (const good of ["/", "/a%20b", "/%E2%9C%93", "/x?y=%ff", "/100%25"]) expect(isMalformedPath(good), good).toBe(false);
  });
});
