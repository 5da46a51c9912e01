import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GasNotice } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { Calculator } from "~/features/spaceship/calculator";
import { DurationBar, FleetGateNotice, ShipAction, StatusBadge } from "~/features/spaceship/parts";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { detailPage, detailPost, loaderCacheControl } from "~/routes/spaceship.detail/route.server";

// The pages carry idempotency keys and a player's fleet: never cached (the loader says no-store).
export const headers = loaderCacheControl;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.ship?.name ?? "Spaceship detail"} | Spark Era` }];

export const loader = detailPage;

export const action = detailPost;

function ShipPicker({
  typed,
  problem,
  ships,
}: {
  typed: string;
  problem: string | null;
  ships: { tokenId: string; name: string; typeName: string; level: number }[];
}) {
  return (
    <Section title="Choose a ship" id="choose">
      <div className="flex flex-col gap-4">
        <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Find a ship">
          <div className="flex flex-col gap-1">
            <label htmlFor="ship-token-id" className="text-sm font-semibold">
              Ship token id
            </label>
            <input
              id="ship-token-id"
              name="tokenId"
              inputMode="numeric"
              defaultValue={typed}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "ship-token-id-error" : undefined}
              className="field-input w-48"
            />
          </div>
          <button type="submit" className="btn-secondary">
            Show
          </button>
        </Form>
        {problem && (
          <p id="ship-token-id-error" role="alert" className="text-sm text-red-300">
            {problem}
          </p>
        )}
        {ships.length > 0 && (
          <ul className="flex flex-col gap-1 text-sm" aria-label="Your ships">
            {ships.map((ship) => (
              <li key={ship.tokenId}>
                <Link to={`?tokenId=${ship.tokenId}`}>{ship.name}</Link> · {ship.typeName}, level {ship.level}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}

export default function SpaceshipDetail() {
  const { gate, typed, myShips, ship, problem } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (!ship) {
    return (
      <Page
        title="Spaceship detail"
        intro="One ship: its attributes, power, level, duration, slots and history."
        actions={<SpaceshipNav />}
      >
        <FleetGateNotice gate={gate.state === "fleet" ? { state: "fleet" } : gate} what="see your ships here" />
        <ShipPicker typed={typed} problem={problem} ships={myShips} />
      </Page>
    );
  }
  const { chain, actor } = ship;
  return (
    <Page title={ship.name} intro={`${ship.typeName} spaceship, level ${ship.level}.`} actions={<SpaceshipNav />}>
      <Section title="Overview" id="overview">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-300">Status</dt>
            <dd>
              <StatusBadge status={ship.status} text={ship.statusText} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-300">Power</dt>
            <dd className="text-lg font-semibold text-white" data-testid="ship-power">
              {chain?.power ?? "—"}
            </dd>
          </div>
          <div>
            <dt className="text-slate-300">Level</dt>
            <dd className="text-lg font-semibold text-white" data-testid="ship-level">
              {ship.level}
            </dd>
          </div>
          <div>
            <dt className="text-slate-300">Owner</dt>
            <dd className="text-white">{ship.owner ? "You" : ship.ownerShort}</dd>
          </div>
        </dl>
        {!chain && (
          <p className="mt-3 text-sm">
            This ship is in the game.{" "}
            {ship.owner || ship.wallet ? (
              <Link to={`${ship.itemHref}#move`}>Move it to the chain</Link>
            ) : (
              "Its owner can move it to the chain"
            )}{" "}
            to explore, fit and upgrade it.
          </p>
        )}
      </Section>
      <Section title="Attributes" id="attributes">
        <table className="w-full max-w-md text-sm">
          <caption className="sr-only">Attributes of {ship.name}</caption>
          <tbody>
            {ship.stats.map((row) => (
              <tr key={row.label} className="border-b border-space-800">
                <th scope="row" className="py-1 text-left font-normal text-slate-300">
                  {row.label}
                </th>
                <td className="py-1 text-right text-white">{row.value}</td>
              </tr>
            ))}
            {chain && (
              <tr>
                <th scope="row" className="py-1 text-left font-normal text-slate-300">
                  Lost rate
                </th>
                <td className="py-1 text-right text-white">{chain.rate}</td>
              </tr>
            )}
          </tbody>
        </table>
      </Section>
      {chain && (
        <>
          <Section title="Duration and exploration" id="duration">
            <div className="flex flex-col gap-4">
              <DurationBar duration={chain.duration} />
              {chain.mission && (
                <p className="text-sm" data-testid="mission">
                  Exploring for {chain.mission.elapsed}; mined so far: {chain.mission.yieldSoFar}. Time left before the duration runs out:{" "}
                  {chain.mission.left}.
                </p>
              )}
              {actor && actor.kind === "managed" && ship.wallet && (
                <GasNotice address={ship.wallet} hasBnb={ship.hasBnb} what="ship action" />
              )}
              {actor && (
                <div className="flex flex-wrap gap-4">
                  {chain.docked && (
                    <ShipAction
                      actor={actor}
                      action={{ intent: "explore", tokenId: ship.tokenId }}
                      label="Send exploring"
                      answer={answer}
                      primary
                    />
                  )}
                  {chain.exploring && (
                    <ShipAction actor={actor} action={{ intent: "recall", tokenId: ship.tokenId }} label="Recall" answer={answer} primary />
                  )}
                  {chain.repair.needed && !chain.exploring && (
                    <ShipAction
                      actor={actor}
                      action={{ intent: "repair", tokenId: ship.tokenId }}
                      label={`Repair for ${chain.repair.cost}`}
                      answer={answer}
                    />
                  )}
                </div>
              )}
              <p className="muted text-xs">Times are the chain's clock: {chain.chainTime} now.</p>
            </div>
          </Section>
          <Section title="Slots and equipment" id="slots">
            <ul className="flex flex-col gap-1 text-sm">
              {chain.slots.map((slot) => (
                <li key={slot.slot} data-testid="slot">
                  <span className="font-semibold text-white">{slot.label}:</span>{" "}
                  {!slot.open ? "locked" : slot.fitted ? slot.fitted.name : "empty"}
                </li>
              ))}
            </ul>
            {ship.owner && (
              <p className="mt-3 text-sm">
                <Link to={`/spaceship/configuration?tokenId=${ship.tokenId}`}>Configure the slots</Link>
              </p>
            )}
          </Section>
          <Section title="Upgrade" id="upgrade">
            {chain.upgrade.top ? (
              <p className="text-sm">This ship is at the top level.</p>
            ) : (
              <p className="text-sm">
                Level {chain.upgrade.level} → {chain.upgrade.next} needs{" "}
                {chain.upgrade.rows.map((row) => `${row.needed} ${row.name}`).join(", ")}.{" "}
                {ship.owner && <Link to={`/spaceship/upgrade?tokenId=${ship.tokenId}`}>Upgrade it</Link>}
              </p>
            )}
          </Section>
        </>
      )}
      <Section title="Calculators" id="calculators">
        <Calculator
          action="/spaceship/detail"
          hidden={{ tokenId: ship.tokenId }}
          values={ship.calculator.values}
          errors={ship.calculator.errors}
          result={ship.calculator.result}
          options={ship.calculator.options}
          note="They start from this ship as it is now. Change any figure to see what a level, a piece of equipment or a longer mission would do."
        />
        <p className="mt-3 text-sm">
          <Link to={ship.calculator.standalone}>Open this calculation on its own page</Link>
        </p>
      </Section>
      {chain?.history && (
        <Section title="History" id="history">
          {chain.history.length === 0 ? (
            <p className="muted text-sm">This ship has not acted on chain yet.</p>
          ) : (
            <ol className="flex flex-col gap-1 text-sm" data-testid="ship-history">
              {chain.history.map((entry) => (
                <li key={entry.key}>
                  <span className="text-slate-300">{entry.when}</span> · {entry.text}
                </li>
              ))}
            </ol>
          )}
        </Section>
      )}
      <p className="text-sm">
        <Link to={ship.itemHref}>This ship in the marketplace</Link> · <Link to="/spaceship/storehouse">Your storehouse</Link>
      </p>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
