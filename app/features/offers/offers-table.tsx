import { TableHead } from "~/components/table-head";
import type { OfferRowView } from "./offer-views";
import { OfferActionForm, type OfferSigner } from "./offer-signing";
import { useChainOffer } from "./use-chain-offer";

/**
 * Offers as a table: what and by whom, price and until when, and the action or status; an offer that can no longer be paid says so, and has no
 * accept button. Accept and cancel post to the offers' action, which returns to `back`.
 */
export function OffersTable({
  rows,
  caption,
  back,
  signer,
  empty,
}: {
  rows: OfferRowView[];
  caption: string;
  /** What shows without rows; the table's chain offer island stays, so its outcome outlives the row it closed. */
  empty: string;
  back: string;
  signer: OfferSigner | null;
}) {
  // A chain offer's accept or withdraw is done once the market no longer shows it open (its indexer read the chain).
  const chainOffers = useChainOffer(
    signer,
    (request) => request.intent !== "offer" && !rows.some((row) => row.id === request.offerId && (row.accept || row.cancel)),
  );
  const chainStart = chainOffers.start;
  const table = (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Offer", "Price", ""]} />
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.id}-${row.accept?.tokenId ?? ""}`} className="border-t border-space-800 align-top text-white">
              {/* Three columns, so a phone shows the button without a sideways scroll: the buyer and expiry go under. */}
              <td className="py-2 pr-3">
                {row.href ? <a href={row.href}>{row.what}</a> : row.what}
                <span className="block text-xs text-slate-300">
                  by <span className="font-mono">{row.buyer}</span>
                </span>
              </td>
              <td className="py-2 pr-3">
                <span className="whitespace-nowrap">{row.price}</span>
                <span className="block text-xs text-slate-300">until {row.until}</span>
              </td>
              <td className="py-2">
                {row.unpayable && <p className="text-amber-200">{row.unpayable}</p>}
                {row.accept ? (
                  <OfferActionForm
                    intent="offer-accept"
                    fields={{ ...row.accept, back }}
                    signer={signer}
                    onChain={
                      chainStart &&
                      row.chain &&
                      ((form) =>
                        chainStart(form, { intent: "offer-accept", offerId: row.id, offer: row.chain!, tokenId: row.accept!.tokenId }))
                    }
                  >
                    {(busy) => (
                      <button
                        type="submit"
                        className="btn-primary"
                        disabled={busy || chainOffers.busy}
                        aria-label={`Accept ${row.price} for ${row.what}`}
                      >
                        Accept
                      </button>
                    )}
                  </OfferActionForm>
                ) : row.cancel ? (
                  <OfferActionForm
                    intent="offer-cancel"
                    fields={{ offerId: row.id, back }}
                    signer={signer}
                    onChain={
                      chainStart &&
                      row.chain &&
                      ((form) => chainStart(form, { intent: "offer-cancel", offerId: row.id, offer: row.chain! }))
                    }
                  >
                    {(busy) => (
                      <button
                        type="submit"
                        className="btn-secondary"
                        disabled={busy || chainOffers.busy}
                        aria-label={`Cancel your offer of ${row.price}`}
                      >
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
  // The island keeps its place whether rows remain or not: moved, it would mount again and send its transaction twice.
  return (
    <>
      {rows.length ? table : <p className="muted">{empty}</p>}
      {chainOffers.island}
    </>
  );
}
