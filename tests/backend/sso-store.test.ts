import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackends } from "../../backend";
import { DEMO_ORDER_SESSION_ID } from "../../backend/sso/seed";
import { startTestBackends, testBackendOptions } from "./harness";
import type { Backend } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

describe("POST /store/getOrderDetail", () => {
  it("returns the seeded paid order by its checkout session id, without a token", async () => {
    const answer = await t.call("POST", "/store/getOrderDetail", { sessionId: DEMO_ORDER_SESSION_ID });
    expect(answer).toMatchObject({ status: 200, success: true });
    expect(answer.data).toEqual({
      sessionId: "cs_demo_paid",
      productId: "lootbox-5",
      productName: "Premium loot box",
      quantity: 2,
      amountCents: 1998,
      currency: "usd",
      status: "paid",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("answers 404 for an unknown session and 400 for a malformed one", async () => {
    const unknown = await t.call("POST", "/store/getOrderDetail", { sessionId: "cs_test_nothing_here" });
    expect(unknown).toMatchObject({ status: 404, msg: "No order exists for this checkout session" });
    for (const sessionId of ["", "pi_123", "cs_' or 1=1 --", 42, undefined]) {
      const bad = await t.call("POST", "/store/getOrderDetail", { sessionId });
      expect(bad.status).toBe(400);
      expect(bad.msg).toMatch(/^sessionId: /);
    }
  });
});

describe("seed", () => {
  it("creates the three demo accounts", async () => {
    const users = await t.store.db.selectFrom("users").select(["email", "bind_addr_type"]).orderBy("id").execute();
    expect(users).toEqual([
      { email: "demo@sparkera.test", bind_addr_type: 1 },
      { email: "managed@sparkera.test", bind_addr_type: 2 },
      { email: "buyer@sparkera.test", bind_addr_type: 2 },
    ]);
  });

  it("runs once: a restart over the same file migrates nothing new and keeps the data", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-sso-restart-"));
    const file = path.join(dir, "restart.db");
    try {
      const first = await startBackends(file, testBackendOptions);
      await first.close();
      const second = await startBackends(file, testBackendOptions);
      const users = await second.store.db.selectFrom("users").select("id").execute();
      const orders = await second.store.db.selectFrom("store_orders").select("id").execute();
      await second.close();
      expect([users.length, orders.length]).toEqual([3, 1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
