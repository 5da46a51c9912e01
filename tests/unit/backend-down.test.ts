/**
 * The invite pages and the payment page with their backend down, hung or busy: the page's problem state with a
 * 502 or 503, as the market pages show, never a 500.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as inviteLoader } from "~/routes/invite/route";
import { loader as posterLoader } from "~/routes/invite.poster[.]svg/route";
import { loader as paymentLoader } from "~/routes/stripe.success/route";
import { sessionCookie } from "./session-fixture";

let mode: "hung" | "busy" = "hung";
const backend = http.createServer((_req, res) => {
  if (mode === "busy") {
    res.writeHead(429, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 429, msg: "Too many requests", data: null, success: false }));
  }
  // hung: never answers
});
let cookie: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  Object.assign(process.env, { SSO_API_URL: url, MARKET_API_URL: url, BACKEND_TIMEOUT_MS: "300" });
  cookie = await sessionCookie("a-token");
});
afterAll(() => {
  backend.closeAllConnections();
  backend.close();
});

const args = (path: string) =>
  ({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: {} }) as LoaderFunctionArgs;

/** Each page's answer: its status and what it shows. */
async function pages() {
  const invite = await inviteLoader(args("/invite"));
  const poster = await posterLoader(args("/invite/poster.svg"));
  const payment = await paymentLoader(args("/stripe/success?session_id=cs_test_demo"));
  return {
    invite: { status: invite.status, body: await invite.json() },
    poster: { status: poster.status, body: await poster.text() },
    payment: { status: payment.status, body: await payment.json() },
  };
}

describe("with the backends hung, busy, then down", () => {
  it("a hung backend is the problem state with a 502 once the timeout has passed", async () => {
    mode = "hung";
    const { invite, poster, payment } = await pages();
    expect(invite).toEqual({ status: 502, body: { state: "problem", message: expect.stringContaining("took too long") } });
    expect(poster).toEqual({ status: 502, body: expect.stringContaining("took too long") });
    expect(payment).toEqual({
      status: 502,
      body: { order: null, problem: expect.stringContaining("could not check this payment"), unavailable: true },
    });
  });

  it("a busy backend (429) is a 503", async () => {
    mode = "busy";
    const { invite, poster, payment } = await pages();
    expect([invite.status, poster.status, payment.status]).toEqual([503, 503, 503]);
    expect(invite.body.state).toBe("problem");
  });

  it("a backend that is down is the problem state with a 502", async () => {
    backend.closeAllConnections();
    await new Promise((resolve) => backend.close(resolve));
    const { invite, poster, payment } = await pages();
    expect(invite).toEqual({ status: 502, body: { state: "problem", message: expect.stringContaining("could not be reached") } });
    expect(poster).toEqual({ status: 502, body: expect.stringContaining("could not be reached") });
    expect(payment.status).toBe(502);
    expect(payment.body.unavailable).toBe(true);
  });
});
