/** The marketplace landing's links, made on the server: through this module the page ships none of the filter codec. */
import { NFT_TYPE_CODES, NFT_TYPE_LABELS, STATISTICS_PATH } from "~/features/market/filters/shared";
import { typeHref } from "~/features/market/filters/market";

export function landingLinks() {
  return {
    types: NFT_TYPE_CODES.map((code) => ({ code, href: typeHref(code), label: NFT_TYPE_LABELS[code] })),
    statistics: STATISTICS_PATH,
  };
}
