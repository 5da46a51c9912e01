/**
 * Decision 0010: the SSO's guarded writes hold without one writer at a time. The email-code checks run here with their
 * transactions taken away, so that concurrent checks interleave at every statement (as they may under READ COMMITTED);
 * only the statements' own conditions can keep the limit.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../backend/types";
import { CODE_LOCKED, CODE_WRONG, MAX_WRONG_ATTEMPTS, createCodes } from "../../backend/sso/codes/codes";
import { takeCustodialRate } from "../../backend/sso/shared/custodial-rate";
import { createSecrets } from "../../backend/sso/shared/secrets";
import { startTestBackends, testBackendOptions } from "./harness";

let t: Awaited<ReturnType<typeof startTestBackends>>;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

/** The same database, but `transaction().execute(fn)` runs `fn` statement by statement, with no transaction. */
function withoutTransactions(db: Kysely<Database>): Kysely<Database> {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "transaction") return () => ({ execute: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => fn(target) });
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

async function codesFor(email: string) {
  let sent = "";
  const secrets = createSecrets(testBackendOptions.walletEncryptionKey);
  // Sent in a real transaction (a send locks its address, which needs one); only the checks run without.
  await createCodes(t.store.db, secrets, async (mail) => {
    sent = /code is (\d{6})/.exec(mail.text)![1];
  }).send(email, "register");
  const codes = createCodes(withoutTransactions(t.store.db), secrets, async () => undefined);
  const wrong = sent === "000000" ? "111111" : "000000";
  const attempts = async () =>
    ((await t.store.sql.get("select attempts from email_codes where email = ? order by id desc limit 1", [email])) as { attempts: number })
      .attempts;
  return { codes, code: sent, wrong, attempts };
}

async function outcome(check: Promise<void>): Promise<string> {
  return check.then(
    () => "ok",
    (error: Error) => error.message,
  );
}

describe("email codes: at most 5 wrong guesses are checked", () => {
  it("counts 50 interleaved wrong guesses only 5 times, and then refuses even the right code", async () => {
    const { codes, code, wrong, attempts } = await codesFor("interleaved-guesses@sparkera.test");
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => outcome(codes.check("interleaved-guesses@sparkera.test", "register", wrong, { consume: false }))),
    );
    expect(answers.filter((a) => a === CODE_WRONG)).toHaveLength(MAX_WRONG_ATTEMPTS);
    expect(answers.filter((a) => a === CODE_LOCKED)).toHaveLength(50 - MAX_WRONG_ATTEMPTS);
    expect(await attempts()).toBe(MAX_WRONG_ATTEMPTS);
    expect(await outcome(codes.check("interleaved-guesses@sparkera.test", "register", code, { consume: true }))).toBe(CODE_LOCKED);
  });

  it("does not count the right code, and uses it up once however many present it at once", async () => {
    const email = "right-code-twice@sparkera.test";
    const { codes, code, wrong, attempts } = await codesFor(email);
    for (let i = 1; i < MAX_WRONG_ATTEMPTS; i++) await outcome(codes.check(email, "register", wrong, { consume: false }));
    expect(await outcome(codes.check(email, "register", code, { consume: false }))).toBe("ok");
    expect(await attempts()).toBe(MAX_WRONG_ATTEMPTS - 1);
    const answers = await Promise.all([1, 2, 3].map(() => outcome(codes.check(email, "register", code, { consume: true }))));
    expect(answers.filter((a) => a === "ok")).toHaveLength(1);
  });
});

describe("the custodial rate budget", () => {
  const userId = async () => ((await t.store.sql.get("select id from users order by id limit 1")) as { id: number }).id;
  const rows = async (id: number) =>
    ((await t.store.sql.get("select count(*) as n from action_rate where user_id = ?", [id])) as { n: number }).n;

  it("counts at most max of 30 concurrent requests, in at most max rows", async () => {
    const id = await userId();
    await t.store.sql.run("delete from action_rate where user_id = ?", [id]);
    const answers = await Promise.all(Array.from({ length: 30 }, () => takeCustodialRate(t.store.db, id, 5, 60_000)));
    expect(answers.filter((a) => a === null)).toHaveLength(5);
    for (const refused of answers.filter((a) => a !== null)) expect(refused!.retryInMs).toBeGreaterThan(0);
    expect(await rows(id)).toBe(5);
  });

  it("frees a slot when its request leaves the window, and never grows past max rows", async () => {
    const id = await userId();
    await t.store.sql.run("delete from action_rate where user_id = ?", [id]);
    // Explicit times: a loaded machine must not move the window under the test.
    const start = Date.now();
    for (let i = 0; i < 3; i++) expect(await takeCustodialRate(t.store.db, id, 3, 40, start)).toBeNull();
    expect(await takeCustodialRate(t.store.db, id, 3, 40, start + 39)).toEqual({ retryInMs: 1 });
    const again = await Promise.all(Array.from({ length: 10 }, () => takeCustodialRate(t.store.db, id, 3, 40, start + 60)));
    expect(again.filter((a) => a === null)).toHaveLength(3);
    expect(await rows(id)).toBe(3);
  });
});
