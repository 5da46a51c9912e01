import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { startTestBackends } from "./harness";
import { type Backend, login } from "./sso-helpers";

/** The SSO backend configured as in production: short tokens, SMTP (here unreachable), no dev outbox. */
let t: Backend;
beforeAll(async () => {
  t = await startTestBackends({ tokenTtlSeconds: 60, exposeDevOutbox: false, smtpUrl: "smtp://127.0.0.1:1" });
});
afterAll(() => t?.close());

describe("production configuration", () => {
  it("honours tokenTtlSeconds", async () => {
    const { expiresAt } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(55_000);
  });

  it("does not mount the dev outbox", async () => {
    expect((await fetch(`${t.baseUrl}/dev/outbox.json`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/dev/outbox`)).status).toBe(404);
  });

  it("answers 502 and frees the cooldown when the SMTP server is unreachable", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i++) {
        const failed = await t.call("POST", "/basic/sendCode", { Name: "smtp@sparkera.test" });
        expect(failed).toMatchObject({ status: 502, msg: "The email could not be sent, please try again later" });
      }
      expect(await t.store.db.selectFrom("email_codes").select("id").execute()).toEqual([]);
      expect(await t.store.db.selectFrom("outbox").select("id").execute()).toEqual([]);
      expect(logged).toHaveBeenCalledWith("Sending a verification code failed", expect.anything());
    } finally {
      logged.mockRestore();
    }
  });
});
