import { expect, test } from "../accounts";
import { listForSale, outboxMails } from "../fixtures";

test.describe.configure({ timeout: 120_000 });

/** Issue 42: a view filtered by list attributes can be watched; a listing matching three watches is one alert naming them. */
test("watch a view filtered by camp and rarity and two wider ones; a matching listing is one alert naming the three, in the inbox and the email", async ({
  page,
  baseURL,
  createAccount,
  signIn,
  signedInPage,
}) => {
  const [watcher, seller] = await Promise.all([
    createAccount({ tag: "watcher" }),
    // A hero of camp Asman Zerg (0), rarity Rare (1).
    createAccount({ tag: "seller", stock: { balances: { FIRE: 1_000 }, items: { 0: 1 }, attributes: { 0: { camp: 0, rarity: 1 } } } }),
  ]);
  const [item] = seller.items;
  const views = [
    ["/marketplace/market?nftType=0&camp=0&rarity=1&currency=FIRE", "Hero cards · Camp: Asman Zerg · Rarity: Rare · FIRE"],
    ["/marketplace/market?nftType=0&rarity=1", "Hero cards · Rarity: Rare"],
    ["/marketplace/market?nftType=0", "Hero cards"],
  ] as const;

  await signIn(page, watcher);
  for (const [view] of views) {
    await page.goto(view);
    await page.getByRole("button", { name: "Watch this search" }).click();
    await expect(page.getByText("You are watching this search. New matches will show in your inbox.")).toBeVisible();
  }
  // Each watch reads as its label, linked to its view.
  for (const [view, label] of views) {
    await expect(page.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", view);
  }

  const sellerPage = await signedInPage(seller);
  await sellerPage.goto(item.url);
  // Above watches.spec's 50 FIRE ceiling, so the two specs' listings never meet each other's watches.
  await listForSale(sellerPage, "77.5");
  await sellerPage.context().close();

  // Other specs list hero cards meanwhile, which the wider watches match too: this listing is counted, and shown, once.
  await page.goto("/marketplace/watches");
  for (const [, label] of views) {
    await expect(page.getByRole("listitem").filter({ has: page.getByRole("link", { name: label, exact: true }) })).toContainText(
      /\d+ new match/,
    );
  }
  await page.goto("/marketplace/inbox");
  await expect(page.getByText(/^\d+ new alerts? since your last visit\.$/)).toBeVisible();
  const alerts = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `#${item!.tokenId}` }) });
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText(`Matches your watches ${views.map(([, label]) => label).join("; ")}`);
  for (const [view, label] of views) {
    await expect(alerts.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", view);
  }

  const outbox = () => outboxMails(baseURL!, watcher.email);
  const links = (body: string) => body.match(new RegExp(`tokenId=${item!.tokenId}(?!\\d)`, "g"))?.length ?? 0;
  const mailOf = async () => (await outbox()).find((m) => m.subject.startsWith("Spark Era:") && links(m.body) > 0);
  await expect.poll(async () => Boolean(await mailOf())).toBe(true);
  const mail = (await mailOf())!;
  expect(links(mail.body)).toBe(1);
  expect(mail.body).toContain(`Matches: ${views.map(([, label]) => label).join("; ")}`);
});
