import { TableHead } from "~/components/table-head";
import type { OfferRowView } from "./offer-views";
import { OfferActionForm, type OfferSigner } from "./offer-signing";

/**
 * Offers as a table: what, price, buyer, until, status; an offer that can no longer be paid says so, and has no
 * accept button. Accept and cancel post to the offers' action, which returns to `back`.
 */
export function OffersTable({
  rows,
  caption,
  back,
  signer,
}: {
  rows: OfferRowView[];
  caption: string;
  back: string;
  signer: OfferSigner | null;
}) {
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
                  <OfferActionForm intent="offer-accept" fields={{ ...row.accept, back }} signer={signer}>
                    {(busy) => (
                      <button type="submit" className="btn-primary" disabled={busy} aria-label={`Accept ${row.price} for ${row.what}`}>
                        Accept
                      </button>
                    )}
                  </OfferActionForm>
                ) : row.cancel ? (
                  <OfferActionForm intent="offer-cancel" fields={{ offerId: row.id, back }} signer={signer}>
                    {(busy) => (
                      <button type="submit" className="btn-secondary" disabled={busy} aria-label={`Cancel your offer of ${row.price}`}>
                        Cancel
                      </button>
                    )}
                  </OfferActionForm>
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
