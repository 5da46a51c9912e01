import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GasNotice } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { Calculator } from "~/features/spaceship/calculator";
import { DurationBar, FleetGateNotice, ShipAction, StatusBadge } from "~/features/spaceship/parts";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { explorationPage, explorationPost, loaderCacheControl } from "~/routes/spaceship.exploration/route.server";

// The pages carry idempotency keys and a player's fleet: never cached (the loader says no-store).
export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Spaceship exploration | Spark Era" }];

export const loader = explorationPage;

export const action = explorationPost;

export default function SpaceshipExploration() {
  const { gate, fleet, calculator } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <Page
      title="Spaceship exploration"
      intro="Send ships to mine DarkIron, Silver and Gold. Longer missions mine more, and lose more duration."
      actions={<SpaceshipNav />}
    >
      <FleetGateNotice gate={gate} what="send your ships exploring" />
      {fleet && (
        <>
          {fleet.actor.kind === "managed" && <GasNotice address={fleet.wallet} hasBnb={fleet.hasBnb} what="ship action" />}
          <Section title="Missions under way" id="missions">
            {fleet.running.length === 0 ? (
              <p className="muted text-sm">No ship is exploring now.</p>
            ) : (
              <ul className="flex flex-col gap-4" aria-label="Missions under way">
                {fleet.running.map(({ card }) => (
                  <li key={card.tokenId} className="flex flex-col gap-2 rounded-lg border border-space-700 p-4" data-testid="mission-row">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <Link to={`/spaceship/detail?tokenId=${card.tokenId}`} className="font-semibold">
                        {card.name}
                      </Link>
                      <span className="text-sm text-slate-300">Power {card.chain?.power}</span>
                    </div>
                    {card.chain?.mission && (
                      <p className="text-sm">
                        Exploring for {card.chain.mission.elapsed}. Mined so far: <strong>{card.chain.mission.yieldSoFar}</strong>. Time
                        left: {card.chain.mission.left}.
                      </p>
                    )}
                    <ShipAction
                      actor={fleet.actor}
                      action={{ intent: "recall", tokenId: card.tokenId }}
                      label="Recall"
                      answer={answer}
                      primary
                    />
                  </li>
                ))}
              </ul>
            )}
            <p className="muted mt-3 text-xs">Times are the chain's clock: {fleet.chainTime} now.</p>
          </Section>
          <Section title="Docked ships" id="docked">
            {fleet.docked.length === 0 ? (
              <p className="muted text-sm">
                {fleet.inGame > 0
                  ? "Your ships are in the game: move them to the chain from the storehouse to explore."
                  : "You have no ships on the chain. A Spaceship loot box holds 10."}
              </p>
            ) : (
              <ul className="grid grid-cols-1 gap-4 md:grid-cols-2" aria-label="Docked ships">
                {fleet.docked.map(({ card, repair }) => (
                  <li key={card.tokenId} className="flex flex-col gap-2 rounded-lg border border-space-700 p-4" data-testid="docked-row">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <Link to={`/spaceship/detail?tokenId=${card.tokenId}`} className="font-semibold">
                        {card.name}
                      </Link>
                      <StatusBadge status={card.status} text={card.statusText} />
                    </div>
                    <p className="text-sm text-slate-300">
                      {card.typeName}, level {card.level}, power {card.chain?.power}
                    </p>
                    {card.chain && <DurationBar duration={card.chain.duration} />}
                    <div className="flex flex-wrap gap-3">
                      {card.status === "docked" && (
                        <ShipAction
                          actor={fleet.actor}
                          action={{ intent: "explore", tokenId: card.tokenId }}
                          label="Send exploring"
                          answer={answer}
                          primary
                        />
                      )}
                      {repair.needed && (
                        <ShipAction
                          actor={fleet.actor}
                          action={{ intent: "repair", tokenId: card.tokenId }}
                          label={`Repair for ${repair.cost}`}
                          answer={answer}
                        />
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
      <Section title="Duration-lost and power calculator" id="calculator">
        {fleet && fleet.choices.length > 0 && (
          <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Start from a ship">
            <div className="flex flex-col gap-1">
              <label htmlFor="calc-ship" className="text-sm font-semibold">
                Start from
              </label>
              <select id="calc-ship" name="ship" defaultValue={calculator.ship} className="field-input">
                {fleet.choices.map((choice) => (
                  <option key={choice.tokenId} value={choice.tokenId}>
                    {choice.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-secondary">
              Use its figures
            </button>
          </Form>
        )}
        <Calculator
          action="/spaceship/exploration"
          hidden={calculator.ship ? { ship: calculator.ship } : {}}
          values={calculator.values}
          errors={calculator.errors}
          result={calculator.result}
          options={calculator.options}
        />
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
