import type { MetaFunction } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Page } from "~/components/page";
import { WalletLookup } from "~/features/staking/wallet-lookup";
import { PoolFigures, PoolStatusBadge, PoolTimeline, StakeLine } from "~/features/staking/pool-facts";
import { useConnectedAddress } from "~/islands/wallet-store";
import { Amount } from "~/components/amount";
import { loyaltyPage } from "~/routes/loyalty._index/route.server";

export const meta: MetaFunction = () => [{ title: "Loyalty Program | Spark Era" }];

export const loader = loyaltyPage;

export default function Loyalty() {
  const page = useLoaderData<typeof loader>();
  const connected = useConnectedAddress();
  const fetcher = useFetcher<typeof loader>();
  const needsLookup = page.available && !page.wallet && connected;
  useEffect(() => {
    if (needsLookup) fetcher.load(`/loyalty?index&wallet=${encodeURIComponent(connected)}`);
    // fetcher.load is stable enough for a one-off load per connected address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [needsLookup, connected]);
  const shown = needsLookup && fetcher.data?.available ? fetcher.data : page;

  return (
    <Page
      title="Loyalty Program"
      intro="Stake FIRE in a pool while it is open. When the vault period ends, withdraw your FIRE and claim the reward loot boxes your stake earned."
    >
      {!shown.available ? (
        <>
          <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
            The chain is not answering right now, so the pools' figures cannot be shown. Please try again in a moment.
          </p>
          <ul className="grid gap-4 md:grid-cols-3">
            {shown.catalogue.map((pool) => (
              <li key={pool.id} className="card">
                <h2 className="section-title">{pool.title}</h2>
                <p className="muted mt-2 text-sm">{pool.description}</p>
                <p className="mt-3 text-sm">Reward: {pool.rewardBoxName}</p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <div className="flex flex-col gap-3 text-sm">
            <p>
              Staked across all pools:{" "}
              <strong className="text-white">
                <Amount value={shown.totalStaked} />
              </strong>
              . Chain time: {shown.chainTime}.
            </p>
            {shown.wallet ? (
              <p data-testid="stakes-wallet">
                {shown.wallet.source === "bound" ? "Your wallet" : "Wallet"}{" "}
                <span className="break-all font-mono">{shown.wallet.address}</span> holds <Amount value={shown.wallet.fire} />.
              </p>
            ) : (
              <WalletLookup typed={shown.lookup.typed} error={shown.lookup.error} />
            )}
          </div>
          <ul className="grid gap-4 md:grid-cols-3">
            {shown.pools.map((pool) => (
              <li
                key={pool.id}
                className="card flex flex-col gap-3"
                aria-labelledby={`pool-${pool.id}-title`}
                data-testid={`pool-${pool.id}`}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 id={`pool-${pool.id}-title`} className="section-title">
                    {pool.title}
                  </h2>
                  <PoolStatusBadge pool={pool} />
                </div>
                <p className="muted text-sm">{pool.description}</p>
                <PoolFigures pool={pool} />
                <PoolTimeline pool={pool} now={shown.now} compact />
                {pool.mine && <StakeLine stake={pool.mine} />}
                <div className="mt-auto flex flex-wrap gap-2">
                  <Link
                    to={`/loyalty/page/${pool.id}`}
                    className="btn-primary"
                    aria-label={`${pool.status === "open" ? "Stake" : "Details"}: ${pool.title}`}
                  >
                    {pool.status === "open" ? "Stake" : "Details"}
                  </Link>
                  <Link to={`/loyalty/rewards/${pool.id}`} className="btn-secondary" aria-label={`Rewards: ${pool.title}`}>
                    Rewards
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}
