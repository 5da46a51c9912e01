import { expect, test } from "../accounts";
import { accountButton, listForSale, outboxMails } from "../fixtures";

test.describe.configure({ timeout: 120_000 });

test("watch a market view, see another account's matching listing in the inbox and the email, unsubscribe from its link; a forged link is refused", async ({
  page,
  browser,
  baseURL,
  createAccount,
  signIn,
  signedInPage,
}) => {
  const [watcher, seller] = await Promise.all([createAccount({ tag: "watcher" }), createAccount({ tag: "seller" })]);
  const [item] = seller.items;
  const view = `/marketplace/market?nftType=${item.nftType}`;

  // A visitor is asked to sign in, and comes back to the same view.
  await page.goto(view);
  await expect(page.getByRole("link", { name: "Sign in to watch this search" })).toHaveAttribute(
    "href",
    `/login?redirect=${encodeURIComponent(view)}`,
  );

  await signIn(page, watcher);
  await page.goto(view);
  const refused = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByLabel("Price ceiling (optional)").fill("abc");
  await page.getByRole("button", { name: "Watch this search" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByText("Enter a price as a decimal number, like 12.5")).toBeVisible();
  await page.getByLabel("Price ceiling (optional)").fill("50");
  await page.getByRole("button", { name: "Watch this search" }).click();
  await expect(page.getByText("Choose the currency of the price ceiling")).toBeVisible();
  await page.getByLabel("Currency").selectOption("FIRE");
  await page.getByRole("button", { name: "Watch this search" }).click();
  await expect(page.getByText("You are watching this search. New matches will show in your inbox.")).toBeVisible();
  // The watch reads as its label (issue 42), linked to its view.
  await expect(page.locator(`a[href="${view}"]`)).toHaveText("Hero cards · FIRE ≤ 50");
  const watched = page.getByRole("listitem").filter({ has: page.locator(`a[href="${view}"]`) });
  await expect(watched).toContainText("At or under 50 FIRE · No new matches · Emails on");

  // Another account lists a matching item.
  const sellerPage = await signedInPage(seller);
  await sellerPage.goto(item.url);
  await listForSale(sellerPage, "12.5");
  await sellerPage.context().close();

  await page.goto("/marketplace/watches");
  await expect(watched).toContainText("1 new match");
  // The account button carries the unread count; its sheet links to the inbox.
  await expect(accountButton(page, watcher.email)).toContainText("1");
  await accountButton(page, watcher.email).click();
  await page.getByRole("link", { name: "Inbox, 1 unread" }).click();
  const alert = page.getByRole("listitem").filter({ hasText: "Listed at 12.5 FIRE" });
  await expect(alert.getByRole("link", { name: `#${item.tokenId}` })).toHaveAttribute("href", new RegExp(`tokenId=${item.tokenId}&`));
  await expect(alert).toContainText("New");
  // Opening the inbox read it: the header says so.
  await page.goto("/marketplace/watches");
  await accountButton(page, watcher.email).click();
  await expect(page.getByRole("link", { name: "Inbox", exact: true })).toBeVisible();

  // The email, in the dev outbox.
  const outbox = () => outboxMails(baseURL!, watcher.email);
  await expect.poll(async () => (await outbox()).map((mail) => mail.subject)).toContain("Spark Era: 1 new match for your watched searches");
  const mail = (await outbox()).find((m) => m.subject.startsWith("Spark Era:"))!;
  expect(mail.body).toContain(`/marketplace/detail?nftType=${item.nftType}&tokenId=${item.tokenId}`);
  const link = new URL(/(\S+\/marketplace\/watches\/unsubscribe\?token=\S+)/.exec(mail.body)![1]);

  // The link works without a login: the GET asks, the POST stops the emails.
  const stranger = await browser.newContext({ javaScriptEnabled: false });
  const mailPage = await stranger.newPage();
  await mailPage.goto(link.pathname + link.search);
  await mailPage.getByRole("button", { name: "Stop these emails" }).click();
  await expect(mailPage.getByRole("status")).toHaveText(/^Emails for this search are stopped\./);

  // A forged link is refused in words.
  const forged = await mailPage.goto(
    `${link.pathname}?token=${link.searchParams.get("token")!.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`,
  );
  expect(forged?.status()).toBe(400);
  await expect(mailPage.getByRole("alert")).toHaveText(
    "This unsubscribe link is not valid. Use the link in the email as it came, or sign in to manage your watched searches.",
  );
  await stranger.close();

  await page.goto("/marketplace/watches");
  await expect(watched).toContainText("Emails off");
});
