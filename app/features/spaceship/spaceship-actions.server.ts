/**
 * The spaceship pages' forms for a managed wallet (product §4 web path; issue 15): each page's action hands its post
 * here. The post is read strictly, checked against the chain by the rules of core/spaceship.ts (the executor checks
 * the same again), and only then is the executor asked to act; the answer is its status page, or the refusal next to
 * the field or form the player posted, with a 4xx and the values typed.
 */
import type { ActionRequest } from "~core/api/actions";
import { NFT_TYPE } from "~core/nft";
import {
  exploreRefusal,
  fitRefusal,
  openSlotRefusal,
  recallRefusal,
  repairRefusal,
  SHIP_SLOT_COUNT,
  unfitRefusal,
  upgradeRefusal,
  type Materials,
} from "~core/spaceship";
import { CHAIN_DOWN_MESSAGE, formText, managedAction, refusal, type Refusal, typed } from "~/features/actions/managed-action.server";
import { registerActionFeature } from "~/services/action-features.server";
import { readFleet, type Fleet } from "./spaceship.server";

export const SHIP_INTENTS = ["explore", "recall", "repair", "upgrade", "open-slot", "fit", "unfit", "send-materials"] as const;
export type ShipIntent = (typeof SHIP_INTENTS)[number];

export const SHIP_MANAGED_ONLY =
  "These forms are for accounts with a managed wallet. With a browser wallet, act with the wallet tools on this page (they need JavaScript).";
const AMOUNT_MESSAGE = "Enter a whole number of 0 or more.";

function wholeUnits(text: string): bigint | null {
  return /^\d{1,12}$/.test(text.trim()) ? BigInt(text.trim()) : null;
}

function plan(intent: ShipIntent, form: FormData, fleet: Fleet, idempotencyKey: string): ActionRequest | Refusal {
  if (intent === "send-materials") {
    const amounts = ["darkIron", "silver", "gold"].map((name) => wholeUnits(formText(form, name)));
    const errors: Record<string, string[]> = {};
    ["darkIron", "silver", "gold"].forEach((name, index) => {
      const amount = amounts[index];
      if (amount === null) errors[name] = [AMOUNT_MESSAGE];
      else if (amount > fleet.mined[index]!) errors[name] = [`You have mined ${fleet.mined[index]} of it.`];
    });
    if (Object.keys(errors).length > 0) return { status: 400, errors };
    if (amounts.every((amount) => amount === 0n))
      return refusal("Enter an amount above zero of at least one material.", { field: "darkIron" });
    return {
      action: "spaceship.sendMaterials",
      params: { amounts: amounts.map(String) as [string, string, string] },
      idempotencyKey,
    };
  }

  const tokenId = formText(form, "tokenId");
  const ship = fleet.ships.find((entry) => entry.record.tokenId === tokenId);
  if (!ship) return refusal(`Ship #${tokenId.slice(0, 30)} is not in your wallet.`);
  const state = ship.state;
  if (!state) return refusal(`Ship #${tokenId} is in the game: move it to the chain first.`);
  const params = { tokenId };
  const slot = Number(formText(form, "slot"));
  const slotOk = Number.isInteger(slot) && slot >= 0 && slot < SHIP_SLOT_COUNT;
  const broken = (() => {
    switch (intent) {
      case "explore":
        return exploreRefusal(state);
      case "recall":
        return recallRefusal(state);
      case "repair":
        return repairRefusal(state, fleet.fire);
      case "upgrade":
        return upgradeRefusal(state, fleet.mined as Materials);
      case "open-slot":
        return openSlotRefusal(state, fleet.quark);
      case "unfit":
        return slotOk ? unfitRefusal(state, slot) : "There is no such slot.";
      case "fit":
        return null;
    }
  })();
  if (broken) return refusal(broken);
  switch (intent) {
    case "explore":
      return { action: "spaceship.explore", params, idempotencyKey };
    case "recall":
      return { action: "spaceship.recall", params, idempotencyKey };
    case "repair":
      return { action: "spaceship.repair", params, idempotencyKey };
    case "upgrade":
      return { action: "spaceship.upgrade", params, idempotencyKey };
    case "open-slot":
      return { action: "spaceship.openSlot", params, idempotencyKey };
    case "unfit":
      return { action: "spaceship.unfit", params: { tokenId, slot }, idempotencyKey };
    case "fit": {
      if (!slotOk) return refusal("There is no such slot.");
      const equipmentId = formText(form, "equipmentId");
      const piece = fleet.equipment.find((entry) => entry.record.tokenId === equipmentId);
      if (!equipmentId) return refusal("Choose a piece of equipment.", { field: "equipmentId" });
      if (!piece || piece.record.nftType !== NFT_TYPE.equipment)
        return refusal(`Item #${equipmentId} is not equipment in your wallet.`, { field: "equipmentId" });
      if (piece.record.location !== "chain")
        return refusal(`Item #${equipmentId} is in the game: move it to the chain first.`, { field: "equipmentId" });
      if (piece.fittedTo !== null)
        return refusal(`Item #${equipmentId} is fitted to ship #${piece.fittedTo}: remove it there first.`, { field: "equipmentId" });
      const fit = fitRefusal(state, slot, { tokenId: BigInt(equipmentId), equipmentCode: piece.record.equipmentCode ?? 0 });
      if (fit) return refusal(fit, { field: "equipmentId" });
      return { action: "spaceship.fit", params: { tokenId, slot, equipmentId }, idempotencyKey };
    }
  }
}

/** A ship page's action: the executor's status page, or the refusal for the page to show. `back` is that page. */
export function spaceshipAction(request: Request, back: string) {
  return managedAction(request, {
    intents: SHIP_INTENTS,
    managedOnly: SHIP_MANAGED_ONLY,
    back,
    echo: (_intent, form) => typed(form, ["tokenId", "darkIron", "silver", "gold", "equipmentId", "slot"]),
    plan: async ({ intent, form, wallet, idempotencyKey }) => {
      let fleet: Fleet;
      try {
        fleet = await readFleet(wallet);
      } catch {
        return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
      }
      return plan(intent, form, fleet, idempotencyKey);
    },
  });
}

registerActionFeature("spaceship.", {
  pages: /^\/spaceship\/(?:detail|storehouse|exploration|configuration|upgrade)(?:\?[\w=&%.-]{0,300})?$/,
  home: ({ params }) => ("tokenId" in params ? `/spaceship/detail?tokenId=${params.tokenId}` : "/spaceship/storehouse"),
  backLabel: () => "Back to your fleet",
});
