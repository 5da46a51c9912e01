import { Link } from "@remix-run/react";
import { NFT_TYPE_CODES, NFT_TYPE_LABELS } from "~/domain/filters";
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
  const entries = [{ code: undefined, label: allLabel }, ...NFT_TYPE_CODES.map((code) => ({ code, label: NFT_TYPE_LABELS[code] }))];
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {entries.map(({ code, label: text }) => (
          <li key={text}>
            <Link
              to={hrefFor(code)}
              aria-current={current === code ? "page" : undefined}
              className={`inline-block rounded-full border px-3 py-1 text-sm no-underline ${
                current === code ? "border-spark-400 bg-spark-500 font-semibold text-space-950" : "border-space-600 text-slate-100 hover:bg-space-800"
              }`}
            >
              {text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
