import { Form, Link, useLocation } from "@remix-run/react";
import type { FormEvent } from "react";
import type { BuyConfirmation } from "./trade-state";
import { Amount } from "~/components/amount";

/**
 * The second step of a purchase: the listing the action just read, with the buyer's balance. It posts that
 * listing and its seller, so the order names what the buyer saw; Back reloads the page without buying.
 */
export function BuyConfirmForm({
  confirm,
  onSubmit,
  disabled,
}: {
  confirm: BuyConfirmation;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  disabled: boolean;
}) {
  const location = useLocation();
  return (
    <Form method="post" className="mt-3 flex flex-col gap-2" aria-labelledby="confirm-buy-title" onSubmit={onSubmit}>
      <h3 id="confirm-buy-title" className="font-semibold text-white">
        Confirm the purchase
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
        <dt className="text-slate-300">Price</dt>
        <dd className="text-white" data-testid="confirm-price">
          {confirm.price}
        </dd>
        <dt className="text-slate-300">Your balance</dt>
        <dd className="text-white" data-testid="confirm-balance">
          <Amount value={confirm.balance} />
        </dd>
      </dl>
      {!confirm.affordable && <p className="text-sm text-amber-200">Your balance is lower than the price.</p>}
      <input type="hidden" name="intent" value="buy" />
      <input type="hidden" name="listingId" value={confirm.listingId} />
      <input type="hidden" name="seller" value={confirm.seller} />
      <input type="hidden" name="priceWei" value={confirm.priceWei} />
      <input type="hidden" name="currency" value={confirm.currency} />
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={disabled}>
          Confirm purchase
        </button>
        <Link to={location.pathname + location.search} className="btn-secondary">
          Back
        </Link>
      </div>
    </Form>
  );
}
