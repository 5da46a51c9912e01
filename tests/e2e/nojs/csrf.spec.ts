import { expect, test } from "../accounts";

const EVIL = "http://evil.example";
const oneWeiListing = { intent: "sell", price: "0.000000000000000001", currency: "FIRE", days: "7" };

test("a cross-site post with the user's cookie is refused with a 403 on every kind of app URL, and lists nothing", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount();
  const [item] = account.items;
  await signIn(page, account);
  // page.request carries the signed-in context's cookie, as a browser would on a form post from another site.
  const targets = [`${item.url}&_data=routes%2Fmarketplace.detail`, `/marketplace/detail.data?${item.url.split("?")[1]}`, item.url];
  for (const target of targets) {
    const response = await page.request.post(target, { form: oneWeiListing, headers: { Origin: EVIL }, maxRedirects: 0 });
    expect(response.status(), target).toBe(403);
    expect(await response.text()).toContain("This request was sent to Spark Era from another site, so nothing was done.");
  }
  const favorite = await page.request.post("/marketplace/favorite", {
    form: { tokenId: item.tokenId, nftType: item.nftType, intent: "add" },
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(favorite.status()).toBe(403);

  await page.goto(item.url);
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");
  await expect(page.getByRole("button", { name: "List for sale" })).toBeVisible();
});
