import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { usePollWhile } from "~/features/actions/use-poll";
import type { RouteHandle } from "~/root";
import { backendProblem, publicApis } from "~/services/apis.server";
import { loaderCacheControl } from "~/services/page-headers.server";
import { formatCents, type CardOrderStatus } from "~core/card-payment";
import { formatIsoTime } from "~core/chain-text";

export const meta: MetaFunction = () => [{ title: "Your card payment | Spark Era" }];
// An order, found by its session id: never kept in a cache.
export const headers = loaderCacheControl;

const NOT_FOUND = "We could not find this payment.";
/** Seconds between checks while the order waits for its payment or its boxes. */
const REFRESH_SECONDS = 2;

const settled = (status: CardOrderStatus | undefined) => status === undefined || status === "delivered" || status === "failed";

/**
 * product §2: the header is hidden on this page. Without JavaScript, a waiting order reloads itself until it is
 * delivered or failed (root.tsx renders the <noscript> refresh); with it, the page revalidates in place.
 */
export const handle: RouteHandle = {
  hideHeader: true,
  refreshSeconds: (data) => {
    const page = data as { order: { status: CardOrderStatus } | null } | undefined;
    return page?.order && !settled(page.order.status) ? REFRESH_SECONDS : null;
  },
};

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim() ?? "";
  if (!/^[A-Za-z0-9_]{1,200}$/.test(sessionId))
    return json({ order: null, problem: "This link does not name a payment.", unavailable: false }, { status: 404 });
  try {
    const order = await publicApis().sso.orderDetail(sessionId);
    const view = {
      sessionId: order.sessionId,
      typeBox: order.productId,
      product: order.productName,
      quantity: order.quantity,
      amount: formatCents(order.amountCents, order.currency),
      status: order.status,
      date: formatIsoTime(order.deliveredAt ?? order.paidAt ?? order.createdAt),
      deliveryTx: order.deliveryTx,
      checkoutHref: order.sessionId.startsWith("cs_test_") ? `/stripe/checkout?session_id=${encodeURIComponent(order.sessionId)}` : null,
    };
    return json({ order: view, problem: null, unavailable: false }, { headers: { "Cache-Control": "no-store" } });
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

const HEADINGS: Record<CardOrderStatus, string> = {
  pending: "Waiting for payment",
  paid: "Payment successful",
  delivered: "Payment successful",
  failed: "Payment not completed",
};

const STATUS_TEXT: Record<CardOrderStatus, string> = {
  pending: "Waiting for payment",
  paid: "Paid, delivering your boxes",
  delivered: "Delivered to your wallet",
  failed: "Not completed",
};

const EXPLANATIONS: Record<CardOrderStatus, string> = {
  pending: "We have not received this payment yet. This page updates by itself as soon as it arrives.",
  paid: "Thank you. Your payment is confirmed and your loot boxes are on their way to your wallet. This page updates by itself.",
  delivered: "Thank you. Your loot boxes are in your wallet, ready to open.",
  failed: "This payment did not go through, and you have not been charged. You can place the order again.",
};

export default function StripeSuccess() {
  const { order, problem, unavailable } = useLoaderData<typeof loader>();
  usePollWhile(Boolean(order && !settled(order.status)), REFRESH_SECONDS * 1000);
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="page-title">{order ? HEADINGS[order.status] : unavailable ? "Payment status unavailable" : "Payment not found"}</h1>
      <p className="muted mt-3" role="status">
        {order ? EXPLANATIONS[order.status] : problem}
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
              {order.product} × {order.quantity}
            </dd>
            <dt className="muted">Amount</dt>
            <dd className="text-white">{order.amount}</dd>
            <dt className="muted">Status</dt>
            <dd className="text-white" data-testid="order-status">
              {STATUS_TEXT[order.status]}
            </dd>
            <dt className="muted">Date</dt>
            <dd className="text-white">{order.date}</dd>
            {order.deliveryTx && (
              <>
                <dt className="muted">Transaction</dt>
                <dd className="break-all font-mono text-xs text-white">{order.deliveryTx}</dd>
              </>
            )}
          </dl>
        </section>
      )}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {order?.status === "delivered" && (
          <Link to={`/lootbox/${order.typeBox}`} className="btn-primary">
            Open your boxes
          </Link>
        )}
        {order?.status === "pending" && order.checkoutHref && (
          <Link to={order.checkoutHref} className="btn-primary">
            Pay now
          </Link>
        )}
        {order?.status === "failed" && (
          <Link to={`/stripe/demo?box=${order.typeBox}&quantity=${order.quantity}`} className="btn-primary">
            Try again
          </Link>
        )}
        <Link to="/home" className="btn-secondary">
          Back to Spark Era
        </Link>
      </div>
    </div>
  );
}
