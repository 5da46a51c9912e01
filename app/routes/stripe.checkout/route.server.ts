/**
 * The embedded store's test checkout, server side: it stands in for the provider's payment page when no
 * STRIPE_SECRET_KEY is set (docs/api/sso.md "Store"). The order is read by its session id, as the provider's page
 * would; a paid order moves on to /stripe/success.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { CardSchema } from "~/features/cards/card-schemas";
import { backendProblem, publicApis } from "~/services/apis.server";
import { getEnv } from "~/services/env.server";
import { formatCents } from "~core/card-payment";

const successHref = (sessionId: string) => `/stripe/success?session_id=${encodeURIComponent(sessionId)}`;

export async function checkoutPage(request: Request) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim() ?? "";
  // With a real provider the player pays on its page: this one does not exist.
  if (getEnv().STRIPE_SECRET_KEY || !/^cs_test_[A-Za-z0-9_]{1,250}$/.test(sessionId)) throw new Response("Not found", { status: 404 });
  const order = await publicApis()
    .sso.orderDetail(sessionId)
    .catch((error: unknown) => {
      const { status } = backendProblem(error);
      throw new Response(status < 500 ? "Not found" : "The store could not be reached", { status: status < 500 ? 404 : 502 });
    });
  if (order.status !== "pending") throw redirect(successHref(sessionId), 303);
  return json(
    {
      sessionId,
      productName: order.productName,
      quantity: order.quantity,
      amount: formatCents(order.amountCents, order.currency),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export type CheckoutActionData = { result: SubmissionResult<string[]> };

export async function checkoutPost(request: Request) {
  if (getEnv().STRIPE_SECRET_KEY) throw new Response("Not found", { status: 404 });
  const submission = parseWithZod(await request.formData(), { schema: CardSchema });
  const hide = { hideFields: ["cardNumber", "cvc"] };
  if (submission.status !== "success") return json<CheckoutActionData>({ result: submission.reply(hide) }, { status: 400 });
  try {
    await publicApis().sso.payTestCheckout(submission.value);
  } catch (error) {
    const problem = backendProblem(error);
    // A declined card (402) or a closed checkout is the form's message; the player may try another card.
    if (problem.status === 409) throw redirect(successHref(submission.value.sessionId), 303);
    return json<CheckoutActionData>(
      { result: submission.reply({ formErrors: [problem.reason], ...hide }) },
      { status: problem.status >= 500 ? 502 : 402 },
    );
  }
  return redirect(successHref(submission.value.sessionId), 303);
}

export { loaderCacheControl } from "~/services/page-headers.server";
