/**
 * A pool's rewards page, server side; routes/loyalty.rewards.$poolId/route.tsx only delegates (docs/architecture.md
 * "Inside app/"). For the bound wallet, or one looked up with `?wallet=`: the boxes its stake has earned so far,
 * the boxes it claimed (from the contract's Withdrawn events) and which of them are still unopened, and the
 * history of its deposits and withdrawals (Deposited and Withdrawn).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { boxCount, historyRows, poolView, stakeView } from "~/features/staking/staking-view";
import { getAuth } from "~/services/apis.server";
import { queryUserBoxes, walletFromUserInfo } from "~/services/chain.server";
import { lookedUpWallet, readStakingHistory, readStakingSnapshot, readWalletStakes } from "~/features/staking/staking.server";
import { findPool } from "~core/pools";
import { logProblem, shortError } from "~/services/request-scope.server";

export async function rewardsPage({ request, params }: LoaderFunctionArgs) {
  const entry = findPool(params.poolId);
  if (!entry) throw new Response("Unknown pool", { status: 404 });
  const { user } = await getAuth(request);
  const bound = walletFromUserInfo(user?.WalletAddress);
  const lookup = lookedUpWallet(new URL(request.url));
  const wallet = bound ?? lookup.wallet;
  const base = {
    entry: { id: entry.id, title: entry.title, rewardBoxName: entry.rewardBoxName, rewardBoxType: entry.rewardBoxType },
    loggedIn: Boolean(user),
    lookup: bound ? { typed: "", error: null } : { typed: lookup.typed, error: lookup.error },
  };
  try {
    const snapshot = await readStakingSnapshot();
    const state = snapshot.pools.find((pool) => pool.poolId === entry.id);
    if (!state) return { ...base, chain: null };
    const pool = poolView(entry, state, snapshot.now);
    if (!wallet) return { ...base, chain: { pool, mine: null } };
    const [stakes, history, unopened] = await Promise.all([
      readWalletStakes(wallet, snapshot),
      readStakingHistory(entry.id, wallet, snapshot),
      queryUserBoxes(wallet).then((boxes) => new Set(boxes.map((box) => box.id))),
    ]);
    const stake = stakes.stakes.find((s) => s.poolId === entry.id)!;
    const claimed = history.flatMap((item) => (item.kind === "withdrawal" ? item.rewardBoxIds : []));
    const claimedBoxes = claimed.map((id) => ({ id: id.toString(), unopened: unopened.has(id) }));
    return {
      ...base,
      chain: {
        pool,
        mine: {
          address: wallet,
          source: bound ? ("bound" as const) : ("lookup" as const),
          stake: stakeView(entry, stake),
          claimed: claimedBoxes,
          claimedText: boxCount(claimed.length, entry.rewardBoxName),
          unopenedCount: claimedBoxes.filter((box) => box.unopened).length,
          history: historyRows(history, entry),
        },
      },
    };
  } catch (error) {
    logProblem(`Staking read failed: ${shortError(error)}`);
    return { ...base, chain: null };
  }
}
