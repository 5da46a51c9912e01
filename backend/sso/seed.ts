import { getAddress } from "viem";
import { cardBoxes } from "~core/card-payment";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import type { BackendContext } from "../types";
import { createSsoCore } from "./core";
import { hashPassword } from "./accounts";

/**
 * Checkout session id of the seeded card order, started and not yet paid: /stripe/success?session_id=cs_test_demo
 * shows it waiting, and the test checkout can pay it for a day.
 */
export const DEMO_ORDER_SESSION_ID = "cs_test_demo";

/** The demo accounts of core/demo.ts, all with DEMO_PASSWORD, and one card order waiting for payment. */
export async function seedSso(ctx: BackendContext): Promise<void> {
  const core = createSsoCore(ctx);
  const accounts = [DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_BUYER_ACCOUNT];
  // One scrypt for all three: the password is public anyway, and every test backend start pays for the seed.
  const passwordHash = await hashPassword(prehashPassword(DEMO_PASSWORD));
  // One after the other, so the demo accounts get the same ids on every engine.
  const users = [];
  for (const account of accounts) {
    const user = await core.users.insert(account.email, passwordHash, null);
    if (!user) throw new Error(`Demo account ${account.email} exists already`);
    users.push(user);
  }
  const [browser, managed, buyer] = users;

  await core.wallets.bindBrowserWallet(browser, getAddress(DEMO_BROWSER_ACCOUNT.wallet));
  await core.wallets.attachManagedWallet(managed.id, DEMO_MANAGED_ACCOUNT.privateKey);
  await core.wallets.attachManagedWallet(buyer.id, DEMO_BUYER_ACCOUNT.privateKey);

  const standard = cardBoxes().find((box) => box.title === "Standard loot box")!;
  await core.cardOrders.create({
    sessionId: DEMO_ORDER_SESSION_ID,
    userId: browser.id,
    wallet: DEMO_BROWSER_ACCOUNT.wallet,
    box: standard,
    quantity: 1,
  });
}
