/** What the fuzzer knows of the site's other routes: sign-in and account, invites, card checkout, files and resources. */

import {
  type Gen,
  address,
  code6,
  currency,
  digits,
  email,
  hex,
  isoTime,
  mostly,
  oneOf,
  password,
  redirect,
  signInText,
  tokenId,
} from "./rng";
import { none, type RouteKnowledge } from "./route-knowledge";

/** The spam trap's fields (remix-utils' defaults) on the forms that render it. */
const honeypot: Record<string, Gen> = { name__confirm: mostly(oneOf("")), from__confirm: mostly(digits(40)) };

const checkoutSession = mostly((r) =>
  r.pick(["cs_test_demo", `cs_test_${r.string(24)}`, `cs_${r.string(24)}`, "cs_", `cs_${"x".repeat(300)}`]),
);

export const SITE_ROUTES: RouteKnowledge = {
  "routes/$": {
    params: { "*": (r) => r.pick(["x", "a/b/c", "%ff", "%2e%2e/%2e%2e/etc/passwd", "build/%ff", "images/%ff", ".env", "x".repeat(3000)]) },
  },
  "routes/_index": none,
  "routes/forgot-password": {
    query: { redirect },
    form: { step: mostly(oneOf("send", "verify", "reset")), email, code: code6, password, ...honeypot },
  },
  "routes/home": none,
  "routes/invite.poster[.]svg": none,
  "routes/invite": {
    form: {
      intent: mostly(oneOf("claim", "submit-award")),
      currency,
      txId: tokenId,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/lite": { form: { mode: mostly(oneOf("on", "off", "yes")), redirectTo: redirect } },
  "routes/login": {
    query: { act: mostly(oneOf("reg", "connect", "login")), redirect, code: mostly((r) => r.string(8).toUpperCase()) },
    form: {
      email,
      password,
      redirectTo: redirect,
      intent: mostly(oneOf("send-code", "register", "create-managed", "bind-wallet", "wallet-sign-in")),
      code: code6,
      referral: mostly((r) => r.string(8).toUpperCase()),
      address,
      signature: hex(65),
      issuedAt: isoTime,
      message: signInText,
      ...honeypot,
    },
  },
  "routes/logout": { query: { redirect }, endsSession: true },
  "routes/og.site[.]png": none,
  "routes/robots[.]txt": none,
  "routes/sitemap[.]xml": none,
  "routes/sitemaps.$file": {
    params: { file: mostly(oneOf("pages.xml", "items-1.xml", "items-10.xml", "items-11.xml", "items-0.xml", "items-x.xml", "x")) },
  },
  "routes/resources.chain-config": none,
  "routes/resources.no-js": none,
  "routes/resources.wallet-sign-in": { form: { address } },
  "routes/stripe.checkout": {
    query: { session_id: checkoutSession },
    form: {
      sessionId: checkoutSession,
      cardNumber: mostly(oneOf("4242 4242 4242 4242", "4000000000000002", "4000 0000 0000 9995", "1234")),
      expiry: mostly(oneOf("12 / 34", "01/20", "13/30", "12/2034")),
      cvc: mostly(digits(4)),
    },
  },
  "routes/stripe.demo": {
    query: { box: mostly(oneOf("4", "5", "6", "7", "99")), quantity: mostly(digits(3)) },
    form: { typeBox: mostly(oneOf("4", "5", "6", "7", "18")), quantity: mostly(digits(3)) },
  },
  "routes/stripe.success": { query: { session_id: checkoutSession } },
  // Anything a fuzzer posts lacks the provider's signature: a 400, never a 500.
  "routes/stripe.webhook": { form: { payload: mostly((r) => r.string(40)) } },
};
