import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { backendProblem, publicApis } from "~/services/apis.server";

export const meta: MetaFunction = () => [{ title: "Payment received | Spark Era" }];

/** product §2: the header is hidden on this page. */
export const handle = { hideHeader: true };

const NOT_FOUND = "We could not find this payment.";

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim() ?? "";
  if (!/^[A-Za-z0-9_]{1,200}$/.test(sessionId))
    return json({ order: null, problem: "This link does not name a payment.", unavailable: false }, { status: 404 });
  try {
    const order = await publicApis().sso.orderDetail(sessionId);
    return json({ order, problem: null, unavailable: false });
  } catch (error) {
    const { status } = backendProblem(error);
    // The store answers 400 to an id that is not a checkout session's and 404 to an unknown one: no such payment either way.
    if (status < 500) return json({ order: null, problem: NOT_FOUND, unavailable: false }, { status: 404 });
    return json(
      { order: null, problem: "We could not check this payment just now. It is safe to try again in a moment.", unavailable: true },
      { status },
    );
  }
}

function formatAmount(cents: number, currency: string) {
  return new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

const STATUS_TEXT = { paid: "Paid", pending: "Waiting for payment", delivered: "Delivered", failed: "Not completed" } as const;

export default function StripeSuccess() {
  const { order, problem, unavailable } = useLoaderData<typeof loader>();
  const paid = order?.status === "paid";
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="page-title">
        {paid ? "Payment successful" : order ? "Payment not completed" : unavailable ? "Payment status unavailable" : "Payment not found"}
      </h1>
      <p className="muted mt-3">
        {paid
          ? "Thank you. Your order is confirmed and your loot box will be delivered to your account."
          : order
            ? "This payment has not gone through. You have not been charged for it."
            : problem}
      </p>
      {order && (
        <section aria-labelledby="order-title" className="card mt-8 text-left">
          <h2 id="order-title" className="section-title">
            Order details
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
            <dt className="muted">Order</dt>
            <dd className="break-all text-white">{order.sessionId}</dd>
            <dt className="muted">Product</dt>
            <dd className="text-white">
              {order.productName} × {order.quantity}
            </dd>
            <dt className="muted">Amount</dt>
            {/* Card amounts are integer cents from the payment provider, not token wei. */}
            <dd className="text-white">{formatAmount(order.amountCents, order.currency)}</dd>
            <dt className="muted">Status</dt>
            <dd className="text-white">{STATUS_TEXT[order.status]}</dd>
            <dt className="muted">Date</dt>
            <dd className="text-white">{new Date(order.paidAt ?? order.createdAt).toUTCString()}</dd>
          </dl>
        </section>
      )}
      <Link to="/home" className="btn-primary mt-8">
        Back to Spark Era
      </Link>
    </div>
  );
}
