/**
 * The fleet's rules (docs/spaceships.md), as StarshipManager applies them on chain, in one pure module that the
 * spaceship pages, the calculators, the browser-wallet island and the SSO executor share. Every figure is an
 * integer and every division rounds down, as in Solidity: the differential test (tests/contracts/starship-
 * differential.test.ts) runs these functions and the contract's on the same random inputs and wants equal answers.
 *
 * - Power: the seven attributes' Total, raised 15 % per level above 1, plus what each fitted piece of equipment adds.
 * - Exploration: a ship mines DarkIron, Silver and Gold at rates set by its power and level, and loses duration at
 *   its lost rate (per mille of each mining second, lower with more Endurance and Armor). Mining stops when the
 *   duration runs out.
 * - Repair restores the whole duration for FIRE; an upgrade spends mined materials to raise the level by one; a
 *   slot opener, paid in QUARK, opens the next locked slot.
 */
import { WEI_PER_TOKEN } from "./money";
import { type EQUIPMENT_CODES, equipmentSlot, MATERIALS, SPACESHIP_STATS, type EquipmentSlot } from "./nft";

export const SHIP_LEVEL_MIN = 1;
export const SHIP_LEVEL_MAX = 10;
export const SHIP_TYPE_MIN = 1;
export const SHIP_TYPE_MAX = 4;

/** A ship's four slots, in the order slot openers open them; each takes one kind of equipment. */
export const SHIP_SLOTS = ["weapon", "helmet", "cuirass", "leggings"] as const satisfies readonly EquipmentSlot[];
export const SHIP_SLOT_COUNT = SHIP_SLOTS.length;
export const SLOT_LABELS: Record<EquipmentSlot, string> = { weapon: "Weapon", helmet: "Helmet", cuirass: "Cuirass", leggings: "Leggings" };

/** The slot (index into SHIP_SLOTS) an equipment code fits. */
export function slotOfEquipment(code: number): number {
  return SHIP_SLOTS.indexOf(equipmentSlot(code as keyof typeof EQUIPMENT_CODES));
}

/** Open slots of a ship that no slot opener has touched: one for Common and Rare ships, two for Epic and Legend. */
export function openSlotsAtStart(shipType: number): number {
  return shipType >= 3 ? 2 : 1;
}

/** What one fitted piece adds to power: 30 per grade (1 Common … 4 Legendary) and 10 per level. */
export function equipmentPower(equipmentType: number, level: number): bigint {
  return 30n * BigInt(equipmentType) + 10n * BigInt(level);
}

export interface FittedEquipment {
  equipmentType: number;
  level: number;
}

/** Power: Total × (100 + 15 × (level − 1)) / 100, plus every fitted piece's power. */
export function shipPower(stats: readonly number[], level: number, equipment: readonly FittedEquipment[] = []): bigint {
  const total = stats.reduce((sum, stat) => sum + BigInt(stat), 0n);
  const levelled = (total * (100n + 15n * BigInt(level - 1))) / 100n;
  return equipment.reduce((sum, piece) => sum + equipmentPower(piece.equipmentType, piece.level), levelled);
}

/** Duration lost per 1,000 mining seconds: 1,600 less 4 per point of Endurance and Armor, never under 400. */
export function lostRate(endurance: number, armor: number): bigint {
  const rate = 1600n - 4n * BigInt(endurance + armor);
  return rate < 400n ? 400n : rate;
}

const HOUR = 3600n;

/** A ship's full duration in seconds: 8 hours, 2 more per type above Common, half an hour more per level above 1. */
export function maxDuration(shipType: number, level: number): bigint {
  return 8n * HOUR + 2n * HOUR * BigInt(shipType - 1) + (HOUR / 2n) * BigInt(level - 1);
}

/** How long a ship with `duration` seconds left can mine before it needs repair. */
export function maxMiningSeconds(duration: bigint, rate: bigint): bigint {
  return (duration * 1000n) / rate;
}

/** The mined amounts of DarkIron, Silver and Gold, in MATERIALS order. */
export type Materials = readonly [bigint, bigint, bigint];

/**
 * What `seconds` of mining yield: DarkIron = s × power / 36,000; Silver = s × power × (level + 1) / 360,000;
 * Gold = s × power × level / 1,800,000 (each rounded down).
 */
export function minedAmounts(power: bigint, level: number, seconds: bigint): Materials {
  const work = seconds * power;
  return [work / 36_000n, (work * BigInt(level + 1)) / 360_000n, (work * BigInt(level)) / 1_800_000n];
}

export interface MiningOutcome {
  /** The seconds that count: those asked for, or fewer when the duration runs out first. */
  minedSeconds: bigint;
  /** Duration lost: minedSeconds × lost rate / 1,000, rounded up, never more than the duration left. */
  lost: bigint;
  mined: Materials;
  durationAfter: bigint;
}

/** The duration-lost calculator, and what a recall applies: `seconds` of mining from `duration` seconds left. */
export function miningOutcome(input: { power: bigint; level: number; rate: bigint; duration: bigint; seconds: bigint }): MiningOutcome {
  const cap = maxMiningSeconds(input.duration, input.rate);
  const minedSeconds = input.seconds < cap ? input.seconds : cap;
  const lostUp = (minedSeconds * input.rate + 999n) / 1000n;
  const lost = lostUp > input.duration ? input.duration : lostUp;
  return { minedSeconds, lost, mined: minedAmounts(input.power, input.level, minedSeconds), durationAfter: input.duration - lost };
}

/** FIRE (wei) to restore `missing` seconds of duration: one FIRE per 6 minutes per ship type (1 Common … 4 Legend). */
export function repairCost(shipType: number, missing: bigint): bigint {
  return (missing * BigInt(shipType) * WEI_PER_TOKEN) / 360n;
}

/** Materials (DarkIron, Silver, Gold) to go from `level` to the next; null at the top level. */
export const UPGRADE_COSTS: Readonly<Record<number, Materials>> = {
  1: [50n, 0n, 0n],
  2: [120n, 20n, 0n],
  3: [250n, 60n, 5n],
  4: [400n, 120n, 15n],
  5: [600n, 200n, 30n],
  6: [900n, 320n, 60n],
  7: [1300n, 500n, 100n],
  8: [1800n, 750n, 160n],
  9: [2500n, 1100n, 250n],
};

export function upgradeCost(level: number): Materials | null {
  return UPGRADE_COSTS[level] ?? null;
}

/** QUARK (wei) for the slot opener that opens the next slot: 50 QUARK per slot already open. */
export function slotOpenerPrice(openSlots: number): bigint {
  return 50n * BigInt(openSlots) * WEI_PER_TOKEN;
}

/** "120 DarkIron, 20 Silver": the non-zero amounts, or "nothing". */
export function formatMaterials(amounts: Materials): string {
  const parts = amounts.flatMap((amount, index) => (amount > 0n ? [`${amount} ${MATERIALS[index as 0 | 1 | 2]}`] : []));
  return parts.length > 0 ? parts.join(", ") : "nothing";
}

/** The materials `held` lacks for `needed`, in MATERIALS order (all zero when it suffices). */
export function materialsShort(needed: Materials, held: Materials): Materials {
  const short = (i: 0 | 1 | 2) => (needed[i] > held[i] ? needed[i] - held[i] : 0n);
  return [short(0), short(1), short(2)];
}

/** A ship's figures in one place, whether read from the chain or typed into a calculator. */
export interface ShipSpec {
  shipType: number;
  level: number;
  /** The seven attributes in SPACESHIP_STATS order. */
  stats: readonly number[];
  equipment: readonly FittedEquipment[];
}

export function shipFigures(spec: ShipSpec) {
  const endurance = spec.stats[SPACESHIP_STATS.indexOf("endurance")] ?? 0;
  const armor = spec.stats[SPACESHIP_STATS.indexOf("armor")] ?? 0;
  return {
    power: shipPower(spec.stats, spec.level, spec.equipment),
    rate: lostRate(endurance, armor),
    maxDuration: maxDuration(spec.shipType, spec.level),
  };
}

/** StarshipManager's ShipView (queryShips), as viem decodes it. */
export interface ShipView {
  tokenId: bigint;
  owner: string;
  shipType: number;
  level: number;
  stats: readonly number[];
  /** Seconds of exploration left before it needs repair. */
  duration: bigint;
  maxDuration: bigint;
  openSlots: number;
  /** Equipment token id per slot (SHIP_SLOTS order), 0n when empty. */
  fitted: readonly bigint[];
  /** Unix seconds the running mission started; 0n when the ship is not exploring. */
  exploringSince: bigint;
  power: bigint;
  lostRate: bigint;
}

/**
 * A ship's state on chain, as the pages and the executor read it: its view, with the fitted pieces' grades
 * (`equipment`) and the lost rate as `rate`.
 */
export interface ShipState extends ShipSpec, Omit<ShipView, keyof ShipSpec | "lostRate"> {
  rate: bigint;
}

/** A ship as the rules take it; `equipment` gives the fitted pieces' grades when the caller knows them. */
export function shipStateOf(view: ShipView, equipment: ReadonlyMap<string, FittedEquipment> = new Map()): ShipState {
  return {
    tokenId: view.tokenId,
    owner: view.owner,
    shipType: view.shipType,
    level: view.level,
    stats: [...view.stats],
    duration: view.duration,
    maxDuration: view.maxDuration,
    openSlots: view.openSlots,
    fitted: [...view.fitted],
    exploringSince: view.exploringSince,
    power: view.power,
    rate: view.lostRate,
    equipment: view.fitted.flatMap((id) => (id === 0n ? [] : [equipment.get(id.toString()) ?? { equipmentType: 0, level: 0 }])),
  };
}

export type ShipActivity = "exploring" | "needs-repair" | "idle";

export function shipActivity(ship: Pick<ShipState, "exploringSince" | "duration">): ShipActivity {
  if (ship.exploringSince > 0n) return "exploring";
  return ship.duration === 0n ? "needs-repair" : "idle";
}

/** A running mission at `now` (the chain's clock): the yield so far, and the seconds until the duration runs out. */
export function missionNow(ship: ShipState, now: bigint) {
  const elapsed = now > ship.exploringSince ? now - ship.exploringSince : 0n;
  const outcome = miningOutcome({ power: ship.power, level: ship.level, rate: ship.rate, duration: ship.duration, seconds: elapsed });
  const cap = maxMiningSeconds(ship.duration, ship.rate);
  return { elapsed, outcome, secondsLeft: cap > elapsed ? cap - elapsed : 0n };
}

// --- refusals, in the product's words, before anything is sent (the contract refuses the same) ---

export function exploreRefusal(ship: ShipState): string | null {
  if (ship.exploringSince > 0n) return `Ship #${ship.tokenId} is already exploring.`;
  if (ship.duration === 0n) return `Ship #${ship.tokenId} has no duration left: repair it before it explores again.`;
  return null;
}

export function recallRefusal(ship: ShipState): string | null {
  return ship.exploringSince > 0n ? null : `Ship #${ship.tokenId} is not exploring.`;
}

export function repairRefusal(ship: ShipState, fireBalance: bigint): string | null {
  if (ship.exploringSince > 0n) return `Ship #${ship.tokenId} is exploring: recall it before you repair it.`;
  if (ship.duration >= ship.maxDuration) return `Ship #${ship.tokenId} is fully repaired.`;
  const cost = repairCost(ship.shipType, ship.maxDuration - ship.duration);
  if (fireBalance < cost) return "Transaction failed. You do not have enough balance.";
  return null;
}

export function upgradeRefusal(ship: ShipState, held: Materials): string | null {
  if (ship.exploringSince > 0n) return `Ship #${ship.tokenId} is exploring: recall it before you upgrade it.`;
  const cost = upgradeCost(ship.level);
  if (!cost) return `Ship #${ship.tokenId} is at the top level, ${SHIP_LEVEL_MAX}.`;
  const short = materialsShort(cost, held);
  if (short.some((amount) => amount > 0n)) return `Not enough materials: this upgrade needs ${formatMaterials(short)} more.`;
  return null;
}

export function openSlotRefusal(ship: ShipState, quarkBalance: bigint): string | null {
  if (ship.openSlots >= SHIP_SLOT_COUNT) return `Every slot of ship #${ship.tokenId} is open.`;
  if (quarkBalance < slotOpenerPrice(ship.openSlots)) return "Transaction failed. You do not have enough balance.";
  return null;
}

/** Fitting `equipment` (its code) into `slot`; the equipment's ownership and lock are the caller's to check. */
export function fitRefusal(ship: ShipState, slot: number, equipment: { tokenId: bigint; equipmentCode: number }): string | null {
  if (ship.exploringSince > 0n) return `Ship #${ship.tokenId} is exploring: recall it before you change its equipment.`;
  if (slot < 0 || slot >= SHIP_SLOT_COUNT) return "There is no such slot.";
  if (slot >= ship.openSlots) return `The ${SLOT_LABELS[SHIP_SLOTS[slot]!]} slot is locked: open it with a slot opener first.`;
  if (ship.fitted[slot] !== 0n) return `The ${SLOT_LABELS[SHIP_SLOTS[slot]!]} slot is taken: remove what is in it first.`;
  if (slotOfEquipment(equipment.equipmentCode) !== slot) {
    const kind = SLOT_LABELS[SHIP_SLOTS[slotOfEquipment(equipment.equipmentCode)]!];
    return `Item #${equipment.tokenId} goes in a ${kind} slot, not the ${SLOT_LABELS[SHIP_SLOTS[slot]!]} slot.`;
  }
  return null;
}

export function unfitRefusal(ship: ShipState, slot: number): string | null {
  if (ship.exploringSince > 0n) return `Ship #${ship.tokenId} is exploring: recall it before you change its equipment.`;
  if (slot < 0 || slot >= SHIP_SLOT_COUNT || ship.fitted[slot] === 0n) return "That slot is empty.";
  return null;
}
