/**
 * Issue 16, card checkout, JavaScript off: a player orders loot boxes by card, pays on the embedded test checkout
 * (the provider's test mode), and the boxes reach the wallet once the signed event is applied. The chain is read
 * directly to check the delivery.
 */
import Stripe from "stripe";
import type { Address } from "viem";
import { DEV_PAYMENT_WEBHOOK_SECRET } from "~core/demo";
import { expect, test } from "../accounts";
import { chainReader } from "../managed-chain";

const STANDARD = 4;

const standardBoxes = async (wallet: Address) => (await chainReader().boxes(wallet)).filter((box) => box.typeBox === STANDARD).length;

/** A paid checkout of Standard boxes as the provider reports it: the amount, and the goods in its metadata. */
function paidEvent(id: string, sessionId: string, amount: number) {
  const metadata = { typeBox: String(STANDARD), quantity: String(amount / 999) };
  return JSON.stringify({
    id,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: { id: sessionId, object: "checkout.session", payment_status: "paid", amount_total: amount, currency: "usd", metadata },
    },
  });
}

test("buy 2 boxes with 4242: the order is paid and delivered, the boxes are in the wallet, and a replayed event delivers nothing more", async ({
  page,
  request,
  player,
}) => {
  test.setTimeout(60_000);
  const account = await player({ wallet: "managed", stock: {} });
  const wallet = account.wallet!;
  expect(await standardBoxes(wallet)).toBe(0);

  await page.goto("/stripe/demo");
  await page.getByRole("radio", { name: /Standard loot box/ }).check();
  await page.getByLabel("Quantity").fill("2");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/stripe\/checkout\?session_id=cs_test_/);
  await expect(page.getByRole("heading", { name: "Pay US$19.98" })).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  const sessionId = new URL(page.url()).searchParams.get("session_id")!;

  // The form says what is wrong with a card before anything is paid.
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await page.getByLabel("Expiry (MM / YY)").fill("13 / 30");
  await page.getByRole("button", { name: "Pay US$19.98" }).click();
  await expect(page.getByText("Your card number is invalid.")).toBeVisible();
  await expect(page.getByText("Your card's expiration date is incomplete.")).toBeVisible();
  await expect(page.getByText("Your card's security code is incomplete.")).toBeVisible();

  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay US$19.98" }).click();
  await expect(page).toHaveURL(`/stripe/success?session_id=${sessionId}`);
  // Without JavaScript the page reloads itself until the boxes are delivered.
  await expect(page.getByTestId("order-status")).toHaveText("Delivered to your wallet", { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expect(page.getByText("Standard loot box × 2")).toBeVisible();
  await expect(page.getByText("US$19.98")).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  // The site's one date format (issue 23: it said "Thu, 26 Nov 2026 … GMT").
  await expect(page.getByRole("definition").filter({ hasText: / UTC$/ })).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  expect(await standardBoxes(wallet)).toBe(2);

  await page.getByRole("link", { name: "Open your boxes" }).click();
  await expect(page.getByText("You have 2 unopened Standard loot boxes.")).toBeVisible();

  // The same event again, and another event for the same checkout: both are answered, neither delivers.
  const sign = (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_PAYMENT_WEBHOOK_SECRET });
  for (const payload of [
    paidEvent("evt_e2e_replay", sessionId, 1998),
    paidEvent("evt_e2e_replay", sessionId, 1998),
    paidEvent("evt_e2e_other", sessionId, 1998),
  ]) {
    const response = await request.post("/stripe/webhook", {
      data: payload,
      headers: { "content-type": "application/json", "stripe-signature": sign(payload) },
    });
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, outcome: "duplicate" });
  }
  expect(await standardBoxes(wallet)).toBe(2);
});

test("a declined card shows the provider's message, nothing is delivered, and the player can try again", async ({ page, player }) => {
  const account = await player({ wallet: "managed", stock: {} });
  await page.goto("/stripe/demo?box=4&quantity=1");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/stripe\/checkout\?session_id=cs_test_/);
  for (const [card, message] of [
    ["4000 0000 0000 0002", "Your card was declined."],
    ["4000 0000 0000 9995", "Your card has insufficient funds."],
  ]) {
    await page.getByLabel("Card number").fill(card);
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Pay US$9.99" }).click();
    await expect(page.getByRole("alert")).toHaveText(message);
    // The card number and CVC are never echoed back.
    await expect(page.getByLabel("Card number")).toHaveValue("");
  }
  const sessionId = new URL(page.url()).searchParams.get("session_id")!;
  await page.goto(`/stripe/success?session_id=${sessionId}`);
  await expect(page.getByRole("heading", { name: "Waiting for payment" })).toBeVisible();
  expect(await standardBoxes(account.wallet!)).toBe(0);
  await page.getByRole("link", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Pay US$9.99" })).toBeVisible();
});

test("the webhook refuses a forged signature with a 400 and anything but a signed JSON post", async ({ request }) => {
  const payload = paidEvent("evt_forged", "cs_test_demo", 999);
  const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_ours_0123456789" });
  const post = (headers: Record<string, string>, data: string = payload) => request.post("/stripe/webhook", { data, headers });
  expect((await post({ "content-type": "application/json", "stripe-signature": forged })).status()).toBe(400);
  expect((await post({ "content-type": "application/json" })).status()).toBe(400);
  expect((await post({ "content-type": "text/plain", "stripe-signature": forged })).status()).toBe(415);
  expect((await request.get("/stripe/webhook")).status()).toBe(405);
});

test("a visitor finds card payment on the game page, sees the boxes sold by card and is asked to log in", async ({ page }) => {
  await page.goto("/game");
  await expect(page.getByRole("link", { name: "Pay by card: Legendary loot box" })).toHaveCount(0);
  await page.getByRole("link", { name: "Pay by card: Premium loot box" }).click();
  await expect(page).toHaveURL("/stripe/demo?box=5");
  await expect(page.getByRole("radio", { name: /Premium loot box/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /Standard loot box/ })).toBeVisible();
  await expect(page.getByRole("radio", { name: /Legendary/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Log in" }).last()).toHaveAttribute("href", /\/login\?redirect=%2Fstripe%2Fdemo/);
  await expect(page.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
});
