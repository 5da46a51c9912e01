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

  it("answers API callers in the backends' envelope", async () => {
    for (let i = 0; i < 10; i++) await post("/basic/sendCode");
    const refused = await post("/basic/sendCode");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 429, success: false });
  });

  it("keeps reads generous", async () => {
    for (let i = 0; i < 30; i++) expect((await fetch(`${baseUrl}/home`)).status).toBe(200);
  });
});
