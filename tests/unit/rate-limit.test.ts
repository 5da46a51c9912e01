import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { networkKey } from "../../backend/client-address";
import { parseEnv } from "~/services/env.server";
import { rateLimits, warnOnUntrustedForwarding } from "../../server/rate-limit";

const INTERNAL_TOKEN = "internal-test-token";

let baseUrl: string;
let close: () => Promise<void>;

// A fresh server (and so fresh buckets) per test: every request here comes from one loopback address.
beforeEach(async () => {
  const app = express();
  // X-Forwarded-For stands for the client's address here, so a test can come from anywhere.
  app.set("trust proxy", true);
  app.use(rateLimits({ apiPaths: ["/basic", "/sso", "/api/v1"], internalToken: INTERNAL_TOKEN }));
  app.all("*", (_req, res) => {
    res.send("ok");
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterEach(() => close());

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

  it("counts a JavaScript sign-in (the route's .data URL) and any spelling of the path in the strict tier", async () => {
    const paths = ["/login.data", "/LOGIN", "/login/", "/forgot-password.data", "/Login.data"];
    for (let i = 0; i < 10; i++) expect((await post(paths[i % paths.length])).status).toBe(200);
    expect((await post("/login.data")).status).toBe(429);
  });

  it("answers API callers in the backends' envelope", async () => {
    const outside = () => fetch(baseUrl + "/basic/sendCode", { method: "POST" });
    for (let i = 0; i < 10; i++) await outside();
    const refused = await outside();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 429, success: false });
  });

  it("answers metadata clients (/nft/…) in JSON that any origin may read", async () => {
    const { TIER_LIMITS } = await import("../../server/rate-limit");
    const get = () => fetch(`${baseUrl}/nft/card/1.json`, { headers: { "X-Forwarded-For": "203.0.113.77" } });
    for (let i = 0; i < TIER_LIMITS.general; i++) await get();
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toEqual({ error: "Too many attempts. Please wait a minute and try again." });
  });

  it("exempts only calls that carry the internal token, not every loopback request", async () => {
    const internal = () =>
      fetch(baseUrl + "/api/v1/informationCenter/favorite/add", { method: "POST", headers: { "x-spark-internal": INTERNAL_TOKEN } });
    for (let i = 0; i < 15; i++) expect((await internal()).status).toBe(200);
    // A same-host proxy that adds no X-Forwarded-For is loopback too: it gets the sign-in limit.
    const bareProxy = () => fetch(baseUrl + "/basic/login", { method: "POST" });
    for (let i = 0; i < 10; i++) expect((await bareProxy()).status).toBe(200);
    expect((await bareProxy()).status).toBe(429);
    const forged = await fetch(baseUrl + "/basic/login", { method: "POST", headers: { "x-spark-internal": "guessed" } });
    expect(forged.status).toBe(429);
  });

  it("limits the email-exists probe like sending a code, from one budget with the reset form that answers the same question", async () => {
    const probe = () => fetch(baseUrl + "/sso/userInfoValidate", { method: "POST" });
    for (let i = 0; i < 5; i++) expect((await probe()).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await post("/forgot-password")).status).toBe(200);
    expect((await probe()).status).toBe(429);
    expect((await post("/forgot-password")).status).toBe(429);
    expect((await post("/basic/sendCodeToForgetPwd")).status).toBe(429);
  });

  it("counts the wallet sign-in (its message, its nonce, its post) in the sign-in budget", async () => {
    const paths = ["/resources/wallet-sign-in", "/resources/wallet-sign-in.data", "/sso/walletNonce", "/sso/loginOther", "/login"];
    for (let i = 0; i < 10; i++) expect((await post(paths[i % paths.length])).status).toBe(200);
    expect((await post("/resources/wallet-sign-in")).status).toBe(429);
    expect((await post("/sso/walletNonce")).status).toBe(429);
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside it buys no new attempts", async () => {
    const from = (address: string) => fetch(baseUrl + "/login", { method: "POST", headers: { "x-forwarded-for": address } });
    for (let i = 0; i < 10; i++) expect((await from(`2001:db8:1:2::${i + 1}`)).status).toBe(200);
    expect((await from("2001:db8:1:2:abcd::9")).status).toBe(429);
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    expect((await from("192.0.2.9")).status).toBe(200);
  });

  it("gives the public player look-ups (the SSO's and the player pages) a budget of their own, apart from other reads (issue 43)", async () => {
    const { TIER_LIMITS } = await import("../../server/rate-limit");
    const wallet = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    const paths = [`/api/user/${wallet}`, `/player/${wallet}`, `/Player/${wallet.toLowerCase()}?nftType=0`, `/player/${wallet}.data`];
    for (let i = 0; i < TIER_LIMITS.lookups; i++) expect((await fetch(baseUrl + paths[i % paths.length])).status).toBe(200);
    const refused = await fetch(`${baseUrl}/player/${wallet}`);
    expect(refused.status).toBe(429);
    expect((await fetch(`${baseUrl}/home`)).status).toBe(200);
    // The app's own look-up for a page it renders carries the internal token.
    expect((await fetch(`${baseUrl}/api/user/${wallet}`, { headers: { "x-spark-internal": INTERNAL_TOKEN } })).status).toBe(200);
  });

  it("keeps reads generous", async () => {
    for (let i = 0; i < 30; i++) expect((await fetch(`${baseUrl}/home`)).status).toBe(200);
  });
});

describe("the untrusted-forwarding warning", () => {
  /** The warnings an app trusting `setting` gives for a bare request and two forwarded ones from 127.0.0.1. */
  async function warningsUnder(setting: string): Promise<string[]> {
    const warnings: string[] = [];
    const app = express();
    app.set("trust proxy", parseEnv({ TRUST_PROXY: setting }).TRUST_PROXY);
    app.use(warnOnUntrustedForwarding((message) => warnings.push(message)));
    app.all("*", (_req, res) => {
      res.send("ok");
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await fetch(url);
    expect(warnings).toHaveLength(0);
    for (const address of ["203.0.113.1", "203.0.113.2"]) await fetch(url, { headers: { "x-forwarded-for": address } });
    await new Promise((resolve) => server.close(resolve));
    return warnings;
  }

  it.each(["false", "10.0.0.0/8", "127.0.0.2"])("warns once when TRUST_PROXY=%s does not trust the forwarding peer", async (setting) => {
    const warnings = await warningsUnder(setting);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("X-Forwarded-For from 127.0.0.1, which TRUST_PROXY does not trust");
  });

  it.each(["1", "true", "127.0.0.1", "127.0.0.0/8", "loopback"])("stays quiet when TRUST_PROXY=%s trusts the peer", async (setting) => {
    expect(await warningsUnder(setting)).toEqual([]);
  });
});

describe("networkKey", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::FFFF:192.0.2.1", "192.0.2.1"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:0DB8:0000:0042:0000:8a2e:0370:7334", "2001:db8:0:42::/64"],
    ["2001:db8:0:42::8a2e:370:7334", "2001:db8:0:42::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("keys %s as %s", (address, key) => {
    expect(networkKey(address)).toBe(key);
  });
});
