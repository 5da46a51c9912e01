import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prehashPassword } from "../../app/services/password-hash.server";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "../../backend/demo";
import { createSsoService } from "../../backend/sso/service";
import { startTestBackends, testBackendOptions } from "./harness";
import { type Backend, INVALID_SESSION, login, minutesFromNow } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

const BAD_CREDENTIALS = "Incorrect user name or password";

describe("POST /basic/login", () => {
  it("signs in each seeded demo account with its wallet kind", async () => {
    const browser = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect(browser.token).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(browser.expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    expect(browser.userInfo).toEqual({
      UserName: DEMO_BROWSER_ACCOUNT.email,
      Email: DEMO_BROWSER_ACCOUNT.email,
      UserWithThirdName: "",
      LoginType: "email",
      UserWithThird: "",
      BindAddrType: 1,
      WalletAddress: DEMO_BROWSER_ACCOUNT.wallet,
    });
    for (const account of [DEMO_MANAGED_ACCOUNT, DEMO_BUYER_ACCOUNT]) {
      const { userInfo } = await login(t, account.email, DEMO_PASSWORD);
      expect(userInfo).toMatchObject({ BindAddrType: 2, WalletAddress: account.wallet });
    }
  });

  it("takes the user name in any letter case", async () => {
    const { userInfo } = await login(t, "  Demo@SparkEra.TEST ", DEMO_PASSWORD);
    expect(userInfo.UserName).toBe(DEMO_BROWSER_ACCOUNT.email);
  });

  it("answers a wrong password and an unknown user alike, with a 400", async () => {
    for (const UserName of [DEMO_BUYER_ACCOUNT.email, "nobody@sparkera.test"]) {
      const answer = await t.call("POST", "/basic/login", { UserName, Passsword: prehashPassword("Wrong-pass-1") });
      expect(answer).toMatchObject({ status: 400, code: 400, success: false, msg: BAD_CREDENTIALS, data: null });
    }
  });

  it("refuses malformed input with a 400 naming the field", async () => {
    const hash = prehashPassword(DEMO_PASSWORD);
    const cases: [unknown, string][] = [
      [{ UserName: 42, Passsword: hash }, "UserName: Expected string, received number"],
      [{ UserName: "not-an-email", Passsword: hash }, "UserName: The user name format is incorrect"],
      [{ UserName: DEMO_BROWSER_ACCOUNT.email }, "Passsword: Required"],
      [{ UserName: DEMO_BROWSER_ACCOUNT.email, Passsword: DEMO_PASSWORD }, "Passsword: must be the 64-hex-character hash"],
      [{ UserName: DEMO_BROWSER_ACCOUNT.email, Passsword: { $gt: "" } }, "Passsword: Expected string, received object"],
      [[1, 2], "Expected object, received array"],
      [{}, "UserName: Required"],
    ];
    for (const [body, msg] of cases) {
      const answer = await t.call("POST", "/basic/login", body);
      expect(answer.status).toBe(400);
      expect(answer.msg).toContain(msg);
    }
  });

  it("answers unparsable JSON with a 400, not a 500", async () => {
    const response = await fetch(`${t.baseUrl}/basic/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
  });

  it("reads urlencoded forms too", async () => {
    const response = await fetch(`${t.baseUrl}/basic/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ UserName: DEMO_MANAGED_ACCOUNT.email, Passsword: prehashPassword(DEMO_PASSWORD) }),
    });
    expect(response.status).toBe(200);
  });

  it("locks an account for a while after 10 wrong passwords, even against the right one", async () => {
    const email = DEMO_BUYER_ACCOUNT.email;
    const wrong = { UserName: email, Passsword: prehashPassword("Wrong-pass-2") };
    await t.store.db.updateTable("users").set({ failed_login_count: 0, failed_login_window_start: null }).where("email", "=", email).execute();
    for (let i = 0; i < 10; i++) expect((await t.call("POST", "/basic/login", wrong)).status).toBe(400);

    const locked = await t.call("POST", "/basic/login", { UserName: email, Passsword: prehashPassword(DEMO_PASSWORD) });
    expect(locked.status).toBe(429);
    expect(locked.msg).toMatch(/Too many failed sign-in attempts, please try again in 15 minutes/);

    // The lock lapses.
    await t.store.db.updateTable("users").set({ locked_until: minutesFromNow(-1) }).where("email", "=", email).execute();
    await login(t, email, DEMO_PASSWORD);
    const user = await t.store.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ failed_login_count: 0, locked_until: null });
  });

  it("forgets failures older than the 15-minute window", async () => {
    const email = DEMO_MANAGED_ACCOUNT.email;
    await t.store.db
      .updateTable("users")
      .set({ failed_login_count: 9, failed_login_window_start: minutesFromNow(-16) })
      .where("email", "=", email)
      .execute();
    await t.call("POST", "/basic/login", { UserName: email, Passsword: prehashPassword("Wrong-pass-3") });
    const user = await t.store.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ failed_login_count: 1, locked_until: null });
  });

  it("stores a salted scrypt of the pre-hash and only token hashes", async () => {
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const users = await t.store.db.selectFrom("users").select("password_hash").execute();
    const hashes = users.map((u) => u.password_hash);
    for (const hash of hashes) expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(hashes.join()).not.toContain(prehashPassword(DEMO_PASSWORD));
    const sessions = await t.store.db.selectFrom("sessions").select("token_hash").execute();
    expect(sessions.map((s) => s.token_hash)).not.toContain(token);
  });
});

describe("GET /sso/getUserInfo and /sso/loginOut", () => {
  it("returns the session's user info", async () => {
    const { token } = await login(t, DEMO_MANAGED_ACCOUNT.email, DEMO_PASSWORD);
    const answer = await t.call("GET", "/sso/getUserInfo", undefined, token);
    expect(answer).toMatchObject({ status: 200, success: true, msg: "success" });
    expect(answer.data).toMatchObject({ UserName: DEMO_MANAGED_ACCOUNT.email, LoginType: "email", BindAddrType: 2 });
  });

  it("answers a missing, malformed or unknown token with 401", async () => {
    for (const token of [undefined, "garbage", "ab".repeat(32)]) {
      const answer = await t.call("GET", "/sso/getUserInfo", undefined, token);
      expect(answer).toMatchObject({ status: 401, code: 401, msg: INVALID_SESSION, success: false });
    }
  });

  it("revokes the token on logout; a second logout is a 401", async () => {
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const other = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect((await t.call("GET", "/sso/loginOut", undefined, token)).status).toBe(200);
    expect((await t.call("GET", "/sso/getUserInfo", undefined, token)).status).toBe(401);
    expect((await t.call("GET", "/sso/loginOut", undefined, token)).status).toBe(401);
    // Other sessions of the same user live on.
    expect((await t.call("GET", "/sso/getUserInfo", undefined, other.token)).status).toBe(200);
  });

  it("ends a session when its time is up", async () => {
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const { data } = await t.call<{ UserName: string }>("GET", "/sso/getUserInfo", undefined, token);
    expect(data.UserName).toBe(DEMO_BROWSER_ACCOUNT.email);
    await t.store.db.updateTable("sessions").set({ expires_at: minutesFromNow(-1) }).where("revoked_at", "is", null).execute();
    expect((await t.call("GET", "/sso/getUserInfo", undefined, token)).status).toBe(401);
  });
});

describe("SsoAuth for the other services", () => {
  it("names a live token's owner and nothing for a dead one", async () => {
    const { auth } = createSsoService({ store: t.store, options: testBackendOptions });
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect(await auth.ownerOfToken(token)).toEqual({
      userId: expect.any(Number),
      userName: DEMO_BROWSER_ACCOUNT.email,
      email: DEMO_BROWSER_ACCOUNT.email,
      walletAddress: DEMO_BROWSER_ACCOUNT.wallet,
      bindAddrType: 1,
    });
    await t.call("GET", "/sso/loginOut", undefined, token);
    expect(await auth.ownerOfToken(token)).toBeNull();
    expect(await auth.ownerOfToken("")).toBeNull();
  });
});

describe("POST /sso/userInfoValidate", () => {
  it("tells whether an email is registered", async () => {
    const taken = await t.call("POST", "/sso/userInfoValidate", { UserName: "DEMO@sparkera.test" });
    expect(taken).toMatchObject({ status: 200, data: { exists: true } });
    const free = await t.call("POST", "/sso/userInfoValidate", { UserName: "free@sparkera.test" });
    expect(free).toMatchObject({ status: 200, data: { exists: false } });
  });

  it("refuses a non-email", async () => {
    for (const UserName of ["nope", 7, undefined]) {
      const answer = await t.call("POST", "/sso/userInfoValidate", { UserName });
      expect(answer.status).toBe(400);
    }
    expect((await t.call("POST", "/sso/userInfoValidate", { UserName: "nope" })).msg).toBe("UserName: Invalid email address");
  });
});
