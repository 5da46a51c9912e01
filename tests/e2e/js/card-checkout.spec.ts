/** Issue 16, card checkout with JavaScript: the card form checks as the player types, and paying lands on the order. */
import { expect, test } from "../accounts";

test("the test checkout checks the card in the browser, then pays and follows the order until it is delivered", async ({
  page,
  player,
}) => {
  await player({ wallet: "managed", stock: {} });
  await page.goto("/stripe/demo?box=6");
  await expect(page.getByRole("radio", { name: /Epic loot box/ })).toBeChecked();
  await page.getByLabel("Quantity").fill("11");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("Choose between 1 and 10 boxes.")).toBeVisible();
  await page.getByLabel("Quantity").fill("1");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Pay US$59.99" })).toBeVisible();

  const posts: string[] = [];
  page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
  const number = page.getByLabel("Card number");
  await number.fill("4242 4242 4242 4241");
  await number.blur();
  await expect(page.getByText("Your card number is invalid.")).toBeVisible();
  await number.fill("4242 4242 4242 4242");
  await expect(page.getByText("Your card number is invalid.")).toBeHidden();
  await page.getByLabel("Expiry (MM / YY)").fill("01 / 21");
  await page.getByRole("button", { name: "Pay US$59.99" }).click();
  await expect(page.getByText("Your card's expiration date is in the past.")).toBeVisible();
  await expect(page.getByText("Your card's security code is incomplete.")).toBeVisible();
  expect(posts).toEqual([]);

  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("321");
  await page.getByRole("button", { name: "Pay US$59.99" }).click();
  await expect(page).toHaveURL(/\/stripe\/success\?session_id=cs_test_/);
  await expect(page.getByTestId("order-status")).toHaveText("Delivered to your wallet", { timeout: 20_000 });
  await expect(page.getByRole("link", { name: "Open your boxes" })).toHaveAttribute("href", "/lootbox/6");
});
