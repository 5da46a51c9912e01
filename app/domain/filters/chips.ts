/** The market view's active filters as chips (one link per value, which removes just that value) and form values. */
import { DEFAULT_PAGE } from "~core/constants";
import { formatWei } from "~core/money";
import {
  type IntRange,
  LIST_FILTERS,
  LIST_KEYS,
  type ListSpec,
  type MarketFilter,
  RANGE_FILTERS,
  RANGE_KEYS,
  type WeiRange,
} from "./market-options";
import { marketHref, withType } from "./market";
import { NFT_TYPE_LABELS } from "./shared";

export interface Chip {
  label: string;
  /** The canonical market URL without this value (back on page 1). */
  href: string;
}

function rangeText<T extends number | bigint>(range: { min?: T; max?: T }, format: (value: T) => string = String): string {
  if (range.min !== undefined && range.max !== undefined)
    return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`;
  return range.min !== undefined ? `≥ ${format(range.min)}` : `≤ ${format(range.max!)}`;
}

export function filterChips(filter: MarketFilter): Chip[] {
  const base = { ...filter, page: DEFAULT_PAGE };
  const chips: Chip[] = [];
  if (filter.nftType !== undefined)
    chips.push({ label: `Type: ${NFT_TYPE_LABELS[filter.nftType]}`, href: marketHref(withType(base, undefined)) });
  for (const key of LIST_KEYS) {
    const spec: ListSpec = LIST_FILTERS[key];
    for (const code of filter.lists[key] ?? []) {
      const rest = filter.lists[key]!.filter((other) => other !== code);
      const lists = { ...base.lists, [key]: rest };
      if (!rest.length) delete lists[key];
      chips.push({ label: `${spec.label}: ${spec.options[code]}`, href: marketHref({ ...base, lists }) });
    }
  }
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (!range) continue;
    const ranges = { ...base.ranges };
    delete ranges[key];
    chips.push({ label: `${RANGE_FILTERS[key].label} ${rangeText(range)}`, href: marketHref({ ...base, ranges }) });
  }
  if (filter.currency) chips.push({ label: `Currency: ${filter.currency}`, href: marketHref({ ...base, currency: undefined }) });
  if (filter.price) {
    chips.push({
      label: `Price ${rangeText(filter.price, (wei) => formatWei(wei, { group: true }))}${filter.currency ? ` ${filter.currency}` : ""}`,
      href: marketHref({ ...base, price: undefined }),
    });
  }
  return chips;
}

/** The form's text for a range input: each side on its own. */
export function rangeInputValues(range: IntRange | WeiRange | undefined, isWei = false): [string, string] {
  const text = (value: number | bigint | undefined) => (value === undefined ? "" : isWei ? formatWei(value as bigint) : String(value));
  return [text(range?.min), text(range?.max)];
}
