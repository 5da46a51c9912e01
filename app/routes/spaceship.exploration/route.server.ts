/**
 * Exploration, server side (issue 15): the missions running now with their time, yield so far and time left by the
 * chain's clock, the docked ships to send out or repair, and the calculators, started from a chosen ship
 * (`?ship=`) or the first docked one.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { formatChainTime } from "~core/chain-text";
import { repairView, shipCard } from "~/features/spaceship/spaceship-view";
import { calculatorDefaults, calculatorOptions, calculatorResult, parseCalculator } from "~/features/spaceship/calculator-form";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, shipActor } from "~/features/spaceship/spaceship-pages.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/exploration";

export async function explorationPage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const gate = await fleetGate(request);
  const chosen = (url.searchParams.get("ship") ?? "").slice(0, 80);
  if (gate.state !== "fleet") {
    const calculator = parseCalculator(url.searchParams, calculatorDefaults());
    return data(
      {
        gate,
        fleet: null,
        calculator: {
          ...calculator,
          result: calculator.input && calculatorResult(calculator.input),
          options: calculatorOptions(),
          ship: "",
        },
      },
      { status: calculator.input ? 200 : 400 },
    );
  }
  const { fleet } = gate;
  const onChain = fleet.ships.filter((ship) => ship.state).map((ship) => ({ ...ship, state: ship.state! }));
  const rows = onChain.map(({ record, state }) => ({ card: shipCard(shipFacts(record), state, fleet.now), repair: repairView(state) }));
  const base =
    onChain.find((ship) => ship.record.tokenId === chosen) ?? onChain.find((ship) => ship.state.exploringSince === 0n) ?? onChain[0];
  const calculator = parseCalculator(url.searchParams, calculatorDefaults(base?.state));
  return data(
    {
      gate: { state: "fleet" as const },
      fleet: {
        wallet: fleet.wallet,
        hasBnb: fleet.bnb > 0n,
        chainTime: formatChainTime(fleet.now),
        running: rows.filter((row) => row.card.status === "exploring"),
        docked: rows.filter((row) => row.card.status !== "exploring"),
        inGame: fleet.ships.length - onChain.length,
        choices: onChain.map(({ record }) => ({ tokenId: record.tokenId, name: record.name })),
        actor: shipActor(gate),
      },
      calculator: {
        ...calculator,
        result: calculator.input && calculatorResult(calculator.input),
        options: calculatorOptions(),
        ship: base?.record.tokenId ?? "",
      },
    },
    { status: calculator.input ? 200 : 400, headers: NO_STORE },
  );
}

export const explorationPost = ({ request }: ActionFunctionArgs) => spaceshipAction(request, PATH);

export { loaderCacheControl } from "~/services/page-headers.server";
