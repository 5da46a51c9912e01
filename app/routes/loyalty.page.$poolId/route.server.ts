/**
 * A loyalty pool's page, server side; routes/loyalty.page.$poolId/route.tsx only delegates (docs/architecture.md
 * "Inside app/"). The loader reads the pool and the bound wallet's side at one block (features/staking/staking.server.ts)
 * and writes them in words (features/staking/staking-view.ts). A managed wallet (product §4 web path) gets server forms that
 * start the executor's staking.deposit and staking.withdraw; a browser wallet gets what the island needs.
 * The action checks every post again against the chain, by the rules of core/staking.ts that the executor and
 * the island apply too, before it asks the executor for anything.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Address } from "viem";
import { poolView, rewardPreview, stakeView } from "~/features/staking/staking-view";
import { usesWebPath } from "~/domain/wallet-mode";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { CHAIN_DOWN_MESSAGE, managedAction, type ManagedPost, refusal, typed } from "~/features/actions/managed-action.server";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { readStakingSnapshot, readWalletStakes, stakingChainConfig } from "~/features/staking/staking.server";
import { formatChainTime } from "~core/chain-text";
import { shownAmount } from "~core/money";
import { findPool, type StakePoolEntry } from "~core/pools";
import { canDeposit, checkStakeAmount, STAKE_AMOUNT_FORMAT_MESSAGE, withdrawRefusal } from "~core/staking";
import { logProblem, shortError } from "~/services/request-scope.server";

export { loaderCacheControl } from "~/services/page-headers.server";

export const MANAGED_ONLY_MESSAGE =
  "These forms are for accounts with a managed wallet. With a browser wallet, stake with the wallet tools on this page (they need JavaScript).";

function poolParam(poolId: string | undefined): StakePoolEntry {
  const pool = findPool(poolId);
  if (!pool) throw new Response("Unknown pool", { status: 404 });
  return pool;
}

/** The pool at one block, and the wallet's side of it when there is a wallet (and the pool is on this chain). */
async function readPool(entry: StakePoolEntry, wallet: Address | null) {
  const snapshot = await readStakingSnapshot();
  const state = snapshot.pools.find((pool) => pool.poolId === entry.id) ?? null;
  const mine = wallet && state ? await readWalletStakes(wallet, snapshot) : null;
  return { snapshot, state, mine };
}

export async function poolPage({ request, params }: LoaderFunctionArgs) {
  const entry = poolParam(params.poolId);
  const url = new URL(request.url);
  const { token, user } = await getAuth(request);
  const wallet = walletFromUserInfo(user?.WalletAddress);
  const webPath = usesWebPath(Boolean(token), user ? { address: user.WalletAddress, bindAddrType: user.BindAddrType } : null);
  const base = { entry: { id: entry.id, title: entry.title, description: entry.description }, webPath };

  let read;
  try {
    read = await readPool(entry, wallet);
  } catch (error) {
    logProblem(`Staking read failed: ${shortError(error)}`);
    return data({ ...base, chain: null });
  }
  const { snapshot, state, mine } = read;
  if (!state) return data({ ...base, chain: null });

  const stake = mine?.stakes.find((s) => s.poolId === entry.id) ?? { poolId: entry.id, staked: 0n, rewardBoxes: 0n };
  const amount = url.searchParams.get("amount");
  const page = {
    ...base,
    chain: {
      pool: poolView(entry, state, snapshot.now),
      now: snapshot.now.toString(),
      chainTime: formatChainTime(snapshot.now),
      wallet: mine && { address: mine.address, fire: shownAmount(mine.fire, "FIRE", "balance"), hasBnb: mine.bnb > 0n },
      stake: mine ? stakeView(entry, stake) : null,
      preview: amount === null ? null : rewardPreview(amount, entry, state, mine ? stake : null),
    },
  };
  if (webPath && mine) {
    // Fresh keys per render; never cached, so going back to the page never re-posts an old key.
    const managed = { keys: { deposit: newIdempotencyKey(), withdraw: newIdempotencyKey() } };
    return data({ ...page, managed, island: null }, { headers: { "Cache-Control": "no-store" } });
  }
  const island = {
    chain: stakingChainConfig(),
    status: state.status,
    vaultEnds: formatChainTime(state.endVaultTime),
    thresholdWei: state.takerThreshold.toString(),
    balanceWei: (mine?.fire ?? 0n).toString(),
    stakeWei: stake.staked.toString(),
  };
  return data({ ...page, managed: null, island: webPath ? null : island });
}

export const STAKING_INTENTS = ["deposit", "withdraw"] as const;
type StakingIntent = (typeof STAKING_INTENTS)[number];

export function poolPost({ request, params }: ActionFunctionArgs) {
  const entry = poolParam(params.poolId);
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
