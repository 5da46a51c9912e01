import { getAddress } from "viem";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import type { BackendContext } from "../types";
import { createSsoCore } from "./core";
import { hashPassword } from "./passwords";

/** Checkout session id of the seeded paid order; /stripe/success?session_id=cs_demo_paid shows it. */
export const DEMO_ORDER_SESSION_ID = "cs_demo_paid";

/** The demo accounts of core/demo.ts, all with DEMO_PASSWORD, and one paid card order. */
export async function seedSso(ctx: BackendContext): Promise<void> {
  const core = createSsoCore(ctx);
  const accounts = [DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_BUYER_ACCOUNT];
  // One scrypt for all three: the password is public anyway, and every test backend start pays for the seed.
  const passwordHash = await hashPassword(prehashPassword(DEMO_PASSWORD));
  const [browser, managed, buyer] = await Promise.all(
    accounts.map(async (account) => {
      const user = await core.users.insert(account.email, passwordHash, null);
      if (!user) throw new Error(`Demo account ${account.email} exists already`);
      return user;
    }),
  );

  await core.wallets.bindBrowserWallet(browser, getAddress(DEMO_BROWSER_ACCOUNT.wallet));
  await core.wallets.attachManagedWallet(managed.id, DEMO_MANAGED_ACCOUNT.privateKey);
  await core.wallets.attachManagedWallet(buyer.id, DEMO_BUYER_ACCOUNT.privateKey);

  const paidAt = new Date().toISOString();
  await core.orders.insert({
    session_id: DEMO_ORDER_SESSION_ID,
    user_id: browser.id,
    product_id: "lootbox-5",
    product_name: "Premium loot box",
    quantity: 2,
    amount_cents: 1998,
    currency: "usd",
    status: "paid",
    created_at: paidAt,
    paid_at: paidAt,
  });
}
