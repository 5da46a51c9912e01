import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { LOGIN_LIMITS } from "../../backend/sso/accounts/login-guard";
import { createTokenOwners } from "../../backend/market/shared/token-owners";
import { startTestBackends } from "./harness";
import { type Backend, INVALID_SESSION, type SignIn, latestCode, login, minutesFromNow, register } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

const BAD_CREDENTIALS = "Incorrect user name or password";
const PASSWORD = "Fresh-pass-1";
const CLIENT_MAX = LOGIN_LIMITS.client.maxFailures;
const ACCOUNT_MAX = LOGIN_LIMITS.account.maxFailures;
const CLIENT_LOCKED = /^Too many failed sign-in attempts, please try again in \d+ minutes?$/;
const ACCOUNT_LOCKED = /^Too many failed sign-in attempts on this account, please try again in \d+ minutes? or reset your password$/;

/** One sign-in attempt, as the app makes it for a browser at `clientIp`. */
const attempt = (email: string, password: string, clientIp: string) =>
  t.call<SignIn>("POST", "/basic/login", { UserName: email, Passsword: prehashPassword(password) }, undefined, clientIp);

const attemptRows = (email: string) =>
  t.store.db
    .selectFrom("login_attempts")
    .innerJoin("users", "users.id", "login_attempts.user_id")
    .select(["client", "failures", "locked_until"])
    .where("email", "=", email)
    .orderBy("client")
    .execute();

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

describe("POST /basic/login attempt budgets", () => {
  it("locks a client out for 15 minutes after 10 wrong passwords, even against the right one, until the lock lapses", async () => {
    const email = "locked@sparkera.test";
    await register(t, email, PASSWORD);
    const client = "192.0.2.1";
    for (let i = 0; i < CLIENT_MAX; i++)
      expect(await attempt(email, "Wrong-pass-2", client)).toMatchObject({ status: 400, msg: BAD_CREDENTIALS });
    expect(await attempt(email, PASSWORD, client)).toMatchObject({
      status: 429,
      msg: "Too many failed sign-in attempts, please try again in 15 minutes",
    });

    await t.store.db
      .updateTable("login_attempts")
      .set({ locked_until: minutesFromNow(-1) })
      .where("client", "=", client)
      .execute();
    expect((await attempt(email, PASSWORD, client)).status).toBe(200);
    // The client starts clean; the account budget keeps the failures (the refused try was never counted).
    expect(await attemptRows(email)).toEqual([{ client: "*", failures: CLIENT_MAX, locked_until: null }]);
  });

  it("counts 300 parallel wrong passwords before checking any: 10 are checked, the rest and then the right one are refused", async () => {
    const email = "race@sparkera.test";
    await register(t, email, PASSWORD);
    const client = "203.0.113.10";
    const wrong = Array.from({ length: 300 }, () => attempt(email, "Wrong-pass-4", client));
    // The right password comes once the first guess was refused, while the counted ones may still be checked.
    const firstRefusal = new Promise<void>((resolve) => {
      for (const answer of wrong) void answer.then((a) => a.status === 429 && resolve());
    });
    await Promise.race([firstRefusal, Promise.all(wrong)]);
    const right = await attempt(email, PASSWORD, client);
    const answers = await Promise.all(wrong);

    expect(answers.filter((a) => a.status === 400 && a.msg === BAD_CREDENTIALS)).toHaveLength(CLIENT_MAX);
    expect(answers.filter((a) => a.status === 429 && CLIENT_LOCKED.test(a.msg))).toHaveLength(300 - CLIENT_MAX);
    expect(right).toMatchObject({ status: 429, msg: expect.stringMatching(CLIENT_LOCKED) });
    expect(await attemptRows(email)).toEqual([
      { client: "*", failures: CLIENT_MAX, locked_until: null },
      { client, failures: CLIENT_MAX, locked_until: expect.any(String) },
    ]);
  }, 60_000);

  it("locks out only the client that failed: the owner still signs in from elsewhere", async () => {
    const email = "target@sparkera.test";
    await register(t, email, PASSWORD);
    const attacker = "198.51.100.7";
    for (let i = 0; i < CLIENT_MAX; i++) expect((await attempt(email, "Wrong-pass-5", attacker)).msg).toBe(BAD_CREDENTIALS);
    expect(await attempt(email, PASSWORD, attacker)).toMatchObject({ status: 429, msg: expect.stringMatching(CLIENT_LOCKED) });

    expect((await attempt(email, PASSWORD, "203.0.113.20")).status).toBe(200);
    // The owner's success does not lift the attacker's lock.
    expect((await attempt(email, PASSWORD, attacker)).status).toBe(429);
  }, 30_000);

  it("counts an IPv6 client by its /64: fresh addresses in the attacker's network share its lock", async () => {
    const email = "ipv6@sparkera.test";
    await register(t, email, PASSWORD);
    for (let i = 0; i < CLIENT_MAX; i++) expect((await attempt(email, "Wrong-pass-7", `2001:db8:7:7::${i + 1}`)).msg).toBe(BAD_CREDENTIALS);
    expect(await attempt(email, PASSWORD, "2001:db8:7:7:ffff:ffff:ffff:ffff")).toMatchObject({
      status: 429,
      msg: expect.stringMatching(CLIENT_LOCKED),
    });
    // The next network over is another client.
    expect((await attempt(email, PASSWORD, "2001:db8:7:8::1")).status).toBe(200);
    expect((await attemptRows(email)).map((row) => row.client)).toEqual(["*", "2001:db8:7:7::/64"]);
  }, 30_000);

  it("locks the account for every client after 100 failures spread over many clients, until a password reset", async () => {
    const email = "spread@sparkera.test";
    await register(t, email, PASSWORD);
    const tries = ACCOUNT_MAX + 20;
    // Each client stays under its own limit.
    const clientOf = (i: number) => `198.18.0.${Math.floor(i / (CLIENT_MAX - 1))}`;
    const answers = await Promise.all(Array.from({ length: tries }, (_, i) => attempt(email, "Wrong-pass-6", clientOf(i))));
    expect(answers.filter((a) => a.status === 400 && a.msg === BAD_CREDENTIALS)).toHaveLength(ACCOUNT_MAX);
    expect(answers.filter((a) => a.status === 429 && ACCOUNT_LOCKED.test(a.msg))).toHaveLength(tries - ACCOUNT_MAX);
    expect(await attempt(email, PASSWORD, "203.0.113.30")).toMatchObject({
      status: 429,
      msg: "Too many failed sign-in attempts on this account, please try again in 60 minutes or reset your password",
    });

    expect((await t.call("POST", "/basic/sendCodeToForgetPwd", { Name: email })).status).toBe(200);
    const code = await latestCode(t, email);
    expect(
      (await t.call("POST", "/basic/forgetPwd", { UserName: email, Passsword: prehashPassword("New-pass-7"), Code: code })).status,
    ).toBe(200);
    expect((await attempt(email, "New-pass-7", "203.0.113.30")).status).toBe(200);
    expect(await attemptRows(email)).toEqual([{ client: "*", failures: 0, locked_until: null }]);
  }, 60_000);

  it("forgets failures older than the 15-minute window", async () => {
    const email = DEMO_MANAGED_ACCOUNT.email;
    const client = "192.0.2.2";
    const { id } = await t.store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await t.store.db
      .insertInto("login_attempts")
      .values({ user_id: id, client, failures: CLIENT_MAX - 1, window_start: minutesFromNow(-16), locked_until: null })
      .execute();
    expect((await attempt(email, "Wrong-pass-3", client)).status).toBe(400);
    expect((await attemptRows(email)).find((row) => row.client === client)).toEqual({ client, failures: 1, locked_until: null });
  });

  it("keys on the connection's address when a client names its own without the internal token", async () => {
    const email = "spoofer@sparkera.test";
    await register(t, email, PASSWORD);
    const claiming = (n: number) => ({ "content-type": "application/json", "x-spark-client-ip": `192.0.2.${100 + n}` });
    const body = JSON.stringify({ UserName: email, Passsword: prehashPassword("Wrong-pass-8") });
    for (let n = 0; n <= CLIENT_MAX; n++) {
      const response = await fetch(`${t.baseUrl}/basic/login`, { method: "POST", headers: claiming(n), body });
      expect(response.status).toBe(n < CLIENT_MAX ? 400 : 429);
    }
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
    await t.store.db
      .updateTable("sessions")
      .set({ expires_at: minutesFromNow(-1) })
      .where("revoked_at", "is", null)
      .execute();
    expect((await t.call("GET", "/sso/getUserInfo", undefined, token)).status).toBe(401);
  });
});

describe("a token's owner, as the market asks it (GET /sso/getUserInfo)", () => {
  it("names a live token's owner and nothing for a dead one", async () => {
    const ownerOf = createTokenOwners({ baseUrl: t.baseUrl }, { cacheMs: 0 });
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect(await ownerOf(token)).toEqual({
      userName: DEMO_BROWSER_ACCOUNT.email,
      email: DEMO_BROWSER_ACCOUNT.email,
      walletAddress: DEMO_BROWSER_ACCOUNT.wallet,
      bindAddrType: 1,
    });
    await t.call("GET", "/sso/loginOut", undefined, token);
    expect(await ownerOf(token)).toBeNull();
    expect(await ownerOf("")).toBeNull();
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

  it("checks the email key only: any other key, or none, gets product §5's words", async () => {
    for (const body of [{}, { Phone: "12345" }, { UserName: "a@b.co", Phone: "12345" }, { email: "a@b.co" }]) {
      const answer = await t.call("POST", "/sso/userInfoValidate", body);
      expect(answer).toMatchObject({ status: 400, msg: "userInfoValidate: error key" });
    }
  });
});
