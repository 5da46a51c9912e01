/**
 * POST /resources/award-claim: the browser-wallet award island on /invite asks for an award here (issue 29). The
 * market backend signs a currency's claimable rebate as an award for the session's bound wallet (intent "claim"), or
 * hands out an unpaid award again by its txId ("submit-award"); the island then submits it from the wallet.
 * Answers { claim } or { message } with a 4xx/5xx.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { claimAgain, claimRequest } from "~/features/bridge/claim-request.server";
import { awardToSend, CHOOSE_CURRENCY, currencyInput } from "~/features/invites/awards.server";

export function action({ request }: ActionFunctionArgs) {
  return claimRequest(request, async ({ invites }, intent, form) => {
    if (intent === "claim") {
      const currency = currencyInput(form);
      if (!currency) return json({ message: CHOOSE_CURRENCY }, { status: 400 });
      return json({ claim: await awardToSend(invites, currency) });
    }
    if (intent === "submit-award")
      return claimAgain(form, "This award cannot be found. Reload the page.", (txId) => invites.awardSign(txId));
  });
}
