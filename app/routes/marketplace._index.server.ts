/** The marketplace landing's links, made on the server: through this module the page ships none of the filter codec. */
import { NFT_TYPE_CODES, NFT_TYPE_LABELS, STATISTICS_PATH } from "~/domain/filters/shared";
import { typeHref } from "~/domain/filters/market";

export function landingLinks() {
  return {
    types: NFT_TYPE_CODES.map((code) => ({ code, href: typeHref(code), label: NFT_TYPE_LABELS[code] })),
    statistics: STATISTICS_PATH,
  };
}
