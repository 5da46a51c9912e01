import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GasNotice } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { FleetGateNotice, MaterialsList, ShipAction } from "~/features/spaceship/parts";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { upgradePage, upgradePost, loaderCacheControl } from "~/routes/spaceship.upgrade/route.server";

// The pages carry idempotency keys and a player's fleet: never cached (the loader says no-store).
export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Spaceship upgrade | Spark Era" }];

export const loader = upgradePage;

export const action = upgradePost;

export default function SpaceshipUpgrade() {
  const { gate, fleet, ship, problem } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <Page
      title={ship ? `Upgrade ${ship.name}` : "Spaceship upgrade"}
      intro="Each level raises a ship's power by 15 % of its Total and its full duration by half an hour, for the materials its ships mine."
      actions={<SpaceshipNav />}
    >
      <FleetGateNotice gate={gate} what="upgrade your ships" />
      {problem && (
        <p role="alert" className="rounded-md border border-red-700 bg-red-950 px-3 py-2 text-sm">
          {problem}
        </p>
      )}
      {fleet && (
        <Section title="Your mined materials" id="materials">
          <MaterialsList materials={fleet.mined} label="Your mined materials" />
        </Section>
      )}
      {ship && (
        <Section title={ship.upgrade.top ? "At the top level" : `Level ${ship.upgrade.level} → ${ship.upgrade.next}`} id="upgrade">
          {ship.upgrade.top ? (
            <p className="text-sm">This ship is at level {ship.upgrade.level}, the top.</p>
          ) : (
            <div className="flex flex-col gap-4">
              <table className="w-full max-w-md text-sm">
                <caption className="sr-only">Materials for the next level</caption>
                <thead>
                  <tr className="border-b border-space-700 text-left text-slate-300">
                    <th scope="col" className="py-1 font-normal">
                      Material
                    </th>
                    <th scope="col" className="py-1 text-right font-normal">
                      Needed
                    </th>
                    <th scope="col" className="py-1 text-right font-normal">
                      You have
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ship.upgrade.rows.map((row) => (
                    <tr key={row.name} className="border-b border-space-800" data-testid={`upgrade-${row.name}`}>
                      <th scope="row" className="py-1 text-left font-normal text-white">
                        {row.name}
                      </th>
                      <td className="py-1 text-right text-white">{row.needed}</td>
                      <td className={`py-1 text-right ${row.enough ? "text-emerald-300" : "text-amber-300"}`}>
                        {row.held}
                        <span className="sr-only">{row.enough ? " (enough)" : " (not enough)"}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {ship.exploring && <p className="text-sm text-amber-200">This ship is exploring: recall it before you upgrade it.</p>}
              {!ship.upgrade.ready && <p className="text-sm">Send ships exploring to mine what is missing.</p>}
              {ship.actor.kind === "managed" && <GasNotice address={ship.wallet} hasBnb={ship.hasBnb} what="ship action" />}
              <ShipAction
                actor={ship.actor}
                action={{ intent: "upgrade", tokenId: ship.tokenId }}
                label={`Upgrade to level ${ship.upgrade.next}`}
                answer={answer}
                primary
              />
            </div>
          )}
          <p className="mt-3 text-sm">
            <Link to={`/spaceship/detail?tokenId=${ship.tokenId}`}>Back to the ship</Link>
          </p>
        </Section>
      )}
      {fleet && !ship && (
        <Section title="Your ships" id="ships">
          {fleet.list.length === 0 ? (
            <p className="muted text-sm">You have no ships on the chain to upgrade.</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm" aria-label="Your ships">
              {fleet.list.map(({ card, upgrade }) => (
                <li key={card.tokenId}>
                  <Link to={`?tokenId=${card.tokenId}`}>{card.name}</Link> · level {card.level}
                  {upgrade.top
                    ? " (top level)"
                    : ` → ${upgrade.next}: ${upgrade.rows.map((row) => `${row.needed} ${row.name}`).join(", ")}${upgrade.ready ? " (ready)" : ""}`}
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
