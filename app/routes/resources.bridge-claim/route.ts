/**
 * POST /resources/bridge-claim: the browser-wallet bridge island asks for a claim here (issue 14). The market
 * backend debits the game balance (or takes the item out of the market) and signs the claim for the session's
 * bound wallet; the island then submits it from the wallet. A pending claim is asked for again by its txId
 * (submit-claim), when the wallet turned it down the first time. Answers { claim } or { message } with a 4xx/5xx.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { backendProblem, signedInApis } from "~/services/apis.server";
import { BRIDGE_CURRENCIES } from "~/services/bridge-api.server";
import { claimIdInput, STACK_AMOUNT_MESSAGE } from "~/features/bridge/bridge.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { parseTokenAmount, parseUint256 } from "~core/money";
import { NFT_TYPE } from "~core/nft";

export async function action({ request }: ActionFunctionArgs) {
  const { user, bridge } = await signedInApis(request);
  if (!walletFromUserInfo(user.WalletAddress)) return json({ message: "Bind a wallet to your account first." }, { status: 403 });
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "claim-token") {
      const currency = BRIDGE_CURRENCIES.find((name) => name === form.get("currency"));
      const amount = parseTokenAmount(String(form.get("amount") ?? "").trim());
      if (!currency) return json({ message: "Choose FIRE or QUARK." }, { status: 400 });
      if (!amount) return json({ message: "Enter an amount as a number above zero, like 50 or 12.5." }, { status: 400 });
      return json({ claim: await bridge.takeOutToken(amount, currency) });
    }
    if (intent === "claim-item") {
      const nftType = Number(form.get("nftType"));
      const tokenId = String(form.get("tokenId") ?? "");
      if (!Number.isInteger(nftType) || nftType < 0 || nftType > NFT_TYPE.material || !/^[1-9]\d{0,76}$/.test(tokenId)) {
        return json({ message: "This item cannot be found. Reload the page." }, { status: 400 });
      }
      // A stack's amount (default all of it); the market checks it against the stack and says so in words.
      const typed = String(form.get("amount") ?? "").trim();
      const amount = typed ? parseUint256(typed) : undefined;
      if (typed && amount === undefined) return json({ message: STACK_AMOUNT_MESSAGE, field: "amount" }, { status: 400 });
      return json({ claim: await bridge.takeOutItem({ nftType, tokenId }, undefined, amount) });
    }
    if (intent === "submit-claim") {
      const txId = claimIdInput(form);
      if (!txId) return json({ message: "This claim cannot be found. Reload the page." }, { status: 400 });
      return json({ claim: await bridge.claimSign(txId) });
    }
    return json({ message: "Unknown action." }, { status: 400 });
  } catch (error) {
    const problem = backendProblem(error);
    const message = problem.status < 500 ? problem.reason : problem.message;
    // The market's refusal of a stack's amount ("amount: …") is the amount field's.
    if (problem.status === 400 && message.startsWith("amount: "))
      return json({ message: message.slice("amount: ".length), field: "amount" }, { status: 400 });
    return json({ message }, { status: problem.status });
  }
}
