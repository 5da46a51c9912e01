/**
 * The storehouse, server side (issue 15): the wallet's ships with their chain state, filtered and sorted by a
 * canonical GET URL, its mined materials, and the form that sends them into the game. routes/spaceship.storehouse/route.tsx
 * only delegates (docs/architecture.md "Inside app/").
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { SPACESHIP_TYPES } from "~core/nft";
import { isCanonical } from "~/features/market/filters/shared";
import { materialsView, shipCard } from "~/features/spaceship/spaceship-view";
import { applyFleetFilter, parseFleetFilter, serializeFleetFilter } from "~/features/spaceship/fleet-filter";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, shipActor } from "~/features/spaceship/spaceship-pages.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/storehouse";

export async function storehousePage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { filter, notices } = parseFleetFilter(url.searchParams);
  const search = serializeFleetFilter(filter);
  // A submitted filter form names every field; its canonical address drops the defaults. Notices stay on this URL.
  if (notices.length === 0 && !isCanonical(url.search, search)) throw redirect(search ? `${PATH}?${search}` : PATH);
  const gate = await fleetGate(request);
  const ranks = Object.entries(SPACESHIP_TYPES);
  if (gate.state !== "fleet") return data({ gate, filter, notices, ranks, fleet: null });
  const { fleet } = gate;
  const all = fleet.ships.map(({ record, state }) => ({ card: shipCard(shipFacts(record), state, fleet.now), state }));
  const shown = applyFleetFilter(all, filter).map(({ card }) => card);
  return data(
    {
      gate: { state: "fleet" as const },
      filter,
      notices,
      ranks,
      fleet: {
        wallet: fleet.wallet,
        total: all.length,
        ships: shown,
        mined: materialsView(fleet.mined),
        minedUnits: fleet.mined.map(String) as [string, string, string],
        hasBnb: fleet.bnb > 0n,
        actor: shipActor(gate),
      },
    },
    { headers: NO_STORE },
  );
}

export const storehousePost = ({ request }: ActionFunctionArgs) => spaceshipAction(request, PATH);

export { loaderCacheControl } from "~/services/page-headers.server";
