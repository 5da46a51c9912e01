/**
 * A loyalty pool's page, server side; routes/loyalty.page.$poolId/route.tsx only delegates (docs/architecture.md
 * "Inside app/"). The loader reads the pool and the bound wallet's side at one block (features/staking/staking.server.ts)
 * and writes them in words (features/staking/staking-view.ts). A managed wallet (product §4 web path) gets server forms that
 * start the executor's staking.deposit and staking.withdraw; a browser wallet gets what the island needs.
 * The action checks every post again against the chain, by the rules of core/staking.ts that the executor and
 * the island apply too, before it asks the executor for anything.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { poolView, rewardPreview, stakeView } from "~/features/staking/staking-view";
import { usesWebPath } from "~/domain/wallet-mode";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { readPool, stakingAction } from "~/features/staking/staking-actions.server";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { stakingChainConfig } from "~/features/staking/staking.server";
import { formatChainTime } from "~core/chain-text";
import { shownAmount } from "~core/money";
import { findPool, type StakePoolEntry } from "~core/pools";
import { logProblem, shortError } from "~/services/request-scope.server";

export { loaderCacheControl } from "~/services/page-headers.server";

function poolParam(poolId: string | undefined): StakePoolEntry {
  const pool = findPool(poolId);
  if (!pool) throw new Response("Unknown pool", { status: 404 });
  return pool;
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

export function poolPost({ request, params }: ActionFunctionArgs) {
  return stakingAction(request, poolParam(params.poolId));
}
