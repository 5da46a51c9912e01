/**
 * An item page's share data (issue 42): its description for link previews and its schema.org Product with the
 * listing's Offer, built on the server so the page ships none of it.
 */
import { formatWei } from "~core/money";
import { itemImagePath, shareTags, SITE_NAME } from "~/services/share-tags.server";

const DETAIL_PATH = "/marketplace/detail";

export interface SharedItem {
  tokenId: string;
  nftType: number;
  name: string;
  typeLabel: string;
  grade: { label: string; value: string } | null;
  /** The listing's price as text ("1,234.5 FIRE"), null when not for sale. */
  price: string | null;
  /** The listing's price in wei, null when not for sale. */
  priceWei: string | null;
  currency: string | null;
}

/** The item page's canonical query: the item alone (no back link). */
export function itemCanonicalSearch(ref: { nftType: number; tokenId: string }): string {
  return `nftType=${ref.nftType}&tokenId=${ref.tokenId}`;
}

export function itemDescription(item: SharedItem): string {
  const grade = item.grade ? ` · ${item.grade.label}: ${item.grade.value}` : "";
  const sale = item.price ? `For sale at ${item.price}` : "Not for sale now";
  return `${item.name}, ${item.typeLabel}${grade}. ${sale} on the ${SITE_NAME} marketplace.`;
}

/**
 * schema.org Product with its Offer, only for an item on sale (an Offer without a price is invalid). The price is
 * the exact decimal of the wei (bigint math, never a float) and the currency the token's symbol.
 */
export function productJsonLd(item: SharedItem, site: string): Record<string, unknown> | null {
  if (item.priceWei === null || !item.currency) return null;
  const url = `${site}${DETAIL_PATH}?${itemCanonicalSearch(item)}`;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: item.name,
    description: itemDescription(item),
    image: `${site}${itemImagePath(item)}`,
    url,
    sku: `${item.nftType}-${item.tokenId}`,
    category: item.typeLabel,
    offers: {
      "@type": "Offer",
      url,
      price: formatWei(BigInt(item.priceWei)),
      priceCurrency: item.currency,
      availability: "https://schema.org/InStock",
    },
  };
}

/** The item page's share tags (routes/marketplace.detail): its PNG preview, canonical URL and, listed, its offer. */
export function itemShare(item: SharedItem, site: string) {
  return shareTags(site, DETAIL_PATH, {
    title: item.name,
    description: itemDescription(item),
    canonicalSearch: itemCanonicalSearch(item),
    image: itemImagePath(item),
    jsonLd: productJsonLd(item, site),
  });
}
