import { type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Payment received | Spark Era" }];

/** SPEC §2: the header is hidden on this page. */
export const handle = { hideHeader: true };

export default function StripeSuccess() {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="page-title">Payment successful</h1>
      <p className="muted mt-3">Thank you. Your order is confirmed and your loot box will be delivered to your account.</p>
      <section aria-labelledby="order-title" className="card mt-8 text-left">
        <h2 id="order-title" className="section-title">
          Order details
        </h2>
        <p className="muted mt-2 text-sm">The order number, product, amount and status of your payment.</p>
      </section>
      <Link to="/home" className="btn-primary mt-8">
        Back to Spark Era
      </Link>
    </div>
  );
}
