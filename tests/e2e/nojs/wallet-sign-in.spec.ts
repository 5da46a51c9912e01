/**
 * Sign in with a wallet needs a wallet extension, so JavaScript (decision 0019): without it the login page does not
 * offer it, but says it exists and what it needs.
 */
import { expect, test } from "@playwright/test";
import { installTestWallet } from "../wallet";
import { generatePrivateKey } from "viem/accounts";

test("without JavaScript the login page offers the email form only, even with a wallet extension", async ({ page }) => {
  await installTestWallet(page, { privateKey: generatePrivateKey() });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with a wallet" })).toHaveCount(0);
  await expect(page.getByText("Sign a message with it, or log in")).toHaveCount(0);
  await expect(page.getByTestId("wallet-sign-in-needs")).toHaveText(
    "A wallet bound to your account can sign you in too: that needs JavaScript and the MetaMask or OKX Wallet extension in this browser.",
  );
});

test("a wallet sign-in post without a signed message is refused in words, not with an error page", async ({ request }) => {
  const response = await request.post("/login", { form: { intent: "wallet-sign-in", message: "hello", signature: "0x12" } });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("The wallet signature is incomplete. Please sign again.");
});
