/**
 * The spaceship pages' forms for a managed wallet (product §4 web path; issue 15): each page's action hands its post
 * here. The post is read strictly, checked against the chain by the rules of core/spaceship.ts (the executor checks
 * the same again), and only then is the executor asked to act; the answer is its status page, or the refusal next to
 * the field or form the player posted, with a 4xx and the values typed.
 */
import { data, redirect } from "@remix-run/node";
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
import { idempotencyKey, STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
import { usesWebPath } from "~/domain/wallet-mode";
import { actionProblem, statusPath } from "~/features/actions/actions.server";
import { signedInApis } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { readFleet, type Fleet } from "./spaceship.server";

export const SHIP_INTENTS = ["explore", "recall", "repair", "upgrade", "open-slot", "fit", "unfit", "send-materials"] as const;
export type ShipIntent = (typeof SHIP_INTENTS)[number];

export const SHIP_MANAGED_ONLY =
  "These forms are for accounts with a managed wallet. With a browser wallet, act with the wallet tools on this page (they need JavaScript).";
export const CHAIN_DOWN_MESSAGE = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";
const AMOUNT_MESSAGE = "Enter a whole number of 0 or more.";

/** What a refused post answers: errors by field ("" for the whole form), the ship it was about and the values typed. */
export interface ShipActionData {
  intent: ShipIntent | null;
  tokenId: string | null;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

const field = (form: FormData, name: string) => String(form.get(name) ?? "").slice(0, 100);

function wholeUnits(text: string): bigint | null {
  return /^\d{1,12}$/.test(text.trim()) ? BigInt(text.trim()) : null;
}

type Planned = { ok: true; request: ActionRequest } | { ok: false; errors: Record<string, string[]>; status?: number };
const refuse = (message: string, name = "", status = 400): Planned => ({ ok: false, errors: { [name]: [message] }, status });

function plan(intent: ShipIntent, form: FormData, fleet: Fleet, idempotencyKey: string): Planned {
  if (intent === "send-materials") {
    const amounts = ["darkIron", "silver", "gold"].map((name) => wholeUnits(field(form, name)));
    const errors: Record<string, string[]> = {};
    ["darkIron", "silver", "gold"].forEach((name, index) => {
      const amount = amounts[index];
      if (amount === null) errors[name] = [AMOUNT_MESSAGE];
      else if (amount > fleet.mined[index]!) errors[name] = [`You have mined ${fleet.mined[index]} of it.`];
    });
    if (Object.keys(errors).length > 0) return { ok: false, errors };
    if (amounts.every((amount) => amount === 0n)) return refuse("Enter an amount above zero of at least one material.", "darkIron");
    return {
      ok: true,
      request: {
        action: "spaceship.sendMaterials",
        params: { amounts: amounts.map(String) as [string, string, string] },
        idempotencyKey,
      },
    };
  }

  const tokenId = field(form, "tokenId");
  const ship = fleet.ships.find((entry) => entry.record.tokenId === tokenId);
  if (!ship) return refuse(`Ship #${tokenId.slice(0, 30)} is not in your wallet.`);
  const state = ship.state;
  if (!state) return refuse(`Ship #${tokenId} is in the game: move it to the chain first.`);
  const params = { tokenId };
  const slot = Number(field(form, "slot"));
  const slotOk = Number.isInteger(slot) && slot >= 0 && slot < SHIP_SLOT_COUNT;
  const refusal = (() => {
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
  if (refusal) return refuse(refusal);
  switch (intent) {
    case "explore":
      return { ok: true, request: { action: "spaceship.explore", params, idempotencyKey } };
    case "recall":
      return { ok: true, request: { action: "spaceship.recall", params, idempotencyKey } };
    case "repair":
      return { ok: true, request: { action: "spaceship.repair", params, idempotencyKey } };
    case "upgrade":
      return { ok: true, request: { action: "spaceship.upgrade", params, idempotencyKey } };
    case "open-slot":
      return { ok: true, request: { action: "spaceship.openSlot", params, idempotencyKey } };
    case "unfit":
      return { ok: true, request: { action: "spaceship.unfit", params: { tokenId, slot }, idempotencyKey } };
    case "fit": {
      if (!slotOk) return refuse("There is no such slot.");
      const equipmentId = field(form, "equipmentId");
      const piece = fleet.equipment.find((entry) => entry.record.tokenId === equipmentId);
      if (!equipmentId) return refuse("Choose a piece of equipment.", "equipmentId");
      if (!piece || piece.record.nftType !== NFT_TYPE.equipment)
        return refuse(`Item #${equipmentId} is not equipment in your wallet.`, "equipmentId");
      if (piece.record.location !== "chain")
        return refuse(`Item #${equipmentId} is in the game: move it to the chain first.`, "equipmentId");
      if (piece.fittedTo !== null)
        return refuse(`Item #${equipmentId} is fitted to ship #${piece.fittedTo}: remove it there first.`, "equipmentId");
      const fit = fitRefusal(state, slot, { tokenId: BigInt(equipmentId), equipmentCode: piece.record.equipmentCode ?? 0 });
      if (fit) return refuse(fit, "equipmentId");
      return { ok: true, request: { action: "spaceship.fit", params: { tokenId, slot, equipmentId }, idempotencyKey } };
    }
  }
}

/** A ship page's action: the executor's status page, or the refusal for the page to show. `back` is that page. */
export async function spaceshipAction(request: Request, back: string) {
  const { user, sso } = await signedInApis(request);
  const form = await request.formData();
  const posted = field(form, "intent");
  const intent = SHIP_INTENTS.find((name) => name === posted) ?? null;
  const tokenId = field(form, "tokenId") || null;
  const values = Object.fromEntries(["darkIron", "silver", "gold", "equipmentId", "slot"].map((name) => [name, field(form, name)]));
  const answer = (errors: Record<string, string[]>, status = 400) => data<ShipActionData>({ intent, tokenId, errors, values }, { status });

  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet || !usesWebPath(true, { address: wallet, bindAddrType: user.BindAddrType })) return answer({ "": [SHIP_MANAGED_ONLY] }, 403);
  if (!intent) return answer({ "": ["Unknown action."] });
  const key = field(form, "idempotencyKey");
  if (!idempotencyKey.safeParse(key).success) return answer({ "": [STALE_FORM_MESSAGE] });

  let fleet: Fleet;
  try {
    fleet = await readFleet(wallet);
  } catch {
    return answer({ "": [CHAIN_DOWN_MESSAGE] }, 503);
  }
  const planned = plan(intent, form, fleet, key);
  if (!planned.ok) return answer(planned.errors, planned.status);
  try {
    const execution = await sso.startAction(planned.request);
    return redirect(statusPath(execution.id, back), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return answer({ "": [problem.message] }, problem.status);
  }
}
