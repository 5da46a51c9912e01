/**
 * The pool page's forms for a managed wallet (product §4 web path): each post is checked again against the chain,
 * by the rules of core/staking.ts that the executor and the island apply too, before the executor is asked for a
 * staking.deposit or a staking.withdraw.
 */
import type { Address } from "viem";
import { findPool, type StakePoolEntry } from "~core/pools";
import { canDeposit, checkStakeAmount, STAKE_AMOUNT_FORMAT_MESSAGE, withdrawRefusal } from "~core/staking";
import { CHAIN_DOWN_MESSAGE, managedAction, type ManagedPost, refusal, typed } from "~/features/actions/managed-action.server";
import { registerActionFeature } from "~/services/action-features.server";
import { readStakingSnapshot, readWalletStakes } from "./staking.server";

export const MANAGED_ONLY_MESSAGE =
  "These forms are for accounts with a managed wallet. With a browser wallet, stake with the wallet tools on this page (they need JavaScript).";

/** The pool at one block, and the wallet's side of it when there is a wallet (and the pool is on this chain). */
export async function readPool(entry: StakePoolEntry, wallet: Address | null) {
  const snapshot = await readStakingSnapshot();
  const state = snapshot.pools.find((pool) => pool.poolId === entry.id) ?? null;
  const mine = wallet && state ? await readWalletStakes(wallet, snapshot) : null;
  return { snapshot, state, mine };
}

export const STAKING_INTENTS = ["deposit", "withdraw"] as const;
type StakingIntent = (typeof STAKING_INTENTS)[number];

/** A pool page's forms: deposit into the pool, or withdraw and claim once its vault is open. */
export function stakingAction(request: Request, entry: StakePoolEntry) {
  return managedAction(request, {
    intents: STAKING_INTENTS,
    managedOnly: MANAGED_ONLY_MESSAGE,
    back: `/loyalty/page/${entry.id}`,
    echo: (intent, form) => (intent === "deposit" ? typed(form, ["amount"]) : {}),
    plan: (post) => planStaking(entry, post),
  });
}

async function planStaking(entry: StakePoolEntry, { intent, form, wallet, idempotencyKey }: ManagedPost<StakingIntent>) {
  const amountText = String(form.get("amount") ?? "");
  if (intent === "deposit" && amountText.length > 100) return refusal(STAKE_AMOUNT_FORMAT_MESSAGE, { field: "amount" });
  const read = await readPool(entry, wallet).catch(() => null);
  if (!read) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  const { snapshot, state, mine } = read;
  if (!state || !mine) return refusal(`There is no ${entry.title} on this chain.`, { status: 404 });
  const staked = mine.stakes.find((s) => s.poolId === entry.id)?.staked ?? 0n;

  if (intent === "deposit") {
    const facts = { poolId: entry.id, status: state.status, balance: mine.fire, stake: staked, threshold: state.takerThreshold };
    const checked = checkStakeAmount(amountText, facts);
    // A closed pool is the whole form's refusal; anything about the amount goes next to the field.
    if (!checked.ok) return refusal(checked.message, { field: canDeposit(state.status) ? "amount" : "" });
    return { action: "staking.deposit", params: { poolId: entry.id, amount: checked.amount.toString() }, idempotencyKey } as const;
  }
  const refused = withdrawRefusal({ poolId: entry.id, now: snapshot.now, endVaultTime: state.endVaultTime, staked });
  if (refused) return refusal(refused);
  return { action: "staking.withdraw", params: { poolId: entry.id }, idempotencyKey } as const;
}

registerActionFeature("staking.", {
  pages: /^\/loyalty\/page\/\d{1,3}$/,
  home: ({ params }) => ("poolId" in params && findPool(String(params.poolId)) ? `/loyalty/page/${params.poolId}` : "/loyalty"),
  backLabel: (page) => (page === "/loyalty" ? "Back to the loyalty programme" : "Back to the pool"),
});
