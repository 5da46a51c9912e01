/**
 * Issue 23 (10), JavaScript off: the managed demo account owns a fleet on chain, minted by the deploy, so each of the
 * five spaceship screens opens on its ships rather than on "You have no ships".
 */
import { expect, test } from "../accounts";
import { MANAGED } from "../fixtures";
import { reloadUntil } from "../managed-chain";
import { e2eDataDir } from "../stock";
import { readDeployment } from "../../../contracts/deployment";
import { NFT_TYPE } from "~core/nft";

test("the managed demo account sees its ships on the storehouse, detail, configuration, upgrade and exploration screens", async ({
  page,
  signIn,
}) => {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  const ships = (deployment?.seed.demoFleet ?? []).filter((token) => token.nftType === NFT_TYPE.spaceship).map((token) => token.tokenId);
  expect(ships.length).toBeGreaterThanOrEqual(3);
  const named = (id: number) => new RegExp(`#${id}(?!\\d)`);
  // The demo account's fleet, only read.
  await signIn(page, MANAGED);

  await page.goto("/spaceship/storehouse");
  // The market lists them once its indexer has read the deploy's blocks.
  await reloadUntil(page, async (expect) => {
    for (const id of ships) {
      await expect(
        page
          .getByTestId("ship-card")
          .filter({ hasText: named(id) })
          .getByTestId("ship-status"),
      ).toHaveText("Docked");
    }
  });

  await page.goto("/spaceship/exploration");
  for (const id of ships) await expect(page.getByTestId("docked-row").filter({ hasText: named(id) })).toHaveCount(1);

  for (const path of ["/spaceship/detail", "/spaceship/configuration", "/spaceship/upgrade"]) {
    await page.goto(path);
    await expect(page.getByText(/You have no ships/)).toHaveCount(0);
    const list = page.getByRole("list", { name: "Your ships" });
    for (const id of ships) await expect(list.getByRole("link", { name: named(id) }), `${path}: ship ${id}`).toBeVisible();
  }

  // One of them in full: the chain's figures, and slots to configure.
  await page.goto(`/spaceship/detail?tokenId=${ships[0]}`);
  await expect(page.getByTestId("ship-power")).not.toHaveText("—");
  await page.goto(`/spaceship/configuration?tokenId=${ships[0]}`);
  await expect(page.getByTestId("slot-weapon")).toContainText("empty");
});
