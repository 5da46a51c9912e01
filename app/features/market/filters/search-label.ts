/**
 * A market view in words, one line: "Hero cards · Rarity: Legend · FIRE ≤ 500". The one label of a search, shown
 * for a collection offer's terms and for a watched search (list, inbox, digest mail), so both read alike.
 */
import { formatWei } from "~core/money";
import { LIST_FILTERS, LIST_KEYS, type MarketFilter, RANGE_FILTERS, RANGE_KEYS, VENUE_OPTIONS } from "./market-options";
import { NFT_TYPE_LABELS } from "./shared";

const SEPARATOR = " · ";

/** A bound or two: "3–5", "≥ 3", "≤ 500". */
export function rangeText<T extends number | bigint>(range: { min?: T; max?: T }, format: (value: T) => string = String): string {
  if (range.min !== undefined && range.max !== undefined)
    return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`;
  return range.min !== undefined ? `≥ ${format(range.min)}` : `≤ ${format(range.max!)}`;
}

export function searchLabel(filter: MarketFilter): string {
  const parts = [filter.nftType === undefined ? "All items" : NFT_TYPE_LABELS[filter.nftType]];
  for (const key of LIST_KEYS) {
    const codes = filter.lists[key];
    if (codes?.length) parts.push(`${LIST_FILTERS[key].label}: ${codes.map((code) => LIST_FILTERS[key].options[code]).join(", ")}`);
  }
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (range) parts.push(`${RANGE_FILTERS[key].label} ${rangeText(range)}`);
  }
  const price = filter.price && rangeText(filter.price, (wei) => formatWei(wei, { group: true }));
  if (filter.currency) parts.push(price ? `${filter.currency} ${price}` : filter.currency);
  else if (price) parts.push(`Price ${price}`);
  if (filter.venue) parts.push(VENUE_OPTIONS.find((option) => option.value === filter.venue)!.label);
  return parts.join(SEPARATOR);
}
