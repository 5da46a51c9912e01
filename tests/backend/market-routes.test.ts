/** How the market's route groups are composed: one router, so a method no route takes falls through to the envelope 404. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { createMarketService } from "../../backend/market/service";
import { testBackendOptions } from "./harness";
import { freshDatabase } from "./engine";

let store: BackendDb;
let server: Server;
let base: string;

beforeAll(async () => {
  store = await openDatabase(await freshDatabase());
  const app = express();
  app.use("/api/v1", createMarketService({ store, options: testBackendOptions }).router);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

describe("market routes", () => {
  it("registers each method and path once", () => {
    const stack = (
      createMarketService({ store, options: testBackendOptions }).router as unknown as {
        stack: { route?: { path: string; methods: Record<string, boolean> } }[];
      }
    ).stack;
    const routes = stack.flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).map((m) => `${m} ${layer.route!.path}`) : []));
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(["OPTIONS", "PUT", "DELETE"])("answers %s on an endpoint with the envelope 404, not an Allow list", async (method) => {
    for (const path of [
      "/marketplace/tradingMarket",
      "/informationCenter/sellToken",
      "/statistics/volume",
      "/informationCenter/getRebate",
    ]) {
      const response = await fetch(base + path, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("allow")).toBeNull();
      expect(await response.json()).toEqual({ code: 404, msg: "Not found", data: null, success: false });
    }
  });
});
