/**
 * The spaceship pages' words and figures (issue 15), built by their loaders from the fleet (spaceship.server.ts)
 * by the rules of core/spaceship.ts, so the pages ship neither the rules nor the formatting. Also the two
 * GET codecs the pages share: the storehouse's filter and the calculators' inputs, each to and from a canonical URL a
 * player can bookmark. Pure and unit-tested.
 */
import { formatDuration } from "~core/chain-text";
import { formatAmount, formatPrice, shownAmount } from "~core/money";
import { EQUIPMENT_CODES, EQUIPMENT_TYPES, MATERIALS, SPACESHIP_TYPES } from "~core/nft";
import {
  formatMaterials,
  type Materials,
  maxDuration,
  miningOutcome,
  missionNow,
  repairCost,
  SHIP_LEVEL_MAX,
  SHIP_LEVEL_MIN,
  SHIP_SLOTS,
  SHIP_TYPE_MAX,
  SHIP_TYPE_MIN,
  shipActivity,
  shipFigures,
  slotOpenerPrice,
  SLOT_LABELS,
  upgradeCost,
  type ShipSpec,
  type ShipState,
} from "~core/spaceship";
import { FLEET_SORTS, FLEET_STATUSES, type FleetSort, SHIP_STATUS_TEXT, type ShipStatus, STAT_KEYS, STAT_LABELS } from "./spaceship-labels";

const shipTypeName = (shipType: number) => SPACESHIP_TYPES[shipType as keyof typeof SPACESHIP_TYPES] ?? `Type ${shipType}`;
const count = (n: bigint) => n.toLocaleString("en-US");

/** "7 h 46 m of 10 h" and the share left, for a duration bar. */
export function durationText(duration: bigint, full: bigint) {
  const percent = full > 0n ? Number((duration * 100n) / full) : 0;
  return { text: `${formatDuration(duration)} of ${formatDuration(full)}`, percent };
}

export function materialsView(amounts: Materials) {
  return MATERIALS_LIST.map((name, index) => ({ name, amount: count(amounts[index]!) }));
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
      power: count(state.power),
      duration: durationText(state.duration, state.maxDuration),
      slots: `${state.openSlots} of ${SHIP_SLOTS.length} slots open, ${fitted} fitted`,
      mission: missionView(state, now),
    },
  };
}

// --- the storehouse's filter: a canonical GET URL (fixed key order, defaults dropped) ---

export interface FleetFilter {
  rank?: number;
  status?: ShipStatus;
  sort: FleetSort;
  order: "desc" | "asc";
}

export const DEFAULT_FLEET_FILTER: FleetFilter = { sort: "power", order: "desc" };

/** Reads the filter from the URL; a value it cannot use is dropped with a notice, never an error page. */
export function parseFleetFilter(search: URLSearchParams): { filter: FleetFilter; notices: string[] } {
  const filter: FleetFilter = { ...DEFAULT_FLEET_FILTER };
  const notices: string[] = [];
  const rank = search.get("rank");
  if (rank) {
    const code = Number(rank);
    if (Number.isInteger(code) && code >= SHIP_TYPE_MIN && code <= SHIP_TYPE_MAX) filter.rank = code;
    else notices.push(`Rank: “${rank.slice(0, 20)}” is not one of 1-4, so every rank is shown.`);
  }
  const status = search.get("status");
  if (status) {
    if ((FLEET_STATUSES as readonly string[]).includes(status)) filter.status = status as ShipStatus;
    else notices.push(`Status: “${status.slice(0, 20)}” is not one of ${FLEET_STATUSES.join(", ")}, so every ship is shown.`);
  }
  const sort = search.get("sort");
  if (sort) {
    if (sort in FLEET_SORTS) filter.sort = sort as FleetSort;
    else notices.push(`Sort: “${sort.slice(0, 20)}” is not one of ${Object.keys(FLEET_SORTS).join(", ")}, so ships are sorted by power.`);
  }
  const order = search.get("order");
  if (order === "asc" || order === "desc") filter.order = order;
  else if (order) notices.push(`Order: “${order.slice(0, 20)}” is not asc or desc, so the highest come first.`);
  return { filter, notices };
}

export function serializeFleetFilter(filter: FleetFilter): string {
  const parts: string[] = [];
  if (filter.rank !== undefined) parts.push(`rank=${filter.rank}`);
  if (filter.status) parts.push(`status=${filter.status}`);
  if (filter.sort !== DEFAULT_FLEET_FILTER.sort) parts.push(`sort=${filter.sort}`);
  if (filter.order !== DEFAULT_FLEET_FILTER.order) parts.push(`order=${filter.order}`);
  return parts.join("&");
}

type SortableShip = { card: ShipCardView; state: ShipState | null };

function sortValue(ship: SortableShip, sort: FleetSort): bigint {
  switch (sort) {
    case "power":
      return ship.state?.power ?? -1n;
    case "level":
      return BigInt(ship.card.level);
    case "total":
      return BigInt(ship.card.total);
    case "duration":
      return ship.state?.duration ?? -1n;
  }
}

/** The ships the filter keeps, in its order (ties by token id, so a page reads the same twice). */
export function applyFleetFilter<T extends SortableShip>(ships: readonly T[], filter: FleetFilter): T[] {
  const kept = ships.filter(
    (ship) =>
      (filter.rank === undefined || SPACESHIP_TYPES[filter.rank as 1] === ship.card.typeName) &&
      (!filter.status || ship.card.status === filter.status),
  );
  const direction = filter.order === "asc" ? 1 : -1;
  return kept.sort((a, b) => {
    const x = sortValue(a, filter.sort);
    const y = sortValue(b, filter.sort);
    if (x !== y) return (x < y ? -1 : 1) * direction;
    return BigInt(a.card.tokenId) < BigInt(b.card.tokenId) ? -1 : 1;
  });
}

// --- the power and duration-lost calculators: every input in the URL ---

export interface CalculatorInput extends ShipSpec {
  /** Mining time asked for, in seconds (hours and minutes in the form). */
  seconds: bigint;
  /** Duration left before mining, in seconds; the full duration when not given. */
  durationLeft: bigint | null;
}

export interface CalculatorForm {
  /** The fields as typed, to show them again. */
  values: Record<string, string>;
  errors: Record<string, string>;
  input: CalculatorInput | null;
}

const SLOT_FIELDS = SHIP_SLOTS.map((slot) => ({ slot, grade: `${slot}Grade`, level: `${slot}Level` }));
export const CALCULATOR_FIELDS = [
  "shipType",
  "level",
  ...STAT_KEYS,
  ...SLOT_FIELDS.flatMap((field) => [field.grade, field.level]),
  "hours",
  "minutes",
  "leftHours",
  "leftMinutes",
] as const;

function whole(text: string, min: number, max: number): number | null {
  if (!/^\d{1,6}$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

/**
 * A ship's figures as the market lists it (a ship in the game has no chain state): null when the record lacks one,
 * so the calculators fall back to their plain defaults rather than to made-up figures.
 */
export function recordSpec(facts: ShipRecordFacts): Pick<ShipSpec, "shipType" | "level" | "stats"> | null {
  if (facts.rank === null || facts.level === null || facts.stats.some((stat) => stat === null)) return null;
  return { shipType: facts.rank, level: facts.level, stats: facts.stats as number[] };
}

/**
 * Calculator defaults for a ship: its figures as the chain has them (fitted pieces and duration left included), or as
 * the game has them for a ship in the game, or a Common level-1 ship of 50s.
 */
export function calculatorDefaults(
  ship?: (Pick<ShipSpec, "shipType" | "level" | "stats"> & Partial<ShipState>) | null,
): Record<string, string> {
  const values: Record<string, string> = {
    shipType: String(ship?.shipType ?? 1),
    level: String(ship?.level ?? 1),
    hours: "1",
    minutes: "0",
    leftHours: "",
    leftMinutes: "",
  };
  STAT_KEYS.forEach((key, index) => (values[key] = String(ship?.stats[index] ?? 50)));
  SLOT_FIELDS.forEach((field) => {
    values[field.grade] = "0";
    values[field.level] = "0";
  });
  if (ship?.fitted) {
    let piece = 0;
    ship.fitted.forEach((id, slot) => {
      if (id === 0n) return;
      const fitted = ship.equipment?.[piece++];
      values[SLOT_FIELDS[slot]!.grade] = String(fitted?.equipmentType ?? 0);
      values[SLOT_FIELDS[slot]!.level] = String(fitted?.level ?? 0);
    });
  }
  if (ship?.duration !== undefined) {
    const left = ship.duration;
    values.leftHours = String(left / 3600n);
    values.leftMinutes = String((left % 3600n) / 60n);
  }
  return values;
}

/** Reads the calculators' inputs from the URL over `defaults`; each bad field gets its own message. */
export function parseCalculator(search: URLSearchParams, defaults: Record<string, string>): CalculatorForm {
  const values: Record<string, string> = {};
  for (const field of CALCULATOR_FIELDS) values[field] = (search.get(field) ?? defaults[field] ?? "").trim().slice(0, 12);
  const errors: Record<string, string> = {};
  const read = (field: string, min: number, max: number, message: string) => {
    const value = whole(values[field] ?? "", min, max);
    if (value === null) errors[field] = message;
    return value ?? min;
  };
  const shipType = read("shipType", SHIP_TYPE_MIN, SHIP_TYPE_MAX, "Choose a type from Common to Legend.");
  const level = read("level", SHIP_LEVEL_MIN, SHIP_LEVEL_MAX, `Enter a level from ${SHIP_LEVEL_MIN} to ${SHIP_LEVEL_MAX}.`);
  const stats = STAT_KEYS.map((key, index) => read(key, 0, 255, `Enter ${STAT_LABELS[index]} as a whole number from 0 to 255.`));
  const equipment = SLOT_FIELDS.flatMap((field) => {
    const grade = read(field.grade, 0, 4, "Choose a grade, or none.");
    const pieceLevel = read(field.level, 0, SHIP_LEVEL_MAX, `Enter a level from 0 to ${SHIP_LEVEL_MAX}.`);
    if (grade === 0 && pieceLevel > 0 && !errors[field.level])
      errors[field.grade] = "Choose the grade of the piece, or set its level to 0.";
    if (grade > 0 && pieceLevel === 0 && !errors[field.level])
      errors[field.level] = `Enter the piece's level, from 1 to ${SHIP_LEVEL_MAX}.`;
    return grade > 0 ? [{ equipmentType: grade, level: pieceLevel }] : [];
  });
  const hours = read("hours", 0, 10_000, "Enter whole hours, from 0 to 10,000.");
  const minutes = read("minutes", 0, 59, "Enter minutes from 0 to 59.");
  const seconds = BigInt(hours) * 3600n + BigInt(minutes) * 60n;
  if (seconds === 0n && !errors.hours && !errors.minutes) errors.hours = "Enter a mining time above zero.";
  let durationLeft: bigint | null = null;
  if (values.leftHours || values.leftMinutes) {
    const full = maxDuration(shipType, level);
    const leftHours = values.leftHours ? read("leftHours", 0, 1000, "Enter whole hours.") : 0;
    const leftMinutes = values.leftMinutes ? read("leftMinutes", 0, 59, "Enter minutes from 0 to 59.") : 0;
    durationLeft = BigInt(leftHours) * 3600n + BigInt(leftMinutes) * 60n;
    if (durationLeft > full && !errors.leftHours) {
      errors.leftHours = `A ${shipTypeName(shipType)} ship at level ${level} holds at most ${formatDuration(full)}.`;
    }
  }
  const input = Object.keys(errors).length === 0 ? { shipType, level, stats, equipment, seconds, durationLeft } : null;
  return { values, errors, input };
}

/** The calculators' answer in words: power, and what the mining time yields and costs. */
export function calculatorResult(input: CalculatorInput) {
  const { power, rate, maxDuration: full } = shipFigures(input);
  const duration = input.durationLeft ?? full;
  const outcome = miningOutcome({ power, level: input.level, rate, duration, seconds: input.seconds });
  const cut = outcome.minedSeconds < input.seconds;
  return {
    power: count(power),
    rate: `${count(rate)} ‰`,
    fullDuration: formatDuration(full),
    durationLeft: formatDuration(duration),
    minedFor: formatDuration(outcome.minedSeconds),
    cutShort: cut ? `The duration runs out after ${formatDuration(outcome.minedSeconds)}: mining stops there.` : null,
    lost: formatDuration(outcome.lost),
    after: formatDuration(outcome.durationAfter),
    mined: materialsView(outcome.mined),
    // A cost: rounded up, never below what the repair will take.
    repair: shownAmount(repairCost(input.shipType, full - outcome.durationAfter), "FIRE", "cost"),
  };
}

/** The calculators' select options, sent by the loader so the page ships no enumeration module. */
export function calculatorOptions() {
  return {
    ranks: Object.entries(SPACESHIP_TYPES),
    grades: Object.entries(EQUIPMENT_TYPES),
    stats: STAT_KEYS.map((key, index) => [key, STAT_LABELS[index]!] as [string, string]),
  };
}

/** The calculator's canonical address: every field in a fixed order. */
export function calculatorSearch(values: Record<string, string>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  for (const field of CALCULATOR_FIELDS) if (values[field]) params.set(field, values[field]!);
  return params.toString();
}

// --- one ship in full ---

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
      needed: count(cost[index]!),
      held: count(held[index]!),
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
