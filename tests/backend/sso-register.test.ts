import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { CODE_ANSWER_FLOOR_MS } from "../../backend/sso/accounts/account-routes";
import { startTestBackends } from "./harness";
import { type Backend, INVALID_SESSION, type SignIn, latestCode, login, otherCode, register } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

/** Moves every code of an email back in time, as if the minutes had passed. */
async function ageCodes(email: string, minutes: number) {
  const rows = await t.store.db.selectFrom("email_codes").select(["id", "created_at", "expires_at"]).where("email", "=", email).execute();
  for (const row of rows) {
    const shift = (iso: string) => new Date(Date.parse(iso) - minutes * 60_000).toISOString();
    await t.store.db
      .updateTable("email_codes")
      .set({ created_at: shift(row.created_at), expires_at: shift(row.expires_at) })
      .where("id", "=", row.id)
      .execute();
  }
}

function registration(email: string, code: string, password = "Fresh-pass-1") {
  return { UserName: email, Passsword: prehashPassword(password), Code: code };
}

describe("POST /basic/sendCode", () => {
  it("mails a 6-digit code and says when another may be asked for", async () => {
    const answer = await t.call("POST", "/basic/sendCode", { Name: "Mailer@SparkEra.test" });
    expect(answer).toMatchObject({ status: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 600 } });
    const { data } = await t.call<{ to: string; subject: string; body: string }[]>("GET", "/dev/outbox.json?to=mailer@sparkera.test");
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ to: "mailer@sparkera.test", subject: "Your Spark Era registration code" });
    expect(data[0].body).toMatch(/^Your Spark Era verification code is \d{6}\n/);
  });

  it("stores the code only as a keyed hash", async () => {
    const code = await latestCode(t, "mailer@sparkera.test");
    const rows = await t.store.db.selectFrom("email_codes").selectAll().where("email", "=", "mailer@sparkera.test").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it("holds back a resend for 60 seconds", async () => {
    const again = await t.call("POST", "/basic/sendCode", { Name: "mailer@sparkera.test" });
    expect(again.status).toBe(429);
    expect(again.msg).toMatch(/^Please wait (59|60) seconds before requesting another code$/);
  });

  it("caps codes per email and hour", async () => {
    const email = "capped@sparkera.test";
    for (let i = 0; i < 5; i++) {
      expect((await t.call("POST", "/basic/sendCode", { Name: email })).status).toBe(200);
      await ageCodes(email, 2);
    }
    const capped = await t.call("POST", "/basic/sendCode", { Name: email });
    expect(capped).toMatchObject({ status: 429, msg: "Too many codes were requested for this email, please try again in an hour" });
    await ageCodes(email, 60);
    expect((await t.call("POST", "/basic/sendCode", { Name: email })).status).toBe(200);
  });

  it("refuses a registered email and a non-email", async () => {
    const taken = await t.call("POST", "/basic/sendCode", { Name: DEMO_BROWSER_ACCOUNT.email.toUpperCase() });
    expect(taken).toMatchObject({ status: 409, msg: "This email is already registered" });
    for (const Name of ["x@", "", null, ["a@b.co"]]) {
      const bad = await t.call("POST", "/basic/sendCode", { Name });
      expect(bad.status).toBe(400);
    }
    expect((await t.call("POST", "/basic/sendCode", { Name: "x@" })).msg).toBe("Name: Please enter a valid email");
  });
});

describe("POST /basic/userInfo (register)", () => {
  it("creates the account, signs it in and keeps the referral", async () => {
    const signedIn = await register(t, "New.Player@SparkEra.test", "Fresh-pass-1", DEMO_BROWSER_ACCOUNT.wallet.toLowerCase());
    expect(signedIn.userInfo).toEqual({
      UserName: "new.player@sparkera.test",
      Email: "new.player@sparkera.test",
      UserWithThirdName: "",
      LoginType: "email",
      UserWithThird: "",
      BindAddrType: 0,
      WalletAddress: "",
    });
    expect((await t.call("GET", "/sso/getUserInfo", undefined, signedIn.token)).status).toBe(200);
    await login(t, "new.player@sparkera.test", "Fresh-pass-1");
    const user = await t.store.db.selectFrom("users").selectAll().where("email", "=", "new.player@sparkera.test").executeTakeFirstOrThrow();
    expect(user.referrer).toBe(DEMO_BROWSER_ACCOUNT.wallet);
  });

  it("takes an invite code as referral, and no referral at all", async () => {
    await register(t, "invited@sparkera.test", "Fresh-pass-1", "INV-42_x");
    await register(t, "solo@sparkera.test", "Fresh-pass-1", "");
    const rows = await t.store.db
      .selectFrom("users")
      .select(["email", "referrer"])
      .where("email", "in", ["invited@sparkera.test", "solo@sparkera.test"])
      .orderBy("email")
      .execute();
    expect(rows).toEqual([
      { email: "invited@sparkera.test", referrer: "INV-42_x" },
      { email: "solo@sparkera.test", referrer: null },
    ]);
  });

  it("salts each password: the same password gives different hashes", async () => {
    const rows = await t.store.db
      .selectFrom("users")
      .select("password_hash")
      .where("email", "in", ["invited@sparkera.test", "solo@sparkera.test"])
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
  });

  it("refuses a malformed referral, code or password hash", async () => {
    await t.call("POST", "/basic/sendCode", { Name: "picky@sparkera.test" });
    const code = await latestCode(t, "picky@sparkera.test");
    const cases: [Record<string, unknown>, string][] = [
      [{ RefferAddr: "<script>" }, "RefferAddr: must be an invite code or a wallet address"],
      [{ RefferAddr: "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }, "RefferAddr: must be an invite code or a wallet address"],
      [{ Code: "12345" }, "Code: The verification code is 6 digits"],
      [{ Code: 123456 }, "Code: Expected string, received number"],
      [{ Passsword: "short" }, "Passsword: must be the 64-hex-character hash"],
      [{ UserName: "picky" }, "UserName: The user name format is incorrect"],
    ];
    for (const [change, msg] of cases) {
      const answer = await t.call("POST", "/basic/userInfo", { ...registration("picky@sparkera.test", code), ...change });
      expect(answer.status).toBe(400);
      expect(answer.msg).toContain(msg);
    }
    // None of that spent the code.
    expect((await t.call("POST", "/basic/userInfo", registration("picky@sparkera.test", code))).status).toBe(200);
  });

  it("refuses a wrong code, and kills the code after 5 wrong guesses", async () => {
    const email = "guesser@sparkera.test";
    await t.call("POST", "/basic/sendCode", { Name: email });
    const code = await latestCode(t, email);
    for (let i = 0; i < 5; i++) {
      const wrong = await t.call("POST", "/basic/userInfo", registration(email, otherCode(code)));
      expect(wrong).toMatchObject({ status: 400, msg: "Incorrect verification code" });
    }
    const dead = await t.call("POST", "/basic/userInfo", registration(email, code));
    expect(dead).toMatchObject({ status: 400, msg: "Too many wrong attempts, please request a new code" });
    // A new code starts afresh.
    await ageCodes(email, 2);
    await t.call("POST", "/basic/sendCode", { Name: email });
    expect((await t.call("POST", "/basic/userInfo", registration(email, await latestCode(t, email)))).status).toBe(200);
  });

  it("counts parallel guesses exactly", async () => {
    const email = "swarm@sparkera.test";
    await t.call("POST", "/basic/sendCode", { Name: email });
    const wrong = otherCode(await latestCode(t, email));
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.call("POST", "/basic/userInfo", registration(email, wrong))));
    const msgs = answers.map((a) => a.msg);
    expect(msgs.filter((m) => m === "Incorrect verification code")).toHaveLength(5);
    expect(msgs.filter((m) => m === "Too many wrong attempts, please request a new code")).toHaveLength(7);
  });

  it("refuses an expired code", async () => {
    const email = "late@sparkera.test";
    await t.call("POST", "/basic/sendCode", { Name: email });
    const code = await latestCode(t, email);
    await ageCodes(email, 11);
    const late = await t.call("POST", "/basic/userInfo", registration(email, code));
    expect(late).toMatchObject({
      status: 400,
      msg: "The verification code has expired or was not requested, please request a new one",
    });
  });

  it("refuses a code never requested and one replaced by a newer code", async () => {
    const never = await t.call("POST", "/basic/userInfo", registration("never@sparkera.test", "123456"));
    expect(never.status).toBe(400);
    const email = "twice@sparkera.test";
    await t.call("POST", "/basic/sendCode", { Name: email });
    const first = await latestCode(t, email);
    await ageCodes(email, 2);
    await t.call("POST", "/basic/sendCode", { Name: email });
    const second = await latestCode(t, email);
    if (first !== second) expect((await t.call("POST", "/basic/userInfo", registration(email, first))).status).toBe(400);
    expect((await t.call("POST", "/basic/userInfo", registration(email, second))).status).toBe(200);
  });

  it("refuses an email registered meanwhile", async () => {
    const answer = await t.call("POST", "/basic/userInfo", registration(DEMO_BROWSER_ACCOUNT.email, "123456"));
    expect(answer).toMatchObject({ status: 409, msg: "This email is already registered" });
  });
});

describe("password reset: sendCodeToForgetPwd, validateForgetCode, forgetPwd", () => {
  const email = "forgetful@sparkera.test";
  let before: SignIn;

  beforeAll(async () => {
    before = await register(t, email, "Old-pass-1");
  });

  it("mails a reset code only to registered emails", async () => {
    const unknown = await t.call("POST", "/basic/sendCodeToForgetPwd", { Name: "ghost@sparkera.test" });
    expect(unknown).toMatchObject({ status: 404, msg: "No account is registered with this email" });
    expect((await t.call("POST", "/basic/sendCodeToForgetPwd", { Name: "ghost" })).status).toBe(400);

    const sent = await t.call("POST", "/basic/sendCodeToForgetPwd", { Name: email.toUpperCase() });
    expect(sent).toMatchObject({ status: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 600 } });
    const { data } = await t.call<{ subject: string }[]>("GET", `/dev/outbox.json?to=${email}`);
    expect(data[0].subject).toBe("Reset your Spark Era password");
  });

  it("does not take the registration code for a reset, nor the reverse", async () => {
    // The newest mail to this address is the reset code; it is not a register code.
    const resetCode = await latestCode(t, email);
    const asRegister = await t.call("POST", "/basic/userInfo", registration(email, resetCode));
    expect(asRegister.status).toBe(409); // the email is taken: registration never reaches the code
    const rows = await t.store.db.selectFrom("email_codes").select(["purpose", "consumed_at"]).where("email", "=", email).execute();
    expect(rows).toContainEqual({ purpose: "register", consumed_at: expect.any(String) });
    expect(rows).toContainEqual({ purpose: "reset", consumed_at: null });
  });

  it("validates the code without spending it", async () => {
    const code = await latestCode(t, email);
    const wrong = await t.call("POST", "/basic/validateForgetCode", { UserName: email, Code: otherCode(code) });
    expect(wrong).toMatchObject({ status: 400, msg: "Incorrect verification code" });
    for (let i = 0; i < 2; i++) {
      const right = await t.call("POST", "/basic/validateForgetCode", { UserName: email, Code: code });
      expect(right).toMatchObject({ status: 200, data: { valid: true } });
    }
    expect((await t.call("POST", "/basic/validateForgetCode", { UserName: email })).msg).toBe("Code: Required");
  });

  it("sets the new password, spends the code and signs out every session", async () => {
    const code = await latestCode(t, email);
    const reset = await t.call("POST", "/basic/forgetPwd", { UserName: email, Passsword: prehashPassword("New-pass-2"), Code: code });
    expect(reset).toMatchObject({ status: 200, success: true, data: null });

    expect(await t.call("GET", "/sso/getUserInfo", undefined, before.token)).toMatchObject({ status: 401, msg: INVALID_SESSION });
    const old = await t.call("POST", "/basic/login", { UserName: email, Passsword: prehashPassword("Old-pass-1") });
    expect(old.status).toBe(400);
    await login(t, email, "New-pass-2");

    const replay = await t.call("POST", "/basic/forgetPwd", { UserName: email, Passsword: prehashPassword("Evil-pass-3"), Code: code });
    expect(replay.status).toBe(400);
    await login(t, email, "New-pass-2");
  });

  it("refuses a reset for an unknown email or with bad input", async () => {
    const unknown = await t.call("POST", "/basic/forgetPwd", {
      UserName: "ghost@sparkera.test",
      Passsword: prehashPassword("x"),
      Code: "123456",
    });
    expect(unknown.status).toBe(404);
    const bad = await t.call("POST", "/basic/forgetPwd", { UserName: email, Passsword: "New-pass-2", Code: "123456" });
    expect(bad.status).toBe(400);
  });

  it("leaves the demo password alone", async () => {
    await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
  });
});

describe("dev outbox", () => {
  it("shows mails newest first as an escaped HTML page", async () => {
    await t.call("POST", "/basic/sendCode", { Name: "<b>x</b>@sparkera.test" }); // refused: not an email
    await t.call("POST", "/basic/sendCode", { Name: "o'brien@sparkera.test" });
    const response = await fetch(`${t.baseUrl}/dev/outbox`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("<h1>Dev outbox</h1>");
    expect(html).toContain("o&#39;brien@sparkera.test");
    expect(html).not.toContain("o'brien@sparkera.test");
    expect(html.indexOf("o&#39;brien")).toBeLessThan(html.indexOf("forgetful@sparkera.test"));
  });

  it("lists mails as JSON, filtered by recipient", async () => {
    const { data } = await t.call<{ to: string; createdAt: string; id: number }[]>("GET", "/dev/outbox.json");
    expect(data.length).toBeGreaterThan(5);
    expect(data[0].id).toBeGreaterThan(data[1].id);
    const one = await t.call<{ to: string }[]>("GET", "/dev/outbox.json?to=O'Brien@sparkera.test");
    expect(one.data.map((m) => m.to)).toEqual(["o'brien@sparkera.test"]);
    expect((await t.call("GET", "/dev/outbox.json?to=a&to=b")).status).toBe(400);
  });
});

it("keeps codes per email: one email's code does not open another's registration", async () => {
  await t.call("POST", "/basic/sendCode", { Name: "alice@sparkera.test" });
  const alice = await latestCode(t, "alice@sparkera.test");
  const answer = await t.call("POST", "/basic/userInfo", registration("mallory@sparkera.test", alice));
  expect(answer.status).toBe(400);
});

describe("the code endpoints' time", () => {
  it("is the same floor whether the email has an account or not, for a registration code and a reset code", async () => {
    const floored = await startTestBackends({ codeAnswerFloorMs: CODE_ANSWER_FLOOR_MS });
    try {
      const timed = async (path: string, Name: string) => {
        const started = performance.now();
        const { status } = await floored.call("POST", path, { Name });
        return { status, ms: performance.now() - started };
      };
      const answers = [
        await timed("/basic/sendCode", DEMO_BROWSER_ACCOUNT.email),
        await timed("/basic/sendCode", "floor-new@sparkera.test"),
        await timed("/basic/sendCodeToForgetPwd", DEMO_BROWSER_ACCOUNT.email),
        await timed("/basic/sendCodeToForgetPwd", "floor-nobody@sparkera.test"),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([409, 200, 200, 404]);
      // Before the floor a refusal took a read (a few ms) and a sent code a write and the mail.
      for (const answer of answers) expect(answer.ms).toBeGreaterThanOrEqual(CODE_ANSWER_FLOOR_MS - 1);
    } finally {
      await floored.close();
    }
  });
});
