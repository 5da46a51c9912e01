import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits } from "../../server/rate-limit";

let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.use(rateLimits({ apiPaths: ["/basic", "/api/v1"] }));
  app.all("*", (_req, res) => {
    res.send("ok");
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

const post = (path: string) => fetch(baseUrl + path, { method: "POST" });

describe("rate limits", () => {
  it("allows 10 sign-in posts a minute, then answers 429 with a readable page", async () => {
    for (let i = 0; i < 10; i++) expect((await post("/login?act=reg")).status).toBe(200);
    const refused = await post("/login");
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many attempts. Please wait a minute and try again.");
    // Other writes have their own, larger budget.
    expect((await post("/marketplace/detail")).status).toBe(200);
  });

  it("answers outside API callers in the backends' envelope", async () => {
    const outside = () => fetch(baseUrl + "/basic/sendCode", { method: "POST", headers: { "x-forwarded-for": "203.0.113.9" } });
    for (let i = 0; i < 10; i++) await outside();
    const refused = await outside();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 429, success: false });
  });

  it("does not count the app's own loopback calls to the backends", async () => {
    for (let i = 0; i < 15; i++) expect((await post("/api/v1/informationCenter/favorite/add")).status).toBe(200);
    const proxied = await fetch(baseUrl + "/api/v1/x", { method: "POST", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(proxied.status).toBe(200);
  });

  it("keeps reads generous", async () => {
    for (let i = 0; i < 30; i++) expect((await fetch(`${baseUrl}/home`)).status).toBe(200);
  });
});
