import type { ChainOffer } from "~core/api/market";
import { TableHead } from "~/components/table-head";
import type { OfferRowView } from "./offer-views";
import { OfferActionForm, type OfferSigner } from "./offer-signing";
import { type ChainOfferTask, useChainOffer } from "./use-chain-offer";

/** A chain offer's idempotency key and signed terms, posted with its accept or cancel. */
const keyOf = (row: OfferRowView): Record<string, string> =>
  row.key && row.chainOffer ? { idempotencyKey: row.key, chainOffer: row.chainOffer } : {};

/**
 * An offer row's first two cells: what and by whom, the price and until when. Three columns in all, so a phone shows
 * the button without a sideways scroll: the buyer and expiry go under. The visitor's read-only table has these alone.
 */
export function OfferCells({ row }: { row: Pick<OfferRowView, "what" | "href" | "buyer" | "chainOffer" | "price" | "until"> }) {
  return (
    <>
      <td className="py-2 pr-3">
        {row.href ? <a href={row.href}>{row.what}</a> : row.what}
        <span className="block text-xs text-slate-300">
          by <span className="font-mono">{row.buyer}</span>
          {row.chainOffer && " · from a wallet on chain"}
        </span>
      </td>
      <td className="py-2 pr-3">
        {/* An 18-decimal price wraps on a phone rather than pushing the button out of view. */}
        <span className="break-all sm:whitespace-nowrap sm:break-normal">{row.price}</span>
        <span className="block text-xs text-slate-300">until {row.until}</span>
      </td>
    </>
  );
}

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
    (request) => "offerId" in request && !rows.some((row) => row.id === request.offerId && (row.accept || row.cancel)),
  );
  const chainStart = chainOffers.start;
  /** A browser wallet sends a chain offer's accept or withdraw itself, from the signed terms the row carries. */
  const walletSends = (row: OfferRowView, task: (offer: ChainOffer) => ChainOfferTask) =>
    chainStart && row.chainOffer ? (form: HTMLFormElement) => chainStart(form, task(JSON.parse(row.chainOffer!) as ChainOffer)) : null;
  const table = (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Offer", "Price", ""]} />
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.id}-${row.accept?.tokenId ?? ""}`} className="border-t border-space-800 align-top text-white">
              <OfferCells row={row} />
              <td className="min-w-[6rem] py-2">
                {row.unpayable && <p className="text-xs text-amber-200">{row.unpayable}</p>}
                {row.accept ? (
                  <OfferActionForm
                    intent="offer-accept"
                    fields={{ ...row.accept, back, ...keyOf(row) }}
                    signer={signer}
                    onChain={walletSends(row, (offer) => ({
                      intent: "offer-accept",
                      offerId: row.id,
                      offer,
                      tokenId: row.accept!.tokenId,
                    }))}
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
                    fields={{ offerId: row.id, back, ...keyOf(row) }}
                    signer={signer}
                    onChain={walletSends(row, (offer) => ({ intent: "offer-cancel", offerId: row.id, offer }))}
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
