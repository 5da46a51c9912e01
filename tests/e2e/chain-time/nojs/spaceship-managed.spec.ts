/**
 * Issue 15 acceptance, JavaScript off, a managed wallet: a Spaceship loot box opens into 10 ships that the storehouse
 * lists; one is sent exploring, the chain's clock moves two hours, the ship is recalled with what core/spaceship.ts
 * says it mined, the materials show, and the ship is upgraded one level with them. An upgrade before any mining is
 * refused next to its form with a 400, and nothing is sent. The wallet holds no BNB: each action's network fee is
 * reviewed and paid in FIRE (issue 46).
 * It moves the chain's clock, so it lives in the chain-time-nojs project and puts the chain back at its end.
 */
import { expect, test } from "../../accounts";
import { advanceChainTime, restoresChain } from "../../chain-clock";
import { chainReader, confirmReviewedFee, postForm, reloadUntil, waitForOutcome } from "../../managed-chain";
import { WEI_PER_TOKEN } from "~core/money";

restoresChain(test);

test("a managed wallet without BNB opens a Spaceship box, explores, recalls, sees its materials and upgrades a ship, each fee paid in FIRE", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { FIRE: 1_000, boxes: { 17: 1 } } });
  const wallet = account.wallet!;
  // The wallet holds no BNB (issue 46): each action's network fee is reviewed in FIRE and confirmed first.
  let fees = 0n;
  await signIn(page, account);

  await page.goto("/lootbox/17");
  await page.getByRole("button", { name: "Open all 1" }).click();
  fees += await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);

  // The market's indexer lists the new ships; the storehouse reads each one's state from the StarshipManager.
  await page.goto("/spaceship/storehouse");
  await reloadUntil(page, (expect) => expect(page.getByTestId("ship-card")).toHaveCount(10));
  await expect(page.getByTestId("ship-count")).toHaveText("10 ships");
  await expect(page.getByTestId("ship-status").first()).toHaveText("Docked");
  for (const name of ["DarkIron", "Silver", "Gold"]) await expect(page.getByTestId(`material-${name}`)).toHaveText("0");

  // Sorted by power, highest first: the first card is the strongest ship.
  const first = page.getByTestId("ship-card").first();
  const href = await first.getByRole("link").first().getAttribute("href");
  const tokenId = /tokenId=(\d+)/.exec(href ?? "")![1]!;

  // Nothing mined yet: the upgrade is refused next to its form, and nothing is sent.
  await page.goto(`/spaceship/upgrade?tokenId=${tokenId}`);
  await expect(page.getByTestId("upgrade-DarkIron")).toContainText("50");
  const sentBefore = await chainReader().sent(wallet);
  const refused = await postForm(page, "Upgrade to level 2");
  expect(refused.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("Not enough materials: this upgrade needs 50 DarkIron more.");
  expect(await chainReader().sent(wallet)).toBe(sentBefore);

  await page.goto(`/spaceship/detail?tokenId=${tokenId}`);
  const power = Number((await page.getByTestId("ship-power").textContent())!.replace(/,/g, ""));
  await page.getByRole("button", { name: "Send exploring" }).click();
  fees += await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await page.getByRole("link", { name: "See it" }).click();
  await expect(page.getByTestId("ship-status")).toHaveText("Exploring");

  await advanceChainTime(2 * 3600);
  await page.goto("/spaceship/exploration");
  const mission = page.getByTestId("mission-row");
  await expect(mission).toHaveCount(1);
  await expect(mission).toContainText(/Exploring for 2 h 0 m \d+ s\. Mined so far: \d+ DarkIron/);
  await mission.getByRole("button", { name: "Recall" }).click();
  fees += await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await expect(page.getByTestId("ship-outcome")).toContainText(new RegExp(`^Ship #${tokenId} mined \\d+ DarkIron`));

  // A level-1 ship mines power / 36,000 DarkIron a second: over two hours (and the seconds the recall took) at least power / 5.
  await page.goto("/spaceship/storehouse");
  const darkIron = Number(await page.getByTestId("material-DarkIron").textContent());
  expect(darkIron).toBeGreaterThanOrEqual(Math.floor((7200 * power) / 36_000));
  expect(darkIron).toBeLessThan(Math.floor((7300 * power) / 36_000));

  await page.goto(`/spaceship/upgrade?tokenId=${tokenId}`);
  await page.getByRole("button", { name: "Upgrade to level 2" }).click();
  fees += await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await expect(page.getByTestId("ship-outcome")).toHaveText(`Ship #${tokenId} is now level 2. See it`);
  await page.getByRole("link", { name: "See it" }).click();
  await expect(page.getByTestId("ship-level")).toHaveText("2");
  await expect(page.getByTestId("ship-history")).toContainText("Upgraded to level 2 for 50 DarkIron");
  await expect(page.getByTestId("ship-history")).toContainText("Sent exploring");

  await page.goto("/spaceship/storehouse");
  const left = darkIron - 50;
  await expect(page.getByTestId("material-DarkIron")).toHaveText(String(left));

  // More than was mined is refused next to its field; what is left goes into the game as a material stack.
  const send = page.getByRole("form", { name: "Send to the game" });
  await send.getByLabel("DarkIron").fill(String(left + 1));
  const tooMuch = await postForm(page, "Send to the game");
  expect(tooMuch.status()).toBe(400);
  await expect(send.getByLabel("DarkIron")).toHaveAccessibleDescription(`You have mined ${left} of it.`);
  await send.getByLabel("DarkIron").fill(String(left));
  await send.getByRole("button", { name: "Send to the game" }).click();
  fees += await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await expect(page.getByTestId("ship-outcome")).toContainText(`${left} DarkIron went to the game`);
  await page.goto("/spaceship/storehouse");
  await expect(page.getByTestId("material-DarkIron")).toHaveText("0");
  await page.goto("/marketplace/storage?nftType=8");
  await reloadUntil(page, (expect) => expect(page.getByText(`DarkIron ×${left}`)).toBeVisible());
  expect(await chainReader().balance("FIRE", wallet)).toBe(1_000n * WEI_PER_TOKEN - fees);
  expect(await chainReader().bnb(wallet)).toBe(0n);
});
