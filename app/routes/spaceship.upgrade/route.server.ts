/**
 * Upgrade, server side (issue 15): for a ship, the materials its next level needs against what the wallet has mined,
 * and the upgrade; without one, every ship on the chain with its next cost and whether the materials are there.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { materialsView, shipCard, upgradeView } from "~/features/spaceship/spaceship-view";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, shipActor } from "~/features/spaceship/spaceship-pages.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/upgrade";

export async function upgradePage({ request }: LoaderFunctionArgs) {
  const tokenId = (new URL(request.url).searchParams.get("tokenId") ?? "").trim().slice(0, 80);
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
  const mine = onChain.find(({ record }) => record.tokenId === tokenId);
  if (!mine) {
    const inGame = fleet.ships.some((ship) => ship.record.tokenId === tokenId);
    const problem = inGame
      ? `Ship #${tokenId} is in the game: move it to the chain to upgrade it.`
      : `Ship #${tokenId} is not in your wallet.`;
    return data({ ...base, ship: null, problem }, { status: inGame ? 409 : 404 });
  }
  return data(
    {
      ...base,
      problem: null,
      ship: {
        ...shipCard(shipFacts(mine.record), mine.state, fleet.now),
        exploring: mine.state.exploringSince > 0n,
        upgrade: upgradeView(mine.state, fleet.mined),
        wallet: fleet.wallet,
        hasBnb: fleet.bnb > 0n,
        actor: shipActor(gate),
      },
    },
    { headers: NO_STORE },
  );
}

export function upgradePost({ request }: ActionFunctionArgs) {
  return spaceshipAction(request, `${PATH}${new URL(request.url).search}`);
}

export { loaderCacheControl } from "~/services/page-headers.server";
