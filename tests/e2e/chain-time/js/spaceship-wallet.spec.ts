/**
 * Issue 15 with JavaScript on, a browser wallet: equipment is fitted into a ship's Weapon slot through the island
 * (one transaction, no approval: the equipment stays in the wallet, locked), the ship explores for an hour of chain
 * time and is recalled, then repaired for FIRE (an exact approval of the StarshipManager, then the repair); a refused
 * action says why before the wallet is asked. The five spaceship pages, full of this fleet, pass axe.
 * It moves the chain's clock, so it lives in the chain-time-js project and puts the chain back at its end.
 */
import type { Page } from "@playwright/test";
import { toFunctionSelector } from "viem";
import { expect, test } from "../../accounts";
import { seriousViolations } from "../../axe";
import { advanceChainTime, restoresChain } from "../../chain-clock";
import { mintItems } from "../../chain-funds";
import { chainReader, reloadUntil } from "../../managed-chain";
import { installTestWallet, APPROVE, sentSelectors } from "../../wallet";
import { encodeItem } from "~core/item-data";
import { parseTokenAmount } from "~core/money";

const FIT = toFunctionSelector("fit(uint256,uint256,uint256)");
const EXPLORE = toFunctionSelector("explore(uint256)");
const RECALL = toFunctionSelector("recall(uint256)");
const REPAIR = toFunctionSelector("repair(uint256)");
const UPGRADE = toFunctionSelector("upgrade(uint256)");

const status = (page: Page) => page.getByTestId("ship-status");

restoresChain(test);

test("a browser wallet fits equipment, explores, recalls and repairs its ship; the fleet pages pass axe", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 10, FIRE: 1000 } });
  const [shipId, rifleId] = await mintItems(account.wallet!, [
    encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] }),
    encodeItem.equipment({ equipmentType: 2, equipmentCode: 13, level: 1 }),
  ]);
  const wallet = await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);

  await page.goto(`/spaceship/configuration?tokenId=${shipId}`);
  await reloadUntil(page, (expect) => expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Configure .+ #${shipId}$`)));
  const weapon = page.getByTestId("slot-weapon");
  await expect(weapon).toContainText("Weapon · empty");
  await expect(page.getByTestId("slot-helmet")).toContainText("Helmet · locked");
  await weapon.getByLabel("Equipment").selectOption(String(rifleId));
  await weapon.getByRole("button", { name: "Fit in the Weapon slot" }).click();
  await expect(weapon).toContainText(`Weapon · Rare Pulse Rifle #${rifleId} (level 1)`, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([FIT]);

  // Power now counts the rifle: 420 for the hull, 30 × 2 + 10 × 1 for the piece.
  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await expect(page.getByTestId("ship-power")).toHaveText("490");

  // Nothing to upgrade with: the island refuses before the wallet is asked.
  await page.goto(`/spaceship/upgrade?tokenId=${shipId}`);
  await page.getByRole("button", { name: "Upgrade to level 2" }).click();
  await expect(page.getByRole("alert")).toHaveText("Failed: Not enough materials: this upgrade needs 50 DarkIron more.");
  expect(sentSelectors(wallet)).not.toContain(UPGRADE);

  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  await page.getByRole("button", { name: "Send exploring" }).click();
  await expect(status(page)).toHaveText("Exploring", { timeout: 20_000 });
  await advanceChainTime(3600);
  await page.reload();
  await expect(page.getByTestId("mission")).toContainText(/Exploring for 1 h 0 m \d+ s; mined so far: \d+ DarkIron/);
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(status(page)).toHaveText("Docked", { timeout: 20_000 });

  // The button shows the cost rounded up to 4 decimals (core/money.ts), never below what the contract charges.
  const repair = page.getByRole("button", { name: /^Repair for [\d.,]+ FIRE$/ });
  const cost = parseTokenAmount(/for ([\d.,]+) FIRE/.exec((await repair.textContent())!)![1]!.replace(/,/g, ""))!;
  expect(cost).toBeGreaterThan(0n);
  const fireBefore = await chainReader().balance("FIRE", account.wallet!);
  await expect(page.getByRole("meter", { name: "Duration" })).not.toHaveAttribute("aria-valuenow", "100");
  await repair.click();
  await expect(page.getByRole("meter", { name: "Duration" })).toHaveAttribute("aria-valuenow", "100", { timeout: 20_000 });
  await expect(repair).toHaveCount(0);
  expect(sentSelectors(wallet)).toEqual([FIT, EXPLORE, RECALL, APPROVE, REPAIR]);
  const paid = fireBefore - (await chainReader().balance("FIRE", account.wallet!));
  expect(paid).toBeLessThanOrEqual(cost);
  expect(cost - paid).toBeLessThan(10n ** 14n);
  await expect(page.getByTestId("ship-history")).toContainText("Repaired:");

  for (const path of [
    "/spaceship/storehouse",
    `/spaceship/detail?tokenId=${shipId}`,
    `/spaceship/configuration?tokenId=${shipId}`,
    "/spaceship/exploration",
    `/spaceship/upgrade?tokenId=${shipId}`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
