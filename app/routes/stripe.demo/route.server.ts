/**
 * The card checkout's first step, server side: the boxes sold by card, and the order form's post, which takes a
 * pending order from the store and sends the player to pay (features/cards/card-checkout.server.ts).
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { OrderSchema } from "~/features/cards/card-schemas";
import { loginHref } from "~/domain/login-href";
import { apis, backendProblem, signedInApis } from "~/services/apis.server";
import { startCheckout } from "~/features/cards/card-checkout.server";
import { getEnv } from "~/services/env.server";
import { BackendError } from "~/services/http-client.server";
import { BOX_CATALOGUE } from "~core/boxes";
import { CARD_ORDER_MAX_QUANTITY, cardBoxes, formatCents } from "~core/card-payment";
import { logProblem } from "~/services/request-scope.server";

export async function demoPage(request: Request) {
  const url = new URL(request.url);
  const { user } = await apis(request);
  const boxes = cardBoxes().map((box) => ({
    typeBox: box.typeBox,
    title: box.title,
    content: box.content,
    price: formatCents(box.cardPriceCents),
  }));
  // Stripe's cancel_url and a failed order's "try again" come back here with the same choice.
  const chosen = Number(url.searchParams.get("box"));
  const quantity = Number(url.searchParams.get("quantity"));
  return json({
    boxes,
    chosen: boxes.some((box) => box.typeBox === chosen) ? chosen : boxes[0].typeBox,
    quantity: Number.isInteger(quantity) && quantity >= 1 && quantity <= CARD_ORDER_MAX_QUANTITY ? quantity : 1,
    viewer: user ? (user.WalletAddress ? ("wallet" as const) : ("no-wallet" as const)) : ("visitor" as const),
    loginHref: loginHref(url.pathname + url.search),
    provider: getEnv().STRIPE_SECRET_KEY ? ("stripe" as const) : ("test" as const),
    chainOnly: BOX_CATALOGUE.filter((box) => box.cardPriceCents === null).map((box) => box.title.replace(/ loot box$/, "")),
  });
}

const CHECKOUT_DOWN = "The card checkout could not be started just now. Nothing was charged; please try again in a moment.";

export type DemoActionData = { result: SubmissionResult<string[]> };

export async function demoPost(request: Request) {
  const { sso, user } = await signedInApis(request);
  const submission = parseWithZod(await request.formData(), { schema: OrderSchema });
  if (submission.status !== "success") return json<DemoActionData>({ result: submission.reply() }, { status: 400 });
  try {
    const to = await startCheckout(sso, { ...submission.value, email: user.UserName });
    return redirect(to, 303);
  } catch (error) {
    // An expired session's redirect to sign in goes through; the store's refusal is given in its words, the provider
    // being unreachable (a Stripe SDK error) in ours.
    if (error instanceof Response) throw error;
    if (!(error instanceof BackendError)) logProblem("card checkout: the provider refused or failed", error);
    const problem = error instanceof BackendError ? backendProblem(error) : { status: 502, reason: CHECKOUT_DOWN };
    return json<DemoActionData>(
      { result: submission.reply({ formErrors: [problem.reason] }) },
      { status: problem.status >= 500 ? 502 : 400 },
    );
  }
}
