/**
 * The loyalty programme's server work; routes/loyalty._index/route.tsx only delegates (docs/architecture.md "Inside
 * app/"). The pools come from the chain once per block (features/staking/staking.server.ts); a wallet's stakes are shown
 * for the account's bound wallet, or for an address looked up with `?wallet=` (public chain data, so the URL can be
 * bookmarked and the island can fill it with a connected browser wallet).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { poolView, stakeView } from "~/features/staking/staking-view";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { lookedUpWallet, readStakingSnapshot, readWalletStakes } from "~/features/staking/staking.server";
import { formatChainTime } from "~core/chain-text";
import { shownAmount } from "~core/money";
import { STAKE_POOLS } from "~core/pools";
import { logProblem, shortError } from "~/services/request-scope.server";

export async function loyaltyPage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { user } = await getAuth(request);
  const bound = walletFromUserInfo(user?.WalletAddress);
  const lookup = lookedUpWallet(url);
  const wallet = bound ?? lookup.wallet;
  const catalogue = STAKE_POOLS.map((entry) => ({
    id: entry.id,
    title: entry.title,
    description: entry.description,
    rewardBoxName: entry.rewardBoxName,
  }));
  try {
    const snapshot = await readStakingSnapshot();
    const mine = wallet ? await readWalletStakes(wallet, snapshot) : null;
    const pools = snapshot.pools.map((state) => {
      const entry = STAKE_POOLS.find((pool) => pool.id === state.poolId)!;
      const stake = mine?.stakes.find((s) => s.poolId === state.poolId);
      return { ...poolView(entry, state, snapshot.now), mine: stake ? stakeView(entry, stake) : null };
    });
    return {
      available: true as const,
      catalogue,
      pools,
      now: snapshot.now.toString(),
      chainTime: formatChainTime(snapshot.now),
      totalStaked: shownAmount(snapshot.totalPoolSupply, "FIRE", "balance"),
      wallet: wallet && {
        address: wallet,
        source: bound ? ("bound" as const) : ("lookup" as const),
        fire: shownAmount(mine!.fire, "FIRE", "balance"),
      },
      lookup: { typed: bound ? "" : lookup.typed, error: bound ? null : lookup.error },
    };
  } catch (error) {
    logProblem(`Staking read failed: ${shortError(error)}`);
    return { available: false as const, catalogue, lookup: { typed: lookup.typed, error: lookup.error } };
  }
}
