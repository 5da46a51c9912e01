import { PillNav } from "~/components/pill-nav";
import { NFT_TYPE_CODES, NFT_TYPE_LABELS } from "~/domain/filters/shared";
import type { NftTypeCode } from "~core/nft";

/**
 * "All" and each item type as links: the type is a navigation, not a field. `hrefFor` says where each type
 * leads (keeping the view's other filters that still fit); the current one is marked.
 */
export function TypeLinks({
  label,
  allLabel = "All types",
  current,
  hrefFor,
}: {
  label: string;
  allLabel?: string;
  current: NftTypeCode | undefined;
  hrefFor: (nftType: NftTypeCode | undefined) => string;
}) {
  const codes = [undefined, ...NFT_TYPE_CODES];
  const items = codes.map((code) => ({
    href: hrefFor(code),
    label: code === undefined ? allLabel : NFT_TYPE_LABELS[code],
    current: code === current,
  }));
  return <PillNav label={label} items={items} />;
}
