/**
 * The loot box catalogue of product §3: what is sold, for what, and under which limits.
 * Pure data and lookups, shared by the app (shop, labels, limit notes) and contracts/deploy.ts (seed prices,
 * supply and daily limits). The prices here are the seed values; the app shows what the sale contract returns.
 *
 * Reconciling product §3's two naming lists
 * - List A (with the shop fields, typeBox given): 18 V3-Galaxy, 5 Premium, 7 Legendary, 6 Epic, 4 Standard,
 *   17 Spaceship (10 advanced ships).
 * - List B: 1 Halloween, 2-4 EGSE, 5 Standard, 6 Premium, 7 Epic, 8 Legendary, 18 Spaceship.
 * List A wins wherever they disagree, because every other part of the product spec agrees with it: §9 and §5 put the
 * spaceship box at 17 and the daily limit on "V3-Galaxy and Legendary" with queried types 7, 17, 18 (so 7 is
 * Legendary, 18 V3-Galaxy), and the rank labels call 7 and 17 Legendary and 18 Uncommon. List B reads as an
 * older numbering shifted by one (its 5/6/7/8 are A's 4/5/6/7 names) that was not renumbered.
 * So: the six list-A types are the catalogue and the only types the sale and opener accept. List B's
 * non-conflicting types (1 Halloween, 2-3 EGSE, 8 Legendary) are kept as display names only, for boxes that
 * may appear in listings; 4 stays Standard (A) rather than EGSE (B), and 18 stays V3-Galaxy.
 *
 * The rank label of a box type (product §3) is `rankLabel` below.
 *
 * Price index: `money` is the product spec's (box type, price index) pair; the index points into `currencies`, and the
 * currency it names is the headline price on the box card. `currencies` lists every currency the box is
 * payable in; the sale contract accepts exactly those (a zero on-chain price means "not accepted").
 */
import { BOX_PURCHASE_LIMIT_PER_DAY, SHIPS_PER_SPACESHIP_BOX, SPACESHIP_BOX_TYPE } from "./constants";

export type PaymentCurrency = "USDT" | "QUARK" | "BNB";

/** Which kinds of items a box can yield (its card flags); mirrors contracts/src/Drops.sol. */
export interface BoxCardFlags {
  heroCards: boolean;
  equipment: boolean;
  materials: boolean;
  petEggs: boolean;
  spaceships: boolean;
}

export interface LootBoxEntry {
  typeBox: number;
  title: string;
  /** What the box holds, for the shop card. */
  content: string;
  /** the product spec's money pair: box type id and the index in `currencies` of the headline price. */
  money: readonly [typeBox: number, priceIndex: number];
  /** Every currency the box can be paid in, headline currency first. */
  currencies: readonly PaymentCurrency[];
  /** Seeded price per box in wei (18 decimals) for each accepted currency. */
  seedPrices: Readonly<Partial<Record<PaymentCurrency, bigint>>>;
  /**
   * The seeded PSE-holder and whitelist prices as a percentage of the list price (product §7 price variants), or
   * null for a box with no pass discount.
   */
  seedVariantPercent: { pse: number; whitelist: number } | null;
  isSpaceshipBox: boolean;
  cardFlags: BoxCardFlags;
  /** Boxes ever for sale (seeded as the sale's global limit). */
  globalLimit: bigint;
  /** Boxes one address may buy per 24 h, or null when unlimited. */
  dailyLimit: number | null;
  /** Purchase-limit notes shown under the buy button. */
  limitNotes: readonly string[];
  /**
   * Price per box by bank card, in US cents (core/card-payment.ts), or null when the box is not sold by card:
   * boxes with a daily limit are sold on chain only, where the sale contract counts every purchase.
   */
  cardPriceCents: number | null;
}

const ether = (whole: number): bigint => BigInt(whole) * 10n ** 18n;
/** Thousandths of a whole token, for BNB prices below 1. */
const milli = (thousandths: number): bigint => BigInt(thousandths) * 10n ** 15n;

/** PSE holders pay 80 % and whitelisted addresses 90 % of the list price in the seed. */
const VARIANT_PERCENT = { pse: 80, whitelist: 90 } as const;

/** A seeded variant price: the list price cut to `percent`, in whole wei. */
export function variantSeedPrice(listPrice: bigint, percent: number): bigint {
  return (listPrice * BigInt(percent)) / 100n;
}

const DAILY_LIMIT_NOTE = `At most ${BOX_PURCHASE_LIMIT_PER_DAY} per player per 24 hours.`;

const cards = (flags: Partial<BoxCardFlags>): BoxCardFlags => ({
  heroCards: false,
  equipment: false,
  materials: false,
  petEggs: false,
  spaceships: false,
  ...flags,
});

/** Sold box types, in shop order. */
export const BOX_CATALOGUE: readonly LootBoxEntry[] = [
  {
    typeBox: 18,
    title: "V3-Galaxy loot box",
    content: "3 hero cards (up to Legend) and 1 pet egg.",
    money: [18, 0],
    currencies: ["QUARK"],
    seedPrices: { QUARK: ether(100) },
    seedVariantPercent: null,
    isSpaceshipBox: false,
    cardFlags: cards({ heroCards: true, petEggs: true }),
    globalLimit: 5_000n,
    dailyLimit: BOX_PURCHASE_LIMIT_PER_DAY,
    limitNotes: [DAILY_LIMIT_NOTE, "Payable only in QUARK.", "No pass discount."],
    cardPriceCents: null,
  },
  {
    typeBox: 5,
    title: "Premium loot box",
    content: "1 hero card, 1 equipment piece and 1 material.",
    money: [5, 0],
    currencies: ["USDT", "QUARK", "BNB"],
    seedPrices: { USDT: ether(30), QUARK: ether(30), BNB: milli(100) },
    seedVariantPercent: VARIANT_PERCENT,
    isSpaceshipBox: false,
    cardFlags: cards({ heroCards: true, equipment: true, materials: true }),
    globalLimit: 100_000n,
    dailyLimit: null,
    limitNotes: [],
    cardPriceCents: 2999,
  },
  {
    typeBox: 7,
    title: "Legendary loot box",
    content: "1 hero card of Rare rarity or better, 1 equipment piece and 1 pet egg.",
    money: [7, 0],
    currencies: ["USDT", "QUARK", "BNB"],
    seedPrices: { USDT: ether(150), QUARK: ether(150), BNB: milli(500) },
    seedVariantPercent: VARIANT_PERCENT,
    isSpaceshipBox: false,
    cardFlags: cards({ heroCards: true, equipment: true, petEggs: true }),
    globalLimit: 10_000n,
    dailyLimit: BOX_PURCHASE_LIMIT_PER_DAY,
    limitNotes: [DAILY_LIMIT_NOTE],
    cardPriceCents: null,
  },
  {
    typeBox: 6,
    title: "Epic loot box",
    content: "1 hero card, 1 equipment piece and 1 material.",
    money: [6, 0],
    currencies: ["USDT", "QUARK", "BNB"],
    seedPrices: { USDT: ether(60), QUARK: ether(60), BNB: milli(200) },
    seedVariantPercent: VARIANT_PERCENT,
    isSpaceshipBox: false,
    cardFlags: cards({ heroCards: true, equipment: true, materials: true }),
    globalLimit: 50_000n,
    dailyLimit: null,
    limitNotes: [],
    cardPriceCents: 5999,
  },
  {
    typeBox: 4,
    title: "Standard loot box",
    content: "1 hero card and 1 material.",
    money: [4, 0],
    currencies: ["USDT", "QUARK", "BNB"],
    seedPrices: { USDT: ether(10), QUARK: ether(10), BNB: milli(30) },
    seedVariantPercent: VARIANT_PERCENT,
    isSpaceshipBox: false,
    cardFlags: cards({ heroCards: true, materials: true }),
    globalLimit: 1_000_000n,
    dailyLimit: null,
    limitNotes: [],
    cardPriceCents: 999,
  },
  {
    typeBox: SPACESHIP_BOX_TYPE,
    title: "Spaceship loot box",
    content: `${SHIPS_PER_SPACESHIP_BOX} advanced spaceships.`,
    money: [SPACESHIP_BOX_TYPE, 0],
    currencies: ["USDT", "QUARK", "BNB"],
    seedPrices: { USDT: ether(200), QUARK: ether(200), BNB: milli(650) },
    seedVariantPercent: VARIANT_PERCENT,
    isSpaceshipBox: true,
    cardFlags: cards({ spaceships: true }),
    globalLimit: 5_000n,
    dailyLimit: BOX_PURCHASE_LIMIT_PER_DAY,
    limitNotes: [DAILY_LIMIT_NOTE],
    cardPriceCents: null,
  },
];

/** List B's names for types outside the catalogue: display only, never sold. */
const LEGACY_BOX_TITLES: Readonly<Record<number, string>> = {
  1: "Halloween loot box",
  2: "EGSE loot box",
  3: "EGSE loot box",
  8: "Legendary loot box",
};

export function findBox(typeBox: number): LootBoxEntry | undefined {
  return BOX_CATALOGUE.find((entry) => entry.typeBox === typeBox);
}

/** A display title for any box type, sold or not. */
export function boxTitle(typeBox: number): string {
  return findBox(typeBox)?.title ?? LEGACY_BOX_TITLES[typeBox] ?? `Loot box #${typeBox}`;
}

/** The headline currency and seeded price of a catalogue entry (per its `money` price index). */
export function headlinePrice(entry: LootBoxEntry): { currency: PaymentCurrency; seedPrice: bigint } {
  const currency = entry.currencies[entry.money[1]];
  const seedPrice = currency === undefined ? undefined : entry.seedPrices[currency];
  if (currency === undefined || seedPrice === undefined) {
    throw new Error(`box ${entry.typeBox}: price index ${entry.money[1]} names no priced currency`);
  }
  return { currency, seedPrice };
}

export type RankLabel = "Common" | "Uncommon" | "Legendary";
/** product §3 rank label of a loot box type: Uncommon for 18; Legendary for 8, 19, 7 and 17; Common otherwise. */
export function rankLabel(boxType: number): RankLabel {
  if (boxType === 18) return "Uncommon";
  if (boxType === 8 || boxType === 19 || boxType === 7 || boxType === 17) return "Legendary";
  return "Common";
}
