/** The pages of a list of offers longer than one page (issue 43): plain links, so they work without JavaScript. */
import type { ReactNode } from "react";
import { Section } from "~/components/page";
import { Pagination } from "~/features/market/pagination";
import type { OfferPagesView, OfferRowView } from "./offer-views";
import type { OfferSigner } from "./offer-signing";
import { OffersTable } from "./offers-table";

export function OfferPages({ pages }: { pages: OfferPagesView }) {
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-slate-300">{pages.text}</p>
      <Pagination info={pages.info} hrefs={pages.hrefs} label="Pages of offers" />
    </div>
  );
}

/**
 * A section of one page of offers (the item page's, storage's offers on the player's items): the table, which says
 * `empty` without rows, the links to the other pages, then `children`.
 */
export function OffersSection({
  title,
  id,
  caption,
  empty,
  offers,
  back,
  children,
}: {
  title: string;
  id: string;
  caption: string;
  empty: string;
  offers: { rows: OfferRowView[]; pages: OfferPagesView | null; signer: OfferSigner | null };
  back: string;
  children?: ReactNode;
}) {
  return (
    <Section title={title} id={id}>
      <OffersTable rows={offers.rows} caption={caption} empty={empty} back={back} signer={offers.signer} />
      {offers.pages && <OfferPages pages={offers.pages} />}
      {children}
    </Section>
  );
}
