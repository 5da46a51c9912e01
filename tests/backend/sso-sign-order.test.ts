/**
 * POST /sso/signOrder: the SSO signs market orders with a managed wallet's key, and nothing else: only the order
 * types of core/orders.ts, only in the market's domain, only for the caller's own wallet, once per idempotency key,
 * within the custodial budget it shares with on-chain actions.
 */
import { getAddress, recoverTypedDataAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderContext } from "~core/api/market";
import type { OrderSignature } from "~core/api/sso";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { expiryIn, newOrderNonce, orderJson, orderTypedData, type SellMessage } from "~core/orders";
import { DEFAULT_EXECUTOR_POLICY } from "../../backend/sso/executor/policy";
import { startTestBackends } from "./harness";
import { type Backend, INVALID_SESSION, login, register } from "./sso-helpers";

const MANAGED_ONLY = "Orders are signed here only for a managed wallet: a browser wallet signs its own.";
const KEY_REUSED = "This idempotencyKey was already used for a different order; use a new key for a new order.";

let t: Backend;
let managed: string;
let context: OrderContext;
beforeAll(async () => {
  t = await startTestBackends();
  managed = (await login(t, DEMO_MANAGED_ACCOUNT.email, DEMO_PASSWORD)).token;
  context = (await t.call<OrderContext>("GET", `/api/v1/marketplace/orderContext?address=${DEMO_MANAGED_ACCOUNT.wallet}`)).data;
});
afterAll(() => t.close());

function sell(seller: `0x${string}` = DEMO_MANAGED_ACCOUNT.wallet, overrides: Partial<SellMessage> = {}) {
  const message: SellMessage = {
    tokenId: 7n,
    nftType: 0,
    seller,
    price: 10n ** 18n,
    currency: "FIRE",
    counter: BigInt(context.counter),
    nonce: newOrderNonce(),
    expiry: expiryIn(600),
    ...overrides,
  };
  return orderTypedData(context.domain, "Sell", message);
}

const key = () => `test-${newOrderNonce().toString(36)}`;
const signOrder = (body: unknown, token = managed) => t.call<OrderSignature>("POST", "/sso/signOrder", body, token);

describe("POST /sso/signOrder", () => {
  it("signs an order of the caller's managed wallet in the market's domain, which the market then verifies", async () => {
    const typed = sell();
    const answer = await signOrder({ ...orderJson(typed), idempotencyKey: key() });
    expect(answer.status, answer.msg).toBe(200);
    const signer = await recoverTypedDataAddress({
      ...(typed as unknown as Parameters<typeof recoverTypedDataAddress>[0]),
      signature: answer.data.signature,
    });
    expect(signer).toBe(DEMO_MANAGED_ACCOUNT.wallet);
  });

  it("refuses a foreign primary type, extra types, a foreign domain, another signer and an odd lifetime", async () => {
    const good = orderJson(sell());
    const refused = async (body: object, status = 400) => {
      const answer = await signOrder({ ...good, idempotencyKey: key(), ...body });
      expect(answer.status, answer.msg).toBe(status);
      return answer.msg;
    };
    expect(await refused({ primaryType: "Permit" })).toBe(
      "primaryType: must be one of Sell, Buy, Cancel, CancelAll, Transfer, Offer, OfferCancel, OfferCancelAll, OfferAccept, Listing, TradeOffer",
    );
    expect(await refused({ types: { Sell: [] } })).toMatch(/^may hold only primaryType, domain, message and idempotencyKey/);
    const domainMessage = `domain: must be the market's order domain (Spark Era Market, version 2, chain ${context.domain.chainId}, contract ${context.domain.verifyingContract})`;
    expect(await refused({ domain: { ...good.domain, chainId: 1 } })).toBe(domainMessage);
    expect(await refused({ domain: { ...good.domain, name: "Permit2" } })).toBe(domainMessage);
    expect(await refused({ domain: { ...good.domain, version: "1" } })).toBe(domainMessage);
    expect(await refused({ domain: { ...good.domain, verifyingContract: getAddress(`0x${"12".repeat(20)}`) } })).toBe(domainMessage);
    // A Sell's message with a field no Sell has, or a Transfer's fields under the Sell type.
    expect(await refused({ message: { ...good.message, spender: zeroAddress } })).toMatch(/^may hold only the fields of Sell/);
    expect(await refused({ primaryType: "Transfer" })).toBe("from: Required");
    expect(await refused({ message: { ...good.message, price: "-1" } })).toBe("price: must be an unsigned integer in decimal digits");
    expect(await refused({ message: orderJson(sell(DEMO_BROWSER_ACCOUNT.wallet)).message }, 403)).toBe(
      `seller: must be your managed wallet ${DEMO_MANAGED_ACCOUNT.wallet}`,
    );
    expect(await refused({ message: orderJson(sell(undefined, { expiry: 1000n })).message })).toBe("expiry: expected a time in the future");
    expect(await refused({ message: orderJson(sell(undefined, { expiry: expiryIn(31 * 86_400) })).message })).toBe(
      "expiry: may be at most 30 days away",
    );
    expect(await refused({ idempotencyKey: "short" })).toBe("idempotencyKey: must be 8-100 characters of A-Z, a-z, 0-9, _ and -");
  });

  it("signs only for a managed wallet's live session", async () => {
    const body = { ...orderJson(sell()), idempotencyKey: key() };
    expect(await signOrder(body, "")).toMatchObject({ status: 401, msg: INVALID_SESSION });
    const browser = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const asBrowser = { ...orderJson(sell(DEMO_BROWSER_ACCOUNT.wallet)), idempotencyKey: key() };
    expect(await signOrder(asBrowser, browser.token)).toMatchObject({ status: 403, msg: MANAGED_ONLY });
    const walletless = await register(t, "no-wallet-signer@sparkera.test");
    expect(await signOrder(body, walletless.token)).toMatchObject({ status: 403, msg: MANAGED_ONLY });
  });

  it("answers the same signature for the same key and order, and refuses the key for another order", async () => {
    const idempotencyKey = key();
    const typed = orderJson(sell());
    const rate = async () => (await t.store.sql.get("select count(*) as n from action_rate")) as { n: number };
    const first = await signOrder({ ...typed, idempotencyKey });
    expect(first.status, first.msg).toBe(200);
    const counted = (await rate()).n;
    const again = await Promise.all([1, 2, 3].map(() => signOrder({ ...typed, idempotencyKey })));
    expect(again.map((a) => a.data.signature)).toEqual([first.data.signature, first.data.signature, first.data.signature]);
    // A replay is free: it signs nothing and spends none of the budget.
    expect((await rate()).n).toBe(counted);
    const other = { ...typed, message: { ...typed.message, price: "2" } };
    expect(await signOrder({ ...other, idempotencyKey })).toMatchObject({ status: 409, msg: KEY_REUSED });
  });

  it("draws on the custodial budget of on-chain actions: past it, 429, while a stored key still answers", async () => {
    const player = await register(t, "budget-signer@sparkera.test");
    const created = await t.call<{ address: `0x${string}` }>("GET", "/sso/createAddress", undefined, player.token);
    const wallet = created.data.address;
    const order = () => ({ ...orderJson(sell(wallet, { counter: 0n })), idempotencyKey: key() });
    const first = order();
    const answers = [await signOrder(first, player.token)];
    for (let i = 1; i < DEFAULT_EXECUTOR_POLICY.rate.max; i++) answers.push(await signOrder(order(), player.token));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await signOrder(order(), player.token)).toMatchObject({
      status: 429,
      msg: "Too many orders and on-chain actions from this account, please try again in 10 minutes",
    });
    expect(await signOrder(first, player.token)).toMatchObject({ status: 200, data: { signature: answers[0].data.signature } });
  });
});
