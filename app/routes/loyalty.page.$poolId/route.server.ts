/**
 * A loyalty pool's page, server side; routes/loyalty.page.$poolId/route.tsx only delegates (docs/architecture.md
 * "Inside app/"). The loader reads the pool and the bound wallet's side at one block (features/staking/staking.server.ts)
 * and writes them in words (features/staking/staking-view.ts). A managed wallet (product §4 web path) gets server forms that
 * start the executor's staking.deposit and staking.withdraw; a browser wallet gets what the island needs.
 * The action checks every post again against the chain, by the rules of core/staking.ts that the executor and
 * the island apply too, before it asks the executor for anything.
 */
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idempotencyKey } from "~/features/actions/action-forms.server";
import { poolView, rewardPreview, stakeView } from "~/features/staking/staking-view";
import { usesWebPath } from "~/domain/wallet-mode";
import { actionProblem, newIdempotencyKey, statusPath } from "~/features/actions/actions.server";
import { getAuth, signedInApis } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { readStakingSnapshot, readWalletStakes, stakingChainConfig, type StakingSnapshot } from "~/features/staking/staking.server";
import { formatChainTime } from "~core/chain-text";
import { shownAmount } from "~core/money";
import { findPool, type StakePoolEntry } from "~core/pools";
import { canDeposit, checkStakeAmount, withdrawRefusal } from "~core/staking";
import { logProblem, shortError } from "~/services/request-scope.server";

export { loaderCacheControl } from "~/services/page-headers.server";

export const MANAGED_ONLY_MESSAGE =
  "These forms are for accounts with a managed wallet. With a browser wallet, stake with the wallet tools on this page (they need JavaScript).";
export const CHAIN_DOWN_MESSAGE = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";

function poolParam(poolId: string | undefined): StakePoolEntry {
  const pool = findPool(poolId);
  if (!pool) throw new Response("Unknown pool", { status: 404 });
  return pool;
}

function poolOnChain(snapshot: StakingSnapshot, entry: StakePoolEntry) {
  return snapshot.pools.find((pool) => pool.poolId === entry.id) ?? null;
}

export async function poolPage({ request, params }: LoaderFunctionArgs) {
  const entry = poolParam(params.poolId);
  const url = new URL(request.url);
  const { token, user } = await getAuth(request);
  const wallet = walletFromUserInfo(user?.WalletAddress);
  const webPath = usesWebPath(Boolean(token), user ? { address: user.WalletAddress, bindAddrType: user.BindAddrType } : null);
  const base = { entry: { id: entry.id, title: entry.title, description: entry.description }, webPath };

  let snapshot: StakingSnapshot;
  let state;
  let mine;
  try {
    snapshot = await readStakingSnapshot();
    state = poolOnChain(snapshot, entry);
    mine = wallet && state ? await readWalletStakes(wallet, snapshot) : null;
  } catch (error) {
    logProblem(`Staking read failed: ${shortError(error)}`);
    return data({ ...base, chain: null });
  }
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
export type StakingIntent = (typeof STAKING_INTENTS)[number];

/** What a refused post answers: errors by field ("" for the whole form) and the amount typed, for the form to show again. */
export interface StakingActionData {
  intent: StakingIntent | null;
  errors: Record<string, string[]>;
  values: { amount?: string };
}

const DepositSchema = z.object({ amount: z.string().max(100).default(""), idempotencyKey });
const WithdrawSchema = z.object({ idempotencyKey });

export async function poolPost({ request, params }: ActionFunctionArgs) {
  const entry = poolParam(params.poolId);
  const { user, sso } = await signedInApis(request);
  const formData = await request.formData();
  const posted = String(formData.get("intent") ?? "");
  const intent = STAKING_INTENTS.find((name) => name === posted) ?? null;
  const typed = String(formData.get("amount") ?? "").slice(0, 100);
  const answer = (errors: Record<string, string[]>, status = 400) =>
    data<StakingActionData>({ intent, errors, values: intent === "deposit" ? { amount: typed } : {} }, { status });
  const refuse = (message: string, status = 400) => answer({ "": [message] }, status);

  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet || !usesWebPath(true, { address: wallet, bindAddrType: user.BindAddrType })) return refuse(MANAGED_ONLY_MESSAGE, 403);
  if (!intent) return refuse("Unknown action.");
  const submission = parseWithZod(formData, { schema: intent === "deposit" ? DepositSchema : WithdrawSchema });
  if (submission.status !== "success") {
    const errors = Object.fromEntries(Object.entries(submission.error ?? {}).filter((e): e is [string, string[]] => Boolean(e[1]?.length)));
    return answer({ "": Object.values(errors).flat() });
  }

  let snapshot: StakingSnapshot;
  let state;
  let mine;
  try {
    snapshot = await readStakingSnapshot();
    state = poolOnChain(snapshot, entry);
    mine = await readWalletStakes(wallet, snapshot);
  } catch {
    return refuse(CHAIN_DOWN_MESSAGE, 503);
  }
  if (!state) return refuse(`There is no ${entry.title} on this chain.`, 404);
  const staked = mine.stakes.find((s) => s.poolId === entry.id)?.staked ?? 0n;

  try {
    if (intent === "deposit") {
      const facts = { poolId: entry.id, status: state.status, balance: mine.fire, stake: staked, threshold: state.takerThreshold };
      const checked = checkStakeAmount(typed, facts);
      // A closed pool is the whole form's refusal; anything about the amount goes next to the field.
      if (!checked.ok) return canDeposit(state.status) ? answer({ amount: [checked.message] }) : refuse(checked.message);
      const execution = await sso.startAction({
        action: "staking.deposit",
        params: { poolId: entry.id, amount: checked.amount.toString() },
        idempotencyKey: submission.value.idempotencyKey,
      });
      return redirect(statusPath(execution.id, `/loyalty/page/${entry.id}`), 303);
    }
    const refusal = withdrawRefusal({ poolId: entry.id, now: snapshot.now, endVaultTime: state.endVaultTime, staked });
    if (refusal) return refuse(refusal);
    const execution = await sso.startAction({
      action: "staking.withdraw",
      params: { poolId: entry.id },
      idempotencyKey: submission.value.idempotencyKey,
    });
    return redirect(statusPath(execution.id, `/loyalty/page/${entry.id}`), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return refuse(problem.message, problem.status);
  }
}
