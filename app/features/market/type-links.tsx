import { PillNav } from "~/components/pill-nav";
import { NFT_TYPE_CODES, NFT_TYPE_LABELS, type TypeHrefs } from "~/features/market/filters/shared";
import type { NftTypeCode } from "~core/nft";

/**
 * "All" and each item type as links: the type is a navigation, not a field. `hrefs` (the server's, from
 * typeHrefs) say where each type leads, keeping the view's other filters that still fit; the current one is marked.
 */
export function TypeLinks({
  label,
  allLabel = "All types",
  current,
  hrefs,
}: {
  label: string;
  allLabel?: string;
  current: NftTypeCode | undefined;
  hrefs: TypeHrefs;
}) {
  const codes = [undefined, ...NFT_TYPE_CODES];
  const items = codes.map((code) => ({
    href: hrefs[code ?? "all"],
    label: code === undefined ? allLabel : NFT_TYPE_LABELS[code],
    current: code === current,
  }));
  return <PillNav label={label} items={items} />;
}
