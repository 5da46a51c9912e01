/**
 * Issue 15, JavaScript off, a managed wallet: the configuration and repair forms through the executor. A rifle is
 * fitted into the Weapon slot and removed again, the Helmet slot is opened for QUARK (a second opener the wallet
 * cannot pay is refused with a 400 and nothing is sent), and a ship that explored for an hour is repaired for
 * exactly the FIRE the page asked.
 * It moves the chain's clock, so it lives in the chain-time-nojs project and puts the chain back at its end.
 */
import { expect, test } from "../../accounts";
import { advanceChainTime, restoresChain } from "../../chain-clock";
import { mintItems } from "../../chain-funds";
import { chainReader, postForm, reloadUntil, waitForOutcome } from "../../managed-chain";
import { encodeItem } from "~core/item-data";
import { parseTokenAmount } from "~core/money";

restoresChain(test);

test("a managed wallet fits and removes equipment, opens a slot, and repairs its ship, without JavaScript", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { BNB: 1, FIRE: 1000, QUARK: 60 } });
  const wallet = account.wallet!;
  const [shipId, rifleId] = await mintItems(wallet, [
    encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] }),
    encodeItem.equipment({ equipmentType: 2, equipmentCode: 13, level: 1 }),
  ]);
  await signIn(page, account);
  const configuration = `/spaceship/configuration?tokenId=${shipId}`;

  await page.goto(configuration);
  await reloadUntil(page, (expect) => expect(page.getByTestId("slot-weapon")).toContainText("Weapon · empty"));
  await expect(page.getByTestId("slot-helmet")).toContainText("Helmet · locked");
  await page.getByTestId("slot-weapon").getByLabel("Equipment").selectOption(String(rifleId));
  await page.getByRole("button", { name: "Fit in the Weapon slot" }).click();
  await waitForOutcome(page);
  await page.goto(configuration);
  await expect(page.getByTestId("slot-weapon")).toContainText(`Weapon · Rare Pulse Rifle #${rifleId} (level 1)`);
  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await expect(page.getByTestId("ship-power")).toHaveText("490");

  await page.goto(configuration);
  await page.getByRole("button", { name: "Open the Helmet slot for 50 QUARK" }).click();
  await waitForOutcome(page);
  await page.goto(configuration);
  await expect(page.getByTestId("slot-helmet")).toContainText("Helmet · empty");
  expect(await chainReader().balance("QUARK", wallet)).toBe(10n * 10n ** 18n);

  // The next opener costs 100 QUARK and the wallet holds 10: refused before anything is signed.
  const sentBefore = await chainReader().sent(wallet);
  const refused = await postForm(page, "Open the Cuirass slot for 100 QUARK");
  expect(refused.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("Transaction failed. You do not have enough balance.");
  expect(await chainReader().sent(wallet)).toBe(sentBefore);

  await page.getByRole("button", { name: "Remove from the Weapon slot" }).click();
  await waitForOutcome(page);
  await page.goto(configuration);
  await expect(page.getByTestId("slot-weapon")).toContainText("Weapon · empty");

  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await page.getByRole("button", { name: "Send exploring" }).click();
  await waitForOutcome(page);
  await advanceChainTime(3600);
  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await page.getByRole("button", { name: "Recall" }).click();
  await waitForOutcome(page);

  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await expect(page.getByRole("meter", { name: "Duration" })).not.toHaveAttribute("aria-valuenow", "100");
  const repair = page.getByRole("button", { name: /^Repair for [\d.,]+ FIRE$/ });
  const cost = parseTokenAmount(/for ([\d.,]+) FIRE/.exec((await repair.textContent())!)![1]!.replace(/,/g, ""))!;
  const fireBefore = await chainReader().balance("FIRE", wallet);
  await repair.click();
  await waitForOutcome(page);
  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await expect(page.getByRole("meter", { name: "Duration" })).toHaveAttribute("aria-valuenow", "100");
  await expect(repair).toHaveCount(0);
  // The button shows the cost rounded up to 4 decimals (core/money.ts): the chain takes no more, and less by under 0.0001.
  const paid = fireBefore - (await chainReader().balance("FIRE", wallet));
  expect(paid).toBeLessThanOrEqual(cost);
  expect(cost - paid).toBeLessThan(10n ** 14n);
  await expect(page.getByTestId("ship-history")).toContainText("Repaired:");
});
