import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList } from "~/components/error-list";
import { GasNotice } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { answerFor, FleetGateNotice, ShipAction } from "~/features/spaceship/parts";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { Amount } from "~/components/amount";
import { configurationPage, configurationPost, loaderCacheControl } from "~/routes/spaceship.configuration/route.server";

// The pages carry idempotency keys and a player's fleet: never cached (the loader says no-store).
export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Spaceship configuration | Spark Era" }];

export const loader = configurationPage;

export const action = configurationPost;

export default function SpaceshipConfiguration() {
  const { gate, choices, ship, problem } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <Page
      title={ship ? `Configure ${ship.name}` : "Spaceship configuration"}
      intro="Fit equipment into a ship's open slots, take it out again, and open locked slots with a slot opener."
      actions={<SpaceshipNav />}
    >
      <FleetGateNotice gate={gate} what="configure your ships" />
      {problem && (
        <p role="alert" className="rounded-md border border-red-700 bg-red-950 px-3 py-2 text-sm">
          {problem}
        </p>
      )}
      {!ship && gate.state === "fleet" && (
        <Section title="Choose a ship" id="choose">
          {choices.length === 0 ? (
            <p className="muted text-sm">You have no ships on the chain to configure.</p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm" aria-label="Your ships">
              {choices.map((choice) => (
                <li key={choice.tokenId}>
                  <Link to={`?tokenId=${choice.tokenId}`}>{choice.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
      {ship && (
        <Section title="Slots" id="slots">
          <div className="flex flex-col gap-4">
            {ship.exploring && (
              <p className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
                This ship is exploring: recall it before you change its equipment.
              </p>
            )}
            {ship.actor.kind === "managed" && <GasNotice address={ship.wallet} hasBnb={ship.hasBnb} what="ship action" />}
            <ul className="flex flex-col gap-3">
              {ship.slots.map((slot) => {
                const refused = answerFor(answer, "fit", ship.tokenId);
                const errors = refused && refused.values.slot === String(slot.index) ? refused.errors.equipmentId : undefined;
                return (
                  <li
                    key={slot.slot}
                    className="flex flex-col gap-2 rounded-lg border border-space-700 p-3"
                    data-testid={`slot-${slot.slot}`}
                  >
                    <p className="text-sm">
                      <span className="font-semibold text-white">{slot.label}</span> ·{" "}
                      {!slot.open ? "locked" : slot.fitted ? slot.fitted.name : "empty"}
                    </p>
                    {slot.open && slot.fitted && !ship.exploring && (
                      <ShipAction
                        actor={ship.actor}
                        action={{ intent: "unfit", tokenId: ship.tokenId, slot: slot.index }}
                        fields={{ slot: String(slot.index) }}
                        label={`Remove from the ${slot.label} slot`}
                        answer={answer}
                      />
                    )}
                    {slot.open &&
                      !slot.fitted &&
                      !ship.exploring &&
                      (slot.choices.length === 0 ? (
                        <p className="muted text-sm">No {slot.label.toLowerCase()} equipment in your wallet fits here.</p>
                      ) : (
                        <ShipAction
                          actor={ship.actor}
                          action={{ intent: "fit", tokenId: ship.tokenId, slot: slot.index, choices: slot.choices }}
                          fields={{ slot: String(slot.index) }}
                          label={`Fit in the ${slot.label} slot`}
                          answer={answer}
                        >
                          <div className="flex flex-col gap-1">
                            <label htmlFor={`fit-${slot.slot}`} className="text-sm font-semibold">
                              Equipment
                            </label>
                            <select
                              id={`fit-${slot.slot}`}
                              name="equipmentId"
                              defaultValue={refused?.values.equipmentId}
                              aria-invalid={errors ? true : undefined}
                              aria-describedby={errors ? `fit-${slot.slot}-errors` : undefined}
                              className="field-input"
                            >
                              {slot.choices.map((choice) => (
                                <option key={choice.tokenId} value={choice.tokenId}>
                                  {choice.name}
                                </option>
                              ))}
                            </select>
                            <ErrorList id={`fit-${slot.slot}-errors`} errors={errors} />
                          </div>
                        </ShipAction>
                      ))}
                  </li>
                );
              })}
            </ul>
            {ship.opener ? (
              <div className="flex flex-col gap-2">
                <p className="text-sm">
                  A slot opener opens the {ship.opener.slot} slot for {ship.opener.price}. Your wallet holds <Amount value={ship.quark} />.
                </p>
                <ShipAction
                  actor={ship.actor}
                  action={{ intent: "open-slot", tokenId: ship.tokenId }}
                  label={`Open the ${ship.opener.slot} slot for ${ship.opener.price}`}
                  answer={answer}
                />
              </div>
            ) : (
              <p className="muted text-sm">Every slot of this ship is open.</p>
            )}
            <p className="text-sm">
              <Link to={`/spaceship/detail?tokenId=${ship.tokenId}`}>Back to the ship</Link>
            </p>
          </div>
        </Section>
      )}
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
