/**
 * Issue 15, JavaScript off: the storehouse's filter is a canonical GET URL, as the market's is. A hand-written or
 * submitted address lands on the canonical one (fixed order, defaults dropped), which lists what it says; a value it
 * cannot use stays on the page's address with a notice.
 */
import { expect, test } from "../accounts";
import { mintItems } from "../chain-funds";
import { reloadUntil } from "../managed-chain";
import { encodeItem } from "~core/item-data";

test("the storehouse filters and sorts by a canonical URL, and the form lands on it", async ({ page, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { BNB: 1 } });
  await mintItems(account.wallet!, [
    encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] }),
    encodeItem.spaceship({ shipType: 4, level: 1, stats: [90, 90, 90, 90, 90, 90, 90] }),
  ]);
  await signIn(page, account);
  await page.goto("/spaceship/storehouse");
  await reloadUntil(page, (expect) => expect(page.getByTestId("ship-card")).toHaveCount(2));

  await page.goto("/spaceship/storehouse?order=asc&sort=level&rank=2&status=");
  await expect(page).toHaveURL(/\/spaceship\/storehouse\?rank=2&sort=level&order=asc$/);
  await expect(page.getByTestId("ship-card")).toHaveCount(1);

  const form = page.getByRole("form", { name: "Filter ships" });
  await form.getByLabel("Rank").selectOption({ label: "All" });
  await form.getByLabel("Sort by").selectOption("power");
  await form.getByLabel("Order").selectOption({ label: "Highest first" });
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/spaceship\/storehouse$/);
  await expect(page.getByTestId("ship-card")).toHaveCount(2);
  await expect(page.getByTestId("ship-card").first()).toContainText("Legend");

  await page.goto("/spaceship/storehouse?rank=9");
  await expect(page).toHaveURL(/\/spaceship\/storehouse\?rank=9$/);
  await expect(page.getByRole("status").filter({ hasText: /rank/i })).toBeVisible();
  await expect(page.getByTestId("ship-card")).toHaveCount(2);
});

test("a player's fleet, storage and item pages, which carry idempotency keys, and a card order's page are never cached", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "managed" });
  await signIn(page, account);
  const item = account.items[0].url;
  for (const path of [
    "/spaceship/storehouse",
    "/spaceship/exploration",
    "/stripe/success?session_id=cs_test_demo",
    "/marketplace/storage",
    item,
  ]) {
    const response = await page.goto(path);
    expect(response!.status(), path).toBeLessThan(500);
    expect(response!.headers()["cache-control"], path).toBe("no-store");
  }
});
