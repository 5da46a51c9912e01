/**
 * The fleet's actions (issue 15, docs/spaceships.md), each a StarshipManager call on a ship of the wallet:
 * explore, recall, repair (an exact FIRE approval of the manager first when short), upgrade, openSlot (an exact QUARK
 * approval first when short), fit, unfit, and sendMaterialsToGame. Each planner reads the ship (queryShips) and what
 * the action spends, and refuses in core/spaceship.ts's words what the contract would refuse, before anything is sent.
 * Recall, upgrade and sending materials read their outcome from the manager's event in the receipt.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  type Log,
  parseEventLogs,
  type PublicClient,
  zeroAddress,
} from "viem";
import { gameTokenAbi, sparkCardAbi, starshipManagerAbi } from "../../../contracts/generated/abi";
import type { SpaceshipFitParams, SpaceshipSendMaterialsParams, SpaceshipUnfitParams } from "~core/api/actions";
import { revertMessage } from "~core/chain-errors";
import { decodeItemData } from "~core/item-data";
import { formatPrice } from "~core/money";
import {
  exploreRefusal,
  fitRefusal,
  formatMaterials,
  type Materials,
  openSlotRefusal,
  recallRefusal,
  repairCost,
  repairRefusal,
  SHIP_SLOTS,
  type ShipState,
  shipStateOf,
  slotOpenerPrice,
  SLOT_LABELS,
  unfitRefusal,
  upgradeRefusal,
} from "~core/spaceship";
import { GAME_TAG } from "./allowlist";
import { type PlanContext, type PlannedStep, type Planner, Refusal } from "./plan";
import { MATERIALS_CAP_PER_ACTION, stepGasLimit } from "./policy";

/** A SparkCard token's holder, NFT type and attributes, or null when it does not exist (never minted, or burnt). */
export async function cardOf(client: PublicClient, card: Address, tokenId: bigint) {
  const read = { address: card, abi: sparkCardAbi } as const;
  try {
    const [owner, word] = await Promise.all([
      client.readContract({ ...read, functionName: "ownerOf", args: [tokenId] }),
      client.readContract({ ...read, functionName: "dataOf", args: [tokenId] }),
    ]);
    const attributes = decodeItemData(word);
    return { owner, nftType: attributes.nftType, attributes };
  } catch (error) {
    if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError)) return null;
    throw error;
  }
}

/**
 * The wallet's ship as the manager has it now, or the refusal: no ship (queryShips names no owner for a missing
 * token or another kind), another wallet's. Refusals the contract also has are in its words (core/chain-errors.ts).
 */
async function ownShip({ client, contracts, wallet }: PlanContext, idText: string): Promise<ShipState> {
  const tokenId = BigInt(idText);
  const [view] = await client.readContract({
    address: contracts.starship,
    abi: starshipManagerAbi,
    functionName: "queryShips",
    args: [[tokenId]],
  });
  if (isAddressEqual(view.owner, zeroAddress)) throw new Refusal(revertMessage("NotAShip", [tokenId]));
  if (!isAddressEqual(view.owner, wallet)) throw new Refusal(`Ship #${tokenId} is not in your wallet.`);
  // The manager's power already counts the fitted pieces, and no refusal looks at them one by one.
  return shipStateOf(view);
}

const minedOf = async ({ client, contracts, wallet }: PlanContext): Promise<Materials> => {
  const [darkIron, silver, gold] = await client.readContract({
    address: contracts.starship,
    abi: starshipManagerAbi,
    functionName: "minedOf",
    args: [wallet],
  });
  return [darkIron, silver, gold];
};

/** The one StarshipManager call of an action. */
function shipStep(ctx: PlanContext, label: string, data: Hex): PlannedStep {
  return { kind: "ship", label, to: ctx.contracts.starship, data, value: 0n, gas: stepGasLimit("ship") };
}

/** "Weapon", "Helmet", … for a slot index 0-3. */
const slotName = (slot: number) => SLOT_LABELS[SHIP_SLOTS[slot]!];

/** explore, recall, repair, upgrade, openSlot: a call that names the ship only. */
const onShip = (functionName: "explore" | "recall" | "repair" | "upgrade" | "openSlot", ship: ShipState) =>
  encodeFunctionData({ abi: starshipManagerAbi, functionName, args: [ship.tokenId] });

/** What a manager call with a price in FIRE or QUARK needs first: an exact approval of the manager when the allowance is short. */
async function approvalIfShort(ctx: PlanContext, token: Address, price: bigint, label: string): Promise<PlannedStep[]> {
  const allowance = await ctx.client.readContract({
    address: token,
    abi: gameTokenAbi,
    functionName: "allowance",
    args: [ctx.wallet, ctx.contracts.starship],
  });
  if (allowance >= price) return [];
  return [
    {
      kind: "approve-ship",
      label,
      to: token,
      data: encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [ctx.contracts.starship, price] }),
      value: 0n,
      gas: stepGasLimit("approve-ship"),
    },
  ];
}

const balanceOf = (ctx: PlanContext, token: Address) =>
  ctx.client.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [ctx.wallet] });

/** The manager's events of one name in a receipt (logs of other contracts do not count). */
function managerEvents<E extends "ExplorationEnded" | "Upgraded" | "MaterialsSentToGame">(
  ctx: PlanContext,
  logs: readonly Log[],
  eventName: E,
) {
  const ours = logs.filter((log) => isAddressEqual(log.address, ctx.contracts.starship));
  return parseEventLogs({ abi: starshipManagerAbi, eventName, logs: ours });
}

const asText = (amounts: readonly bigint[]): [string, string, string] => [String(amounts[0]), String(amounts[1]), String(amounts[2])];

/** No result beyond the steps' own. */
const nothingToCollect: Planner<"spaceship.explore">["collect"] = async (_ctx, _kind, _receipt, result) => result;

export const spaceshipExplore: Planner<"spaceship.explore"> = {
  async plan(ctx, { tokenId }) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = exploreRefusal(ship);
    if (refusal) throw new Refusal(refusal);
    return [shipStep(ctx, `Send ship #${ship.tokenId} exploring`, onShip("explore", ship))];
  },
  collect: nothingToCollect,
};

export const spaceshipRecall: Planner<"spaceship.recall"> = {
  async plan(ctx, { tokenId }) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = recallRefusal(ship);
    if (refusal) throw new Refusal(refusal);
    return [shipStep(ctx, `Recall ship #${ship.tokenId}`, onShip("recall", ship))];
  },
  async collect(ctx, kind, receipt, result) {
    const ended = kind === "ship" ? managerEvents(ctx, receipt.logs, "ExplorationEnded")[0]?.args : undefined;
    return ended ? { ...result, mined: asText(ended.mined), durationLost: ended.lost.toString() } : result;
  },
};

export const spaceshipRepair: Planner<"spaceship.repair"> = {
  async plan(ctx, { tokenId }) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = repairRefusal(ship, await balanceOf(ctx, ctx.contracts.fire));
    if (refusal) throw new Refusal(refusal);
    const cost = repairCost(ship.shipType, ship.maxDuration - ship.duration);
    const shown = formatPrice(cost, "FIRE");
    return [
      ...(await approvalIfShort(ctx, ctx.contracts.fire, cost, `Approve ${shown} for the repair`)),
      shipStep(ctx, `Repair ship #${ship.tokenId} for ${shown}`, onShip("repair", ship)),
    ];
  },
  collect: nothingToCollect,
};

export const spaceshipUpgrade: Planner<"spaceship.upgrade"> = {
  async plan(ctx, { tokenId }) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = upgradeRefusal(ship, await minedOf(ctx));
    if (refusal) throw new Refusal(refusal);
    return [shipStep(ctx, `Upgrade ship #${ship.tokenId} to level ${ship.level + 1}`, onShip("upgrade", ship))];
  },
  async collect(ctx, kind, receipt, result) {
    const upgraded = kind === "ship" ? managerEvents(ctx, receipt.logs, "Upgraded")[0]?.args : undefined;
    return upgraded ? { ...result, level: Number(upgraded.level) } : result;
  },
};

export const spaceshipOpenSlot: Planner<"spaceship.openSlot"> = {
  async plan(ctx, { tokenId }) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = openSlotRefusal(ship, await balanceOf(ctx, ctx.contracts.quark));
    if (refusal) throw new Refusal(refusal);
    const price = slotOpenerPrice(ship.openSlots);
    const shown = formatPrice(price, "QUARK");
    const slot = slotName(ship.openSlots);
    return [
      ...(await approvalIfShort(ctx, ctx.contracts.quark, price, `Approve ${shown} for the slot opener`)),
      shipStep(ctx, `Open the ${slot} slot of ship #${ship.tokenId} for ${shown}`, onShip("openSlot", ship)),
    ];
  },
  collect: nothingToCollect,
};

/** The wallet's piece of equipment, free to fit: its code, or the refusal. */
async function freeEquipment(
  { client, contracts, wallet }: PlanContext,
  tokenId: bigint,
): Promise<{ tokenId: bigint; equipmentCode: number }> {
  const token = await cardOf(client, contracts.card, tokenId);
  if (!token || !("equipmentCode" in token.attributes)) throw new Refusal(revertMessage("NotEquipment", [tokenId]));
  if (!isAddressEqual(token.owner, wallet)) throw new Refusal(revertMessage("NotEquipmentOwner", [tokenId]));
  const locked = await client.readContract({ address: contracts.card, abi: sparkCardAbi, functionName: "isLocked", args: [tokenId] });
  if (locked) throw new Refusal(revertMessage("EquipmentInUse", [tokenId]));
  return { tokenId, equipmentCode: token.attributes.equipmentCode };
}

export const spaceshipFit: Planner<"spaceship.fit"> = {
  async plan(ctx, { tokenId, slot, equipmentId }: SpaceshipFitParams) {
    const ship = await ownShip(ctx, tokenId);
    const equipment = await freeEquipment(ctx, BigInt(equipmentId));
    const refusal = fitRefusal(ship, slot, equipment);
    if (refusal) throw new Refusal(refusal);
    const data = encodeFunctionData({
      abi: starshipManagerAbi,
      functionName: "fit",
      args: [ship.tokenId, BigInt(slot), equipment.tokenId],
    });
    return [shipStep(ctx, `Fit item #${equipment.tokenId} in the ${slotName(slot)} slot of ship #${ship.tokenId}`, data)];
  },
  collect: nothingToCollect,
};

export const spaceshipUnfit: Planner<"spaceship.unfit"> = {
  async plan(ctx, { tokenId, slot }: SpaceshipUnfitParams) {
    const ship = await ownShip(ctx, tokenId);
    const refusal = unfitRefusal(ship, slot);
    if (refusal) throw new Refusal(refusal);
    const data = encodeFunctionData({ abi: starshipManagerAbi, functionName: "unfit", args: [ship.tokenId, BigInt(slot)] });
    return [shipStep(ctx, `Remove item #${ship.fitted[slot]} from the ${slotName(slot)} slot of ship #${ship.tokenId}`, data)];
  },
  collect: nothingToCollect,
};

export const spaceshipSendMaterials: Planner<"spaceship.sendMaterials"> = {
  async plan(ctx, { amounts: amountTexts }: SpaceshipSendMaterialsParams) {
    const amounts: Materials = [BigInt(amountTexts[0]), BigInt(amountTexts[1]), BigInt(amountTexts[2])];
    if (amounts.some((amount) => amount > MATERIALS_CAP_PER_ACTION)) {
      throw new Refusal(`One action may send at most ${MATERIALS_CAP_PER_ACTION.toLocaleString("en")} of each material.`);
    }
    const held = await minedOf(ctx);
    if (amounts.some((amount, i) => amount > held[i]!)) {
      throw new Refusal(`You have mined ${formatMaterials(held)}: you cannot send ${formatMaterials(amounts)}.`);
    }
    const data = encodeFunctionData({ abi: starshipManagerAbi, functionName: "sendMaterialsToGame", args: [[...amounts], GAME_TAG] });
    return [shipStep(ctx, `Send ${formatMaterials(amounts)} into the game`, data)];
  },
  async collect(ctx, kind, receipt, result) {
    const sent = kind === "ship" ? managerEvents(ctx, receipt.logs, "MaterialsSentToGame")[0]?.args : undefined;
    return sent ? { ...result, materialsSent: asText(sent.amounts) } : result;
  },
};
