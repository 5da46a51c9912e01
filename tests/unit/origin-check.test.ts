import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedOrigins, isCrossSiteRequest, originCheck } from "../../server/origin-check";

describe("allowedOrigins", () => {
  it("is PUBLIC_URL's origin alone on a public deployment", () => {
    expect([...allowedOrigins("https://sparkera.example")]).toEqual(["https://sparkera.example"]);
  });

  it("adds every loopback name on the same port for a local one", () => {
    expect(allowedOrigins("http://localhost:3000")).toEqual(
      new Set(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]),
    );
  });
});

describe("isCrossSiteRequest", () => {
  const allowed = allowedOrigins("https://sparkera.example");
  it.each([
    [{ origin: "https://sparkera.example" }, false],
    [{ origin: "https://evil.example" }, true],
    [{ origin: "https://sparkera.example.evil.example" }, true],
    [{ origin: "http://sparkera.example" }, true],
    [{ origin: "null" }, true],
    // Origin wins over a lying Sec-Fetch-Site.
    [{ origin: "https://evil.example", "sec-fetch-site": "same-origin" }, true],
    [{ "sec-fetch-site": "same-origin" }, false],
    [{ "sec-fetch-site": "none" }, false],
    [{ "sec-fetch-site": "same-site" }, true],
    [{ "sec-fetch-site": "cross-site" }, true],
    [{}, false],
  ])("%j → cross-site %s", (headers, expected) => {
    expect(isCrossSiteRequest(headers, allowed)).toBe(expected);
  });
});

describe("originCheck", () => {
  let baseUrl: string;
  let server: Server;
  const reached: { method: string; path: string; origin?: string }[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(originCheck({ publicUrl: "https://sparkera.example", apiPaths: ["/api/v1"] }));
    app.all("*", (req, res) => {
      reached.push({ method: req.method, path: req.originalUrl, origin: req.headers.origin });
      res.send("reached");
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    "/marketplace/detail?tokenId=1&_data=routes%2Fmarketplace.detail",
    "/marketplace/detail.data",
    "/marketplace/favorite",
    "/logout",
    // Past an API prefix but not under it: a page of ours.
    "/api/v1x/anything",
    "/api/v1.data",
  ])("refuses a cross-site post to %s with a 403 page that never reaches the app", async (path) => {
    const before = reached.length;
    const response = await fetch(baseUrl + path, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "intent=sell&price=0.000000000000000001",
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Request refused");
    expect(reached.length).toBe(before);
  });

  it("refuses other methods too, and posts a browser marks cross-site without an Origin", async () => {
    expect((await fetch(baseUrl + "/marketplace/detail", { method: "PUT", headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await fetch(baseUrl + "/marketplace/detail", { method: "POST", headers: { "sec-fetch-site": "cross-site" } })).status).toBe(
      403,
    );
  });

  it("lets our own posts through, and drops the Origin it has checked so Remix does not compare it with Host again", async () => {
    const response = await fetch(baseUrl + "/marketplace/detail", { method: "POST", headers: { origin: "https://sparkera.example" } });
    expect(response.status).toBe(200);
    expect(reached.at(-1)).toEqual({ method: "POST", path: "/marketplace/detail", origin: undefined });
  });

  it("leaves reads and the token-authenticated backend APIs alone", async () => {
    expect((await fetch(baseUrl + "/marketplace/market", { headers: { origin: "https://evil.example" } })).status).toBe(200);
    expect(
      (await fetch(baseUrl + "/api/v1/informationCenter/sellToken", { method: "POST", headers: { origin: "https://evil.example" } }))
        .status,
    ).toBe(200);
  });
});
