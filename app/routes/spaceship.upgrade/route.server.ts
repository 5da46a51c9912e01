/**
 * Upgrade, server side (issue 15): for a ship, the materials its next level needs against what the wallet has mined,
 * and the upgrade; without one, every ship on the chain with its next cost and whether the materials are there.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { materialsView, shipCard, upgradeView } from "~/features/spaceship/spaceship-view";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, ownShipView, requestedShip, shipToActOn } from "~/features/spaceship/spaceship-pages.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/upgrade";

export async function upgradePage({ request }: LoaderFunctionArgs) {
  const tokenId = requestedShip(request);
  const gate = await fleetGate(request);
  if (gate.state !== "fleet") return data({ gate, tokenId, fleet: null, ship: null, problem: null });
  const { fleet } = gate;
  const onChain = fleet.ships.flatMap(({ record, state }) => (state ? [{ record, state }] : []));
  const list = onChain.map(({ record, state }) => ({
    card: shipCard(shipFacts(record), state, fleet.now),
    upgrade: upgradeView(state, fleet.mined),
  }));
  const base = { gate: { state: "fleet" as const }, tokenId, fleet: { mined: materialsView(fleet.mined), list } };
  if (!tokenId) return data({ ...base, ship: null, problem: null });
  const chosen = shipToActOn(fleet, tokenId, "upgrade");
  if (!chosen.ship) return data({ ...base, ship: null, problem: chosen.problem }, { status: chosen.status });
  const view = { upgrade: upgradeView(chosen.ship.state, fleet.mined) };
  return data({ ...base, problem: null, ship: ownShipView(gate, chosen.ship, view) }, { headers: NO_STORE });
}

export function upgradePost({ request }: ActionFunctionArgs) {
  return spaceshipAction(request, `${PATH}${new URL(request.url).search}`);
}

export { loaderCacheControl } from "~/services/page-headers.server";
