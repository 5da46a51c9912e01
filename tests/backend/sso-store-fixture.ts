/** Shared by the sso-store*.test.ts files: the backends with the test checkout, whose webhook is a local server. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { StoreOrder } from "~core/api/sso";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { startTestBackends } from "./harness";
import { login } from "./sso-helpers";

export const WEBHOOK_SECRET = "whsec_test_store_0123456789";
export const STANDARD = 4;
export const LEGENDARY = 7;

export type CardStore = Awaited<ReturnType<typeof startCardStore>>;

export async function startCardStore() {
  /** Every event the test checkout sent our webhook, with its signature header. */
  const received: { payload: string; signature: string }[] = [];
  const webhook = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ payload: body, signature: String(req.headers["stripe-signature"]) });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/stripe/webhook`;
  const t = await startTestBackends({
    payments: { webhookSecret: WEBHOOK_SECRET, testCheckout: true, webhookUrl, minterKey: `0x${"11".repeat(32)}` },
  });
  const demoToken = (await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD)).token;
  return {
    t,
    received,
    /** POST /store/createOrder, by the demo browser account unless another token is given. */
    order: (body: unknown, token = demoToken) => t.call<StoreOrder>("POST", "/store/createOrder", body, token),
    /** POST /store/testCheckout/pay, with a valid expiry and CVC unless given. */
    pay: (sessionId: string, cardNumber: string, rest: Partial<{ expiry: string; cvc: string }> = {}) =>
      t.call<StoreOrder>("POST", "/store/testCheckout/pay", { sessionId, cardNumber, expiry: "12 / 34", cvc: "123", ...rest }),
    async close() {
      await t.close();
      await new Promise((resolve) => webhook.close(resolve));
    },
  };
}
