/**
 * The market learns whose a token is the way a separate market API would: GET /sso/getUserInfo over HTTP, each
 * answer kept TOKEN_CACHE_MS per token, so a logout reaches the market within that time.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import { createTokenOwners, SSO_UNREACHABLE, TOKEN_CACHE_MS } from "../../backend/market/shared/token-owners";
import { startTestBackends } from "./harness";
import { type Backend, INVALID_SESSION, login } from "./sso-helpers";

/** A stand-in SSO: answers getUserInfo as `answer` says, and counts the calls and the headers they carried. */
async function fakeSso() {
  const calls: { token: string | undefined; internal: string | undefined }[] = [];
  let answer: "live" | "dead" | "down" | "walletless" = "live";
  const app = express();
  app.get("/sso/getUserInfo", (req, res) => {
    calls.push({ token: req.get("authToken"), internal: req.get(INTERNAL_TOKEN_HEADER) });
    if (answer === "down") return void res.status(500).json({ code: 500, msg: "Internal error", data: null, success: false });
    if (answer === "dead") return void res.status(401).json({ code: 401, msg: INVALID_SESSION, data: null, success: false });
    res.json({
      code: 200,
      msg: "success",
      success: true,
      data: {
        UserName: "a@sparkera.test",
        Email: "a@sparkera.test",
        UserWithThirdName: "",
        LoginType: "email",
        UserWithThird: "",
        BindAddrType: answer === "walletless" ? 0 : 2,
        WalletAddress: answer === "walletless" ? "" : DEMO_BROWSER_ACCOUNT.wallet,
      },
    });
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    answer: (next: typeof answer) => (answer = next),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("the market's token lookup over HTTP", () => {
  it("keeps no answer for an owner without a wallet: one bound the next moment counts at once", async () => {
    const sso = await fakeSso();
    const ownerOf = createTokenOwners({ baseUrl: sso.baseUrl, internalToken: "loopback" }, { now: () => 1_000_000 });
    sso.answer("walletless");
    expect((await ownerOf("token-w"))?.walletAddress).toBeNull();
    sso.answer("live");
    expect((await ownerOf("token-w"))?.walletAddress).toBe(DEMO_BROWSER_ACCOUNT.wallet);
    expect(sso.calls).toHaveLength(2);
    // With a wallet, the answer is kept as before.
    await ownerOf("token-w");
    expect(sso.calls).toHaveLength(2);
    await sso.close();
  });

  it("asks once per token while the answer is fresh, burst included, and again once it is stale", async () => {
    const sso = await fakeSso();
    let now = 1_000_000;
    const ownerOf = createTokenOwners({ baseUrl: sso.baseUrl, internalToken: "loopback" }, { now: () => now });
    const owners = await Promise.all(Array.from({ length: 20 }, () => ownerOf("token-a")));
    expect(owners[0]).toEqual({
      userName: "a@sparkera.test",
      email: "a@sparkera.test",
      walletAddress: DEMO_BROWSER_ACCOUNT.wallet,
      bindAddrType: 2,
    });
    expect(sso.calls).toEqual([{ token: "token-a", internal: "loopback" }]);
    await ownerOf("token-b");
    expect(sso.calls).toHaveLength(2);

    // The token dies at the SSO: the market believes its cached answer until it is TOKEN_CACHE_MS old, not after.
    sso.answer("dead");
    now += TOKEN_CACHE_MS - 1;
    expect(await ownerOf("token-a")).not.toBeNull();
    now += 1;
    expect(await ownerOf("token-a")).toBeNull();
    expect(sso.calls).toHaveLength(3);
    await sso.close();
  });

  it("refuses with 503 when the SSO fails, and keeps no answer from the failure", async () => {
    const sso = await fakeSso();
    const ownerOf = createTokenOwners({ baseUrl: sso.baseUrl });
    sso.answer("down");
    await expect(ownerOf("token-c")).rejects.toMatchObject({ status: 503, message: SSO_UNREACHABLE });
    sso.answer("live");
    expect(await ownerOf("token-c")).not.toBeNull();
    // No internal token is sent to an SSO that was given none (an external one).
    expect(sso.calls.map((c) => c.internal)).toEqual([undefined, undefined]);
    await sso.close();
    const gone = createTokenOwners({ baseUrl: sso.baseUrl });
    await expect(gone("token-d")).rejects.toMatchObject({ status: 503 });
  });
});

describe("a logout, as the market sees it", () => {
  let t: Backend;
  beforeAll(async () => {
    t = await startTestBackends();
  });
  afterAll(() => t.close());

  it("takes effect within TOKEN_CACHE_MS", async () => {
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const balances = () => t.call("GET", "/api/v1/gameRelate/getGameToken?gameTag=1", undefined, token);
    expect((await balances()).status).toBe(200);
    const loggedOutAt = Date.now();
    expect((await t.call("GET", "/sso/loginOut", undefined, token)).status).toBe(200);
    // Until the cached answer is stale the market may still serve the token; never after.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, loggedOutAt + TOKEN_CACHE_MS - Date.now()) + 50));
    expect(await balances()).toMatchObject({ status: 401, msg: INVALID_SESSION });
  });
});
