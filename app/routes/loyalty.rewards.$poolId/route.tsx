import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-page";
import { LoginPrompt, Page, Section } from "~/components/page";
import { PoolStatusBadge, StakeLine } from "~/features/staking/pool-facts";
import { WalletLookup } from "~/features/staking/wallet-lookup";
import { loginHref } from "~/domain/login-href";
import { rewardsPage } from "~/routes/loyalty.rewards.$poolId/route.server";

export const loader = rewardsPage;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Rewards of the ${data?.entry.title ?? "pool"} | Spark Era` }];

export default function PoolRewards() {
  const { entry, chain, loggedIn, lookup } = useLoaderData<typeof loader>();
  const location = useLocation();
  const back = <Link to={`/loyalty/page/${entry.id}`}>Back to the pool</Link>;
  const intro = `Every full threshold of FIRE staked in the ${entry.title} earns one ${entry.rewardBoxName}, forged when the stake is withdrawn after the vault period.`;
  if (!chain) {
    return (
      <Page title={`Rewards of the ${entry.title}`} intro={intro} actions={back}>
        <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
          The chain is not answering right now, so the rewards cannot be shown. Please try again in a moment.
        </p>
      </Page>
    );
  }
  const { pool, mine } = chain;
  return (
    <Page title={`Rewards of the ${entry.title}`} intro={intro} actions={back}>
      <Section title="Reward supply" id="supply">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <PoolStatusBadge pool={pool} /> {pool.boxes.allocated} of {pool.boxes.maxSupply} {entry.rewardBoxName}es allocated,{" "}
          {pool.boxes.claimed} claimed, {pool.boxes.left} left.
        </p>
      </Section>
      {!mine ? (
        <Section title="Your rewards" id="yours">
          <div className="flex flex-col gap-4">
            {!loggedIn && <LoginPrompt href={loginHref(location.pathname)} what="see the rewards of the wallet bound to your account" />}
            <WalletLookup typed={lookup.typed} error={lookup.error} />
          </div>
        </Section>
      ) : (
        <>
          <Section title="Your reward boxes" id="yours">
            <div className="flex flex-col gap-3 text-sm">
              <p>
                {mine.source === "bound" ? "Your wallet" : "Wallet"} <span className="break-all font-mono">{mine.address}</span>.
              </p>
              {mine.stake.stakedWei !== "0" && (
                <>
                  <StakeLine stake={mine.stake} />
                  <p>
                    {pool.status === "claimable" ? (
                      <>
                        The vault is open: <Link to={`/loyalty/page/${entry.id}`}>withdraw and claim</Link> to get them.
                      </>
                    ) : (
                      `They are forged when you withdraw, from ${pool.dates.vaultEnds}.`
                    )}
                  </p>
                </>
              )}
              <p data-testid="claimed-summary">
                Claimed: {mine.claimedText}
                {mine.claimed.length > 0 && `, ${mine.unopenedCount} unopened`}.
              </p>
              {mine.claimed.length > 0 && (
                <ul className="flex flex-wrap gap-2" aria-label="Claimed reward boxes">
                  {mine.claimed.map((box) => (
                    <li key={box.id} className="rounded-md border border-space-700 px-3 py-2">
                      {entry.rewardBoxName} #{box.id}:{" "}
                      {box.unopened ? <Link to={`/lootbox/${entry.rewardBoxType}`}>open it</Link> : "opened"}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </Section>
          <Section title="History" id="history">
            {mine.history.length === 0 ? (
              <p className="muted text-sm">No deposits or withdrawals in this pool yet.</p>
            ) : (
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead>
                    <tr className="text-slate-300">
                      <th scope="col" className="py-1 pr-4">
                        Date
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        What
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        Amount
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        Result
                      </th>
                      <th scope="col" className="py-1">
                        Transaction
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {mine.history.map((row) => (
                      <tr key={row.key} className="border-t border-space-700">
                        <td className="whitespace-nowrap py-1 pr-4">{row.date}</td>
                        <td className="py-1 pr-4">{row.what}</td>
                        <td className="whitespace-nowrap py-1 pr-4">{row.amount}</td>
                        <td className="py-1 pr-4">{row.detail}</td>
                        <td className="py-1 font-mono text-xs" title={row.txHash}>
                          {row.txHash.slice(0, 10)}…
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
