/**
 * What every filter view shares: the paths, the type labels, and the lenient parsing that turns a request's
 * values into typed fields, dropping anything invalid with a notice in plain words. Each view's filter codec
 * (URLSearchParams ⇄ a typed filter ⇄ the backend query of product §3, docs/architecture.md "Forms") is its own
 * module, imported directly: the bundler splits by file, so a shared index would send every view to every page.
 *
 * Canonical URLs: keys in one fixed order, defaults left out, lists sorted and deduplicated, ranges written
 * `min,max` with min ≤ max. Values are digits, letters, "." and "," only, so canonical text needs no escaping.
 */
import { CURRENCIES, type Currency, isCurrency } from "~core/money";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import type { PillNavItem } from "~/components/pill-nav";

export { MARKET_PATH, RESULT_WINDOW, STATISTICS_PATH, STORAGE_PATH } from "./paths";

export const NFT_TYPE_CODES = Object.keys(NFT_TYPES).map(Number) as NftTypeCode[];

/** What people call each type in the UI. */
export const NFT_TYPE_LABELS: Record<NftTypeCode, string> = {
  0: "Hero cards",
  1: "Halloween items",
  2: "PSE",
  3: "EGSE",
  4: "Spaceships",
  5: "Pet eggs",
  6: "Loot boxes",
  7: "Equipment",
  8: "Materials",
};

export type Options = Readonly<Record<number, string>>;

/**
 * "All" and each item type as the links of a view (TypeLinks): where each leads (`hrefFor`, keeping the view's other
 * filters that still fit) and which is `current`. Worked out on the server, so no page ships the type tables.
 */
export function typeLinks(
  current: NftTypeCode | undefined,
  hrefFor: (nftType: NftTypeCode | undefined) => string,
  allLabel = "All types",
): PillNavItem[] {
  return [undefined, ...NFT_TYPE_CODES].map((code) => ({
    href: hrefFor(code),
    label: code === undefined ? allLabel : NFT_TYPE_LABELS[code],
    current: code === current,
  }));
}

export interface Parsed<F> {
  filter: F;
  /** Plain-words reasons for every value that was dropped. */
  notices: string[];
}

/** Keys a framework may add to a request (Remix data requests); never part of a filter. */
const TRANSPORT_KEYS = new Set(["_data", "_routes", "index"]);
const MAX_NOTICES = 12;

export function shown(value: string) {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `“${short}”`;
}

export class Notices {
  readonly list: string[] = [];
  add(message: string) {
    if (this.list.length < MAX_NOTICES && !this.list.includes(message)) this.list.push(message);
  }
}

/** A code of `options`, given as its number or (leniently) its name. */
export function parseCode(part: string, options: Options): number | undefined {
  if (/^\d{1,3}$/.test(part)) return Number(part) in options ? Number(part) : undefined;
  const lower = part.toLowerCase();
  const found = Object.entries(options).find(([, name]) => name.toLowerCase() === lower);
  return found ? Number(found[0]) : undefined;
}

/** Comma lists and repeated keys alike (checkbox groups repeat the key). */
export function parseList(values: string[], options: Options, label: string, notices: Notices): number[] | undefined {
  const parts = values
    .flatMap((value) => value.split(","))
    .map((part) => part.trim())
    .filter(Boolean);
  const codes = new Set<number>();
  const bad: string[] = [];
  for (const part of parts) {
    const code = parseCode(part, options);
    if (code === undefined) bad.push(part);
    else codes.add(code);
  }
  if (bad.length) {
    const one = bad.length === 1;
    notices.add(
      `${label}: ${bad.map(shown).join(", ")} ${one ? "is not a" : "are not"} known ${label.toLowerCase()} value${one ? "" : "s"}, ` +
        `so ${one ? "it was" : "they were"} ignored.`,
    );
  }
  return codes.size ? [...codes].sort((a, b) => a - b) : undefined;
}

/**
 * The two sides of a range: `min,max` in one value, or two values of a repeated key (a form's Min and Max
 * inputs), or one number meaning exactly that. Undefined when the shape is wrong.
 */
function rangeSides(values: string[]): [string, string] | undefined {
  if (values.length === 1) {
    const parts = values[0].split(",").map((part) => part.trim());
    if (parts.length === 1) return [parts[0], parts[0]];
    return parts.length === 2 ? [parts[0], parts[1]] : undefined;
  }
  if (values.length === 2 && !values.some((value) => value.includes(","))) return [values[0], values[1]];
  return undefined;
}

/** A range of bounds parsed by `parse`, swapped into order; undefined when empty or invalid (with a notice). */
export function parseRange<T extends number | bigint>(
  values: string[],
  parse: (text: string) => T | undefined,
  label: string,
  expected: string,
  notices: Notices,
): { min?: T; max?: T } | undefined {
  if (values.every((value) => value.replace(/,/g, "").trim() === "")) return undefined;
  const sides = rangeSides(values);
  const bounds = sides?.map((side) => (side === "" ? null : parse(side)));
  if (!sides || !bounds || bounds.some((bound) => bound === undefined)) {
    notices.add(`${label}: ${shown(values.join(","))} is not ${expected}, so it was ignored.`);
    return undefined;
  }
  let [low, high] = bounds as (T | null)[];
  if (low !== null && high !== null && low > high) [low, high] = [high, low];
  return { ...(low === null ? {} : { min: low }), ...(high === null ? {} : { max: high }) };
}

export function intParser(min: number, max: number) {
  return (text: string) => {
    if (!/^\d{1,9}$/.test(text)) return undefined;
    const n = Number(text);
    return n >= min && n <= max ? n : undefined;
  };
}

function parseNftType(value: string): NftTypeCode | undefined {
  if (/^\d$/.test(value)) return Number(value) in NFT_TYPES ? (Number(value) as NftTypeCode) : undefined;
  return NFT_TYPE_CODES.find((code) => NFT_TYPES[code] === value.toLowerCase());
}

/**
 * A request's values (trimmed, in arrival order, framework keys left out), read key by key; whatever no
 * parser took is reported at the end. `aliases` are other spellings of a key, accepted but never written.
 */
export class FilterParams {
  readonly notices = new Notices();
  private readonly raw = new Map<string, string[]>();

  constructor(params: URLSearchParams, aliases: Record<string, string> = {}) {
    // Pushed in place: copying the list on each value made a key repeated n times cost n².
    for (const [key, value] of params) {
      if (TRANSPORT_KEYS.has(key)) continue;
      const values = this.raw.get(key);
      if (values) values.push(value.trim());
      else this.raw.set(key, [value.trim()]);
    }
    for (const [alias, key] of Object.entries(aliases)) {
      const values = this.raw.get(alias);
      if (!values) continue;
      this.raw.set(key, [...(this.raw.get(key) ?? []), ...values]);
      this.raw.delete(alias);
    }
  }

  has(key: string) {
    return this.raw.has(key);
  }

  take(key: string): string[] | undefined {
    const values = this.raw.get(key);
    this.raw.delete(key);
    return values;
  }

  /** The one value of a key that takes one; extra values are reported and dropped. */
  one(key: string, label: string): string | undefined {
    const given = this.take(key)?.filter(Boolean) ?? [];
    if (given.length > 1 && new Set(given).size > 1) this.notices.add(`${label}: only one value is allowed; ${shown(given[0])} was used.`);
    return given[0];
  }

  nftType(): NftTypeCode | undefined {
    const text = this.one("nftType", "Type");
    if (text === undefined) return undefined;
    const code = parseNftType(text);
    if (code === undefined) this.notices.add(`Type: ${shown(text)} is not an NFT type, so all types are shown.`);
    return code;
  }

  currency(): Currency | undefined {
    const text = this.one("currency", "Currency");
    if (text === undefined) return undefined;
    if (isCurrency(text.toUpperCase())) return text.toUpperCase() as Currency;
    this.notices.add(`Currency: ${shown(text)} is not one of ${CURRENCIES.join(", ")}, so it was ignored.`);
    return undefined;
  }

  /** A page number from 1 to `last`. */
  page(last: number): number | undefined {
    const text = this.one("page", "Page");
    if (text === undefined) return undefined;
    const page = intParser(1, last)(text);
    if (page === undefined) this.notices.add(`Page: ${shown(text)} is not a page number, so the first page is shown.`);
    return page;
  }

  /** Every key left unread is not a filter. */
  rejectRest() {
    for (const key of this.raw.keys()) this.notices.add(`${shown(key)} is not a filter, so it was ignored.`);
  }
}

/**
 * Is `search` (the request's query string, with or without "?") already the canonical one? Compared as
 * form-encoded text, because the framework hands loaders a re-encoded URL ("," arrives as "%2C"); framework
 * keys are ignored, so a data request never redirects to itself.
 */
export function isCanonical(search: string, canonical: string): boolean {
  const params = new URLSearchParams(search);
  for (const key of TRANSPORT_KEYS) params.delete(key);
  return params.toString() === new URLSearchParams(canonical).toString();
}
