import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList } from "~/components/error-list";
import { GasNotice } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { ShipCards } from "~/features/spaceship/ship-cards";
import { FleetGateNotice, MaterialsList, ShipAction, answerFor } from "~/features/spaceship/parts";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { FLEET_SORTS, FLEET_STATUSES, SHIP_STATUS_TEXT } from "~/features/spaceship/spaceship-labels";
import { storehousePage, storehousePost, loaderCacheControl } from "~/routes/spaceship.storehouse/route.server";

// The pages carry idempotency keys and a player's fleet: never cached (the loader says no-store).
export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Spaceship storehouse | Spark Era" }];

export const loader = storehousePage;

export const action = storehousePost;

const MATERIAL_FIELDS = [
  { name: "darkIron", label: "DarkIron" },
  { name: "silver", label: "Silver" },
  { name: "gold", label: "Gold" },
] as const;

export default function SpaceshipStorehouse() {
  const { gate, filter, notices, ranks, fleet } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const sent = answerFor(answer, "send-materials", null);
  return (
    <Page title="Spaceship storehouse" intro="Every spaceship you own, on the chain and in the game." actions={<SpaceshipNav />}>
      <FleetGateNotice gate={gate} what="see your spaceships" />
      {fleet && (
        <>
          <Section title="Mined materials" id="materials">
            <div className="flex flex-col gap-4">
              <MaterialsList materials={fleet.mined} label="Mined materials" />
              <p className="muted text-sm">
                Ships mine these when they explore. Upgrades spend them from here; send what you want to use or trade in the game.
              </p>
              {fleet.actor.kind === "managed" && <GasNotice address={fleet.wallet} hasBnb={fleet.hasBnb} what="ship action" />}
              <ShipAction
                actor={fleet.actor}
                action={{ intent: "send-materials", mined: fleet.minedUnits }}
                label="Send to the game"
                answer={answer}
              >
                {MATERIAL_FIELDS.map((field) => {
                  const errors = sent?.errors[field.name];
                  return (
                    <div key={field.name} className="flex flex-col gap-1">
                      <label htmlFor={`send-${field.name}`} className="text-sm font-semibold">
                        {field.label}
                      </label>
                      <input
                        id={`send-${field.name}`}
                        name={field.name}
                        inputMode="numeric"
                        autoComplete="off"
                        defaultValue={sent?.values[field.name] ?? "0"}
                        aria-invalid={errors ? true : undefined}
                        aria-describedby={errors ? `send-${field.name}-errors` : undefined}
                        className="field-input w-28"
                      />
                      <ErrorList id={`send-${field.name}-errors`} errors={errors} />
                    </div>
                  );
                })}
              </ShipAction>
            </div>
          </Section>
          <Section title="Your spaceships" id="ships">
            <div className="flex flex-col gap-4">
              <details className="rounded-md border border-space-700 p-3" open>
                <summary className="cursor-pointer font-semibold">Filters</summary>
                <Form method="get" className="mt-3 flex flex-wrap items-end gap-3" aria-label="Filter ships">
                  <Select name="rank" label="Rank" value={String(filter.rank ?? "")} options={[["", "All"], ...ranks]} />
                  <Select
                    name="status"
                    label="Status"
                    value={filter.status ?? ""}
                    options={[["", "All"], ...FLEET_STATUSES.map((status) => [status, SHIP_STATUS_TEXT[status]] as [string, string])]}
                  />
                  <Select name="sort" label="Sort by" value={filter.sort} options={Object.entries(FLEET_SORTS)} />
                  <Select
                    name="order"
                    label="Order"
                    value={filter.order}
                    options={[
                      ["desc", "Highest first"],
                      ["asc", "Lowest first"],
                    ]}
                  />
                  <button type="submit" className="btn-secondary">
                    Apply
                  </button>
                </Form>
              </details>
              {notices.length > 0 && (
                <ul role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
                  {notices.map((notice) => (
                    <li key={notice}>{notice}</li>
                  ))}
                </ul>
              )}
              <p className="text-sm" data-testid="ship-count">
                {fleet.ships.length === fleet.total
                  ? `${fleet.total} ${fleet.total === 1 ? "ship" : "ships"}`
                  : `${fleet.ships.length} of ${fleet.total} ships`}
              </p>
              {fleet.total === 0 ? (
                <p className="muted">
                  You have no spaceships yet. A <Link to="/lootbox/17">Spaceship loot box</Link> holds 10.
                </p>
              ) : (
                <ShipCards ships={fleet.ships} />
              )}
            </div>
          </Section>
        </>
      )}
    </Page>
  );
}

function Select({ name, label, value, options }: { name: string; label: string; value: string; options: [string, string][] }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`filter-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value} className="field-input">
        {options.map(([code, text]) => (
          <option key={code} value={code}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
