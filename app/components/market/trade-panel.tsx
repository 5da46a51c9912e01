/**
 * The trade actions area of an item. Selling, cancelling, buying and transferring arrive with the trading issue;
 * until then it states where the item stands, with no buttons that would do nothing.
 */
export interface TradeStatus {
  onSale: boolean;
  /** "12.5 FIRE" when on sale. */
  price: string | null;
  isOwner: boolean;
}

export function TradePanel({ status }: { status: TradeStatus }) {
  return (
    <section aria-labelledby="trade-title" className="card">
      <h2 id="trade-title" className="section-title">
        Trade
      </h2>
      <p className="mt-2 text-lg font-semibold text-white" data-testid="trade-status">
        {status.onSale ? `On sale for ${status.price}` : "Not for sale"}
      </p>
      {status.isOwner && <p className="muted mt-1 text-sm">You own this item.</p>}
    </section>
  );
}
