/**
 * A collection offer's filter (issue 30, decision 0023) in its one canonical form, written the same by the app (from
 * the market view it was made on) and by the market backend (from the listing query it parsed): `key=value` pairs
 * sorted by key, ranges as `min[level]=2`, code lists sorted and comma-separated. The Offer order signs this text, so
 * both sides must write it byte for byte alike.
 */
export function offerFilterText(query: Readonly<Record<string, unknown>>): string {
  const parts: [string, string][] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      if (value.length) parts.push([key, [...(value as number[])].sort((a, b) => a - b).join(",")]);
    } else parts.push([key, String(value)]);
  };
  for (const [key, value] of Object.entries(query)) {
    if ((key === "min" || key === "max") && value && typeof value === "object") {
      for (const [bound, limit] of Object.entries(value)) add(`${key}[${bound}]`, limit);
    } else add(key, value);
  }
  return parts
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}
