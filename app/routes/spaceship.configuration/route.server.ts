/**
 * Configuration, server side (issue 15): a ship's four slots, what is fitted in each, the wallet's equipment that
 * fits each open empty slot, and the slot opener for the next locked one. Only the ship's owner configures it.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { shownAmount } from "~core/money";
import { slotOfEquipment } from "~core/spaceship";
import { equipmentName, slotOpenerView, slotRows } from "~/features/spaceship/spaceship-view";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, ownShipView, requestedShip, shipToActOn } from "~/features/spaceship/spaceship-pages.server";

export const PATH = "/spaceship/configuration";

export async function configurationPage({ request }: LoaderFunctionArgs) {
  const tokenId = requestedShip(request);
  const gate = await fleetGate(request);
  if (gate.state !== "fleet") return data({ gate, tokenId, choices: [], ship: null, problem: null });
  const { fleet } = gate;
  const choices = fleet.ships.filter((ship) => ship.state).map(({ record }) => ({ tokenId: record.tokenId, name: record.name }));
  const base = { gate: { state: "fleet" as const }, tokenId, choices };
  if (!tokenId) return data({ ...base, ship: null, problem: null });
  const chosen = shipToActOn(fleet, tokenId, "configure");
  if (!chosen.ship) return data({ ...base, ship: null, problem: chosen.problem }, { status: chosen.status });
  const { state } = chosen.ship;
  const pieces = new Map(fleet.equipment.map(({ record }) => [record.tokenId, record]));
  const free = fleet.equipment.filter(({ record, fittedTo }) => record.location === "chain" && fittedTo === null);
  const slots = slotRows(state, pieces).map((slot) => ({
    ...slot,
    choices: free
      .filter(({ record }) => slotOfEquipment(record.equipmentCode ?? 0) === slot.index)
      .map(({ record }) => ({ tokenId: record.tokenId, name: equipmentName(record) })),
  }));
  const view = { slots, opener: slotOpenerView(state), quark: shownAmount(fleet.quark, "QUARK", "balance") };
  return data({ ...base, problem: null, ship: ownShipView(gate, chosen.ship, view) }, { headers: NO_STORE });
}

export function configurationPost({ request }: ActionFunctionArgs) {
  return spaceshipAction(request, `${PATH}${new URL(request.url).search}`);
}

export { loaderCacheControl } from "~/services/page-headers.server";
