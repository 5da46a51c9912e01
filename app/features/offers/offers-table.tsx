import { Form } from "@remix-run/react";
import { TableHead } from "~/components/table-head";
import { OFFERS_PATH, type OfferRowView } from "./offer-views";

/**
 * Offers as a table: what, price, buyer, until, status; an offer that can no longer be paid says so, and has no
 * accept button. Accept and cancel are plain POST forms to the offers' action, which returns to `back`.
 */
export function OffersTable({ rows, caption, back }: { rows: OfferRowView[]; caption: string; back: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Offer", "Price", "Buyer", "Until", ""]} />
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.id}-${row.accept?.tokenId ?? ""}`} className="border-t border-space-800 align-top text-white">
              <td className="py-2 pr-3">{row.href ? <a href={row.href}>{row.what}</a> : row.what}</td>
              <td className="whitespace-nowrap py-2 pr-3">{row.price}</td>
              <td className="py-2 pr-3 font-mono text-xs">{row.buyer}</td>
              <td className="py-2 pr-3">{row.until}</td>
              <td className="py-2">
                {row.unpayable && <p className="text-amber-200">{row.unpayable}</p>}
                {row.accept ? (
                  <Form method="post" action={OFFERS_PATH}>
                    <input type="hidden" name="intent" value="offer-accept" />
                    <input type="hidden" name="back" value={back} />
                    <input type="hidden" name="offerId" value={row.accept.offerId} />
                    <input type="hidden" name="tokenId" value={row.accept.tokenId} />
                    <input type="hidden" name="nftType" value={row.accept.nftType} />
                    <button type="submit" className="btn-primary" aria-label={`Accept ${row.price} for ${row.what}`}>
                      Accept
                    </button>
                  </Form>
                ) : row.cancel ? (
                  <Form method="post" action={OFFERS_PATH}>
                    <input type="hidden" name="intent" value="offer-cancel" />
                    <input type="hidden" name="back" value={back} />
                    <input type="hidden" name="offerId" value={row.id} />
                    <button type="submit" className="btn-secondary" aria-label={`Cancel your offer of ${row.price}`}>
                      Cancel
                    </button>
                  </Form>
                ) : (
                  !row.unpayable && row.status
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
