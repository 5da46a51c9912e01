/**
 * Configuration, server side (issue 15): a ship's four slots, what is fitted in each, the wallet's equipment that
 * fits each open empty slot, and the slot opener for the next locked one. Only the ship's owner configures it.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { shownAmount } from "~core/money";
import { slotOfEquipment } from "~core/spaceship";
import { equipmentName, shipCard, slotOpenerView, slotRows } from "~/features/spaceship/spaceship-view";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, shipActor } from "~/features/spaceship/spaceship-pages.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/configuration";

export async function configurationPage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tokenId = (url.searchParams.get("tokenId") ?? "").trim().slice(0, 80);
  const gate = await fleetGate(request);
  if (gate.state !== "fleet") return data({ gate, tokenId, choices: [], ship: null, problem: null });
  const { fleet } = gate;
  const onChain = fleet.ships.filter((ship) => ship.state);
  const choices = onChain.map(({ record }) => ({ tokenId: record.tokenId, name: record.name }));
  const base = { gate: { state: "fleet" as const }, tokenId, choices };
  if (!tokenId) return data({ ...base, ship: null, problem: null });
  const mine = onChain.find((ship) => ship.record.tokenId === tokenId);
  if (!mine?.state) {
    const inGame = fleet.ships.some((ship) => ship.record.tokenId === tokenId);
    const problem = inGame
      ? `Ship #${tokenId} is in the game: move it to the chain to configure it.`
      : `Ship #${tokenId} is not in your wallet.`;
    return data({ ...base, ship: null, problem }, { status: inGame ? 409 : 404 });
  }
  const state = mine.state;
  const pieces = new Map(fleet.equipment.map(({ record }) => [record.tokenId, record]));
  const free = fleet.equipment.filter(({ record, fittedTo }) => record.location === "chain" && fittedTo === null);
  const slots = slotRows(state, pieces).map((slot) => ({
    ...slot,
    choices: free
      .filter(({ record }) => slotOfEquipment(record.equipmentCode ?? 0) === slot.index)
      .map(({ record }) => ({ tokenId: record.tokenId, name: equipmentName(record) })),
  }));
  return data(
    {
      ...base,
      problem: null,
      ship: {
        ...shipCard(shipFacts(mine.record), state, fleet.now),
        exploring: state.exploringSince > 0n,
        slots,
        opener: slotOpenerView(state),
        quark: shownAmount(fleet.quark, "QUARK", "balance"),
        wallet: fleet.wallet,
        hasBnb: fleet.bnb > 0n,
        actor: shipActor(gate),
      },
    },
    { headers: NO_STORE },
  );
}

export function configurationPost({ request }: ActionFunctionArgs) {
  return spaceshipAction(request, `${PATH}${new URL(request.url).search}`);
}

export { loaderCacheControl } from "~/services/page-headers.server";
