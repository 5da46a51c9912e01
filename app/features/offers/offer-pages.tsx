/** The pages of a list of offers longer than one page (issue 43): plain links, so they work without JavaScript. */
import { Pagination } from "~/features/market/pagination";
import type { OfferPagesView } from "./offer-views";

export function OfferPages({ pages }: { pages: OfferPagesView }) {
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-slate-300">{pages.text}</p>
      <Pagination info={pages.info} hrefs={pages.hrefs} label="Pages of offers" />
    </div>
  );
}
