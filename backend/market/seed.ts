import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT } from "~core/demo";
import type { BackendContext } from "../types";
import { MarketDb } from "./shared/db";
import { type GenerateOptions, analyze, generateMarket } from "./generate";

export const DEMO_WALLETS = [DEMO_BROWSER_ACCOUNT.wallet, DEMO_MANAGED_ACCOUNT.wallet, DEMO_BUYER_ACCOUNT.wallet] as const;

/** The demo market: ~3000 items of every type, ~50 wallets, a few hundred listings, two months of trades. */
export function demoMarketOptions(now: number): GenerateOptions {
  return {
    seed: 20_240_601,
    now,
    items: 3000,
    activeListings: 400,
    sales: 350,
    cancels: 50,
    favoritesPerItem: 0.5,
    wallets: 50,
    demoWallets: DEMO_WALLETS,
    demoItemsPerType: 3,
    historyDays: 60,
    invitees: 15,
    // The buyer joined through the browser wallet's invite, so the demo invite page shows rebates.
    fixedInvites: [{ inviter: DEMO_BROWSER_ACCOUNT.wallet, invitee: DEMO_BUYER_ACCOUNT.wallet }],
    richBalances: { FIRE: 1_000_000, QUARK: 500_000, USDT: 100_000, BNB: 500 },
  };
}

/** Seeds the demo market once; a database that already has market items is left alone. */
export async function seedMarket(ctx: BackendContext): Promise<void> {
  const db = new MarketDb(ctx.store);
  if (await db.get("select 1 from market_items limit 1")) return;
  await generateMarket(db, demoMarketOptions(Date.now()));
  await analyze(db);
}
