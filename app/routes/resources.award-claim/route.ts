/**
 * POST /resources/award-claim: the browser-wallet award island on /invite asks for an award here (issue 29). The
 * market backend signs a currency's claimable rebate as an award for the session's bound wallet (intent "claim"), or
 * hands out an unpaid award again by its txId ("submit-award"); the island then submits it from the wallet.
 * Answers { claim } or { message } with a 4xx/5xx.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { backendProblem, signedInApis } from "~/services/apis.server";
import { claimIdInput } from "~/features/bridge/bridge.server";
import { awardToSend, CHOOSE_CURRENCY, currencyInput } from "~/features/invites/awards.server";
import { walletFromUserInfo } from "~/services/chain.server";

export async function action({ request }: ActionFunctionArgs) {
  const { user, invites } = await signedInApis(request);
  if (!walletFromUserInfo(user.WalletAddress)) return json({ message: "Bind a wallet to your account first." }, { status: 403 });
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "claim") {
      const currency = currencyInput(form);
      if (!currency) return json({ message: CHOOSE_CURRENCY }, { status: 400 });
      return json({ claim: await awardToSend(invites, currency) });
    }
    if (intent === "submit-award") {
      const txId = claimIdInput(form);
      if (!txId) return json({ message: "This award cannot be found. Reload the page." }, { status: 400 });
      return json({ claim: await invites.awardSign(txId) });
    }
    return json({ message: "Unknown action." }, { status: 400 });
  } catch (error) {
    const problem = backendProblem(error);
    return json({ message: problem.status < 500 ? problem.reason : problem.message }, { status: problem.status });
  }
}
