/**
 * The spaceship pages' words and figures (issue 15), built by their loaders from the fleet (spaceship.server.ts)
 * by the rules of core/spaceship.ts, so the pages ship neither the rules nor the formatting. The two GET codecs the
 * pages share are beside it: fleet-filter.ts (the storehouse) and calculator-form.ts. Pure and unit-tested.
 */
import { formatDuration } from "~core/chain-text";
import { formatAmount, formatPrice } from "~core/money";
import { EQUIPMENT_CODES, EQUIPMENT_TYPES, MATERIALS, SPACESHIP_TYPES } from "~core/nft";
import {
  formatMaterials,
  type Materials,
  missionNow,
  repairCost,
  SHIP_SLOTS,
  shipActivity,
  slotOpenerPrice,
  SLOT_LABELS,
  upgradeCost,
  type ShipState,
} from "~core/spaceship";
import { SHIP_STATUS_TEXT, type ShipStatus, STAT_LABELS } from "./spaceship-labels";

export const shipTypeName = (shipType: number) => SPACESHIP_TYPES[shipType as keyof typeof SPACESHIP_TYPES] ?? `Type ${shipType}`;
export const countText = (n: bigint) => n.toLocaleString("en-US");

/** "7 h 46 m of 10 h" and the share left, for a duration bar. */
export function durationText(duration: bigint, full: bigint) {
  const percent = full > 0n ? Number((duration * 100n) / full) : 0;
  return { text: `${formatDuration(duration)} of ${formatDuration(full)}`, percent };
}

export function materialsView(amounts: Materials) {
  return MATERIALS_LIST.map((name, index) => ({ name, amount: countText(amounts[index]!) }));
}
const MATERIALS_LIST = [MATERIALS[0], MATERIALS[1], MATERIALS[2]] as const;

/** A ship as the market lists it: what every ship, in the game or on chain, has. */
export interface ShipRecordFacts {
  tokenId: string;
  name: string;
  location: string;
  rank: number | null;
  level: number | null;
  total: number | null;
  stats: readonly (number | null)[];
}

export interface ShipCardView {
  tokenId: string;
  name: string;
  typeName: string;
  level: number;
  total: number;
  status: ShipStatus;
  statusText: string;
  /** On chain only. */
  chain: {
    power: string;
    duration: { text: string; percent: number };
    slots: string;
    mission: { elapsed: string; left: string; yieldSoFar: string } | null;
  } | null;
}

export function shipStatus(state: ShipState | null): ShipStatus {
  if (!state) return "in-game";
  const activity = shipActivity(state);
  return activity === "idle" ? "docked" : activity;
}

export function missionView(state: ShipState, now: bigint) {
  if (state.exploringSince === 0n) return null;
  const mission = missionNow(state, now);
  return {
    elapsed: formatDuration(mission.elapsed),
    left: mission.secondsLeft > 0n ? formatDuration(mission.secondsLeft) : "none: its duration has run out",
    yieldSoFar: formatMaterials(mission.outcome.mined),
    minedSeconds: mission.outcome.minedSeconds,
  };
}

export function shipCard(facts: ShipRecordFacts, state: ShipState | null, now: bigint): ShipCardView {
  const status = shipStatus(state);
  const fitted = state ? state.fitted.filter((id) => id !== 0n).length : 0;
  return {
    tokenId: facts.tokenId,
    name: facts.name,
    typeName: shipTypeName(state?.shipType ?? facts.rank ?? 0),
    level: state?.level ?? facts.level ?? 1,
    total: facts.total ?? 0,
    status,
    statusText: SHIP_STATUS_TEXT[status],
    chain: state && {
      power: countText(state.power),
      duration: durationText(state.duration, state.maxDuration),
      slots: `${state.openSlots} of ${SHIP_SLOTS.length} slots open, ${fitted} fitted`,
      mission: missionView(state, now),
    },
  };
}

export function statRows(stats: readonly number[]) {
  const rows = STAT_LABELS.map((label, index) => ({ label, value: String(stats[index] ?? 0) }));
  const total = stats.reduce((sum, stat) => sum + stat, 0);
  return [...rows, { label: "Total", value: String(total) }];
}

export interface EquipmentFacts {
  tokenId: string;
  equipmentType: number | null;
  equipmentCode: number | null;
  level: number | null;
}

export function equipmentName(piece: EquipmentFacts): string {
  const code = EQUIPMENT_CODES[piece.equipmentCode as keyof typeof EQUIPMENT_CODES] ?? "Equipment";
  const grade = EQUIPMENT_TYPES[piece.equipmentType as keyof typeof EQUIPMENT_TYPES] ?? "";
  return `${grade} ${code} #${piece.tokenId} (level ${piece.level ?? 1})`.trim();
}

export function slotRows(state: ShipState, pieces: ReadonlyMap<string, EquipmentFacts>) {
  return SHIP_SLOTS.map((slot, index) => {
    const id = state.fitted[index] ?? 0n;
    const piece =
      id === 0n ? null : (pieces.get(id.toString()) ?? { tokenId: id.toString(), equipmentType: null, equipmentCode: null, level: null });
    return {
      index,
      slot,
      label: SLOT_LABELS[slot],
      open: index < state.openSlots,
      fitted: piece && { tokenId: piece.tokenId, name: equipmentName(piece) },
    };
  });
}

export function upgradeView(state: ShipState, held: Materials) {
  const cost = upgradeCost(state.level);
  if (!cost) return { top: true as const, level: state.level };
  return {
    top: false as const,
    level: state.level,
    next: state.level + 1,
    rows: MATERIALS_LIST.map((name, index) => ({
      name,
      needed: countText(cost[index]!),
      held: countText(held[index]!),
      enough: held[index]! >= cost[index]!,
    })),
    ready: cost.every((amount, index) => held[index]! >= amount),
  };
}

export function repairView(state: ShipState) {
  const missing = state.maxDuration - state.duration;
  return {
    missing: formatDuration(missing),
    cost: formatAmount(repairCost(state.shipType, missing), "FIRE", "cost"),
    needed: missing > 0n,
  };
}

export function slotOpenerView(state: ShipState) {
  if (state.openSlots >= SHIP_SLOTS.length) return null;
  return { slot: SLOT_LABELS[SHIP_SLOTS[state.openSlots]!], price: formatPrice(slotOpenerPrice(state.openSlots), "QUARK") };
}
