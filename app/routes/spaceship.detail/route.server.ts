/**
 * One ship in full, server side (issue 15): its attributes, power, level, duration, slots and equipment from the
 * chain, its history from the manager's events, the calculators started from its figures, and for its owner the
 * explore, recall and repair actions. Anyone may look at a ship; only its owner acts. Without `tokenId` the page
 * lists the viewer's ships to choose from.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { shortAddress } from "~core/address";
import { formatChainTime, formatDuration } from "~core/chain-text";
import { formatAmount, formatPrice } from "~core/money";
import { NFT_TYPE } from "~core/nft";
import { formatMaterials, SHIP_SLOTS, SLOT_LABELS } from "~core/spaceship";
import {
  durationText,
  missionView,
  repairView,
  shipCard,
  slotRows,
  statRows,
  upgradeView,
  type EquipmentFacts,
} from "~/features/spaceship/spaceship-view";
import {
  calculatorDefaults,
  calculatorOptions,
  calculatorResult,
  calculatorSearch,
  parseCalculator,
  recordSpec,
} from "~/features/spaceship/calculator-form";
import { backendProblem, publicApis } from "~/services/apis.server";
import { emitItemView } from "~/services/analytics.server";
import { spaceshipAction } from "~/features/spaceship/spaceship-actions.server";
import { fleetGate, NO_STORE, shipActor } from "~/features/spaceship/spaceship-pages.server";
import { readShip, readShipHistory, type ShipHistoryEntry } from "~/features/spaceship/spaceship.server";
import { shipFacts } from "~/features/spaceship/spaceship-views.server";

export const PATH = "/spaceship/detail";

function historyLine(entry: ShipHistoryEntry): string {
  switch (entry.kind) {
    case "explore":
      return "Sent exploring";
    case "recall":
      return `Recalled after ${formatDuration(entry.minedSeconds)} of mining: mined ${formatMaterials(entry.mined)}, lost ${formatDuration(entry.lost)} of duration`;
    case "repair":
      return `Repaired: ${formatDuration(entry.restored)} restored for ${formatAmount(entry.cost, "FIRE", "cost")}`;
    case "upgrade":
      return `Upgraded to level ${entry.level} for ${formatMaterials(entry.cost)}`;
    case "slot":
      return `${SLOT_LABELS[SHIP_SLOTS[Number(entry.slot)] ?? "weapon"]} slot opened for ${formatPrice(entry.price, "QUARK")}`;
    case "fit":
      return `Item #${entry.equipmentId} fitted in the ${SLOT_LABELS[SHIP_SLOTS[Number(entry.slot)] ?? "weapon"]} slot`;
    case "unfit":
      return `Item #${entry.equipmentId} removed from the ${SLOT_LABELS[SHIP_SLOTS[Number(entry.slot)] ?? "weapon"]} slot`;
  }
}

export async function detailPage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const typed = (url.searchParams.get("tokenId") ?? "").trim();
  const gate = await fleetGate(request);
  const myShips =
    gate.state === "fleet" ? gate.fleet.ships.map(({ record, state }) => shipCard(shipFacts(record), state, gate.fleet.now)) : [];
  const base = { gate: gate.state === "fleet" ? { state: "fleet" as const } : gate, typed: typed.slice(0, 80), myShips };
  if (!typed) return data({ ...base, ship: null, problem: null });
  if (!/^[1-9]\d{0,77}$/.test(typed)) {
    return data({ ...base, ship: null, problem: "Enter a ship's token id: its number, as in Ship #12." }, { status: 400 });
  }

  const { market } = publicApis();
  let record;
  try {
    record = await market.tokenDetail({ tokenId: typed, nftType: NFT_TYPE.spaceship });
  } catch (error) {
    const problem = backendProblem(error);
    const message = problem.status === 404 ? `There is no ship #${typed}.` : problem.message;
    return data({ ...base, ship: null, problem: message }, { status: problem.status });
  }
  emitItemView(request, `${NFT_TYPE.spaceship}-${typed}`);
  const facts = shipFacts(record);
  const mine = gate.state === "fleet" ? gate.fleet.ships.find((ship) => ship.record.tokenId === typed) : undefined;
  // The viewer's own ship was read with the fleet, at its block; any other ship is read now.
  let chainPart = null;
  if (mine?.state && gate.state === "fleet") {
    chainPart = { state: mine.state, now: gate.fleet.now, at: gate.fleet.at };
  } else if (record.location === "chain") {
    chainPart = await readShip(BigInt(typed)).catch(() => null);
  }
  const state = chainPart?.state ?? null;
  const card = shipCard(facts, state, chainPart?.now ?? 0n);
  const pieces = new Map<string, EquipmentFacts>();
  await Promise.all(
    (state?.fitted ?? [])
      .filter((id) => id !== 0n)
      .map(async (id) => {
        const piece = await market.tokenDetail({ tokenId: id.toString(), nftType: NFT_TYPE.equipment }).catch(() => null);
        if (piece) pieces.set(piece.tokenId, piece);
      }),
  );
  // The calculators start from the ship as it is: the chain's figures with its fitted pieces' grades, or the game's.
  const fitted = (state?.fitted ?? []).filter((id) => id !== 0n).map((id) => pieces.get(id.toString()));
  const calculator = parseCalculator(
    url.searchParams,
    calculatorDefaults(
      state
        ? { ...state, equipment: fitted.map((piece) => ({ equipmentType: piece?.equipmentType ?? 0, level: piece?.level ?? 0 })) }
        : recordSpec(facts),
    ),
  );

  let chain = null;
  if (state && chainPart) {
    const history = await readShipHistory(state.tokenId, chainPart.at).catch(() => null);
    chain = {
      power: state.power.toLocaleString("en-US"),
      rate: `${state.rate.toLocaleString("en-US")} ‰`,
      duration: durationText(state.duration, state.maxDuration),
      mission: missionView(state, chainPart.now),
      exploring: state.exploringSince > 0n,
      docked: state.exploringSince === 0n && state.duration > 0n,
      repair: repairView(state),
      slots: slotRows(state, pieces),
      upgrade: upgradeView(state, mine && gate.state === "fleet" ? gate.fleet.mined : [0n, 0n, 0n]),
      chainTime: formatChainTime(chainPart.now),
      history:
        history &&
        [...history].reverse().map((entry) => ({
          key: `${entry.txHash}-${entry.kind}`,
          when: formatChainTime(entry.time),
          text: historyLine(entry),
          txHash: entry.txHash,
        })),
    };
  }
  const owner = Boolean(mine?.state);
  const actor = owner && gate.state === "fleet" ? shipActor(gate) : null;
  return data(
    {
      ...base,
      problem: null,
      ship: {
        ...card,
        ownerShort: shortAddress(record.ownerAddress),
        owner,
        itemHref: `/marketplace/detail?nftType=${NFT_TYPE.spaceship}&tokenId=${typed}`,
        stats: statRows(facts.stats.map((stat) => stat ?? 0)),
        chain,
        actor,
        hasBnb: gate.state === "fleet" ? gate.fleet.bnb > 0n : true,
        wallet: gate.state === "fleet" ? gate.fleet.wallet : null,
        calculator: {
          values: calculator.values,
          errors: calculator.errors,
          result: calculator.input && calculatorResult(calculator.input),
          options: calculatorOptions(),
          standalone: `/spaceship/calculator?${calculatorSearch(calculator.values)}`,
        },
      },
    },
    { status: calculator.input ? 200 : 400, headers: actor ? NO_STORE : undefined },
  );
}

export function detailPost({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  return spaceshipAction(request, `${PATH}${url.search}`);
}

export { loaderCacheControl } from "~/services/page-headers.server";
