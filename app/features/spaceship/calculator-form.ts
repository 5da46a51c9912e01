/** The power and duration-lost calculators' inputs, each to and from a canonical URL a player can bookmark. Pure and unit-tested. */
import { formatDuration } from "~core/chain-text";
import { shownAmount } from "~core/money";
import { EQUIPMENT_TYPES, SPACESHIP_TYPES } from "~core/nft";
import {
  maxDuration,
  miningOutcome,
  repairCost,
  SHIP_LEVEL_MAX,
  SHIP_LEVEL_MIN,
  SHIP_SLOTS,
  SHIP_TYPE_MAX,
  SHIP_TYPE_MIN,
  shipFigures,
  type ShipSpec,
  type ShipState,
} from "~core/spaceship";
import { STAT_KEYS, STAT_LABELS } from "./spaceship-labels";
import { countText, materialsView, type ShipRecordFacts, shipTypeName } from "./spaceship-view";

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
    power: countText(power),
    rate: `${countText(rate)} ‰`,
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
