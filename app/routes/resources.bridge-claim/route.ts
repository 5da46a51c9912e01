/**
 * POST /resources/bridge-claim: the browser-wallet bridge island asks for a claim here (issue 14). The market
 * backend debits the game balance (or takes the item out of the market) and signs the claim for the session's
 * bound wallet; the island then submits it from the wallet. A pending claim is asked for again by its txId
 * (submit-claim), when the wallet turned it down the first time. Answers { claim } or { message } with a 4xx/5xx.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { BRIDGE_CURRENCIES } from "~/services/bridge-api.server";
import { STACK_AMOUNT_MESSAGE } from "~/features/bridge/bridge.server";
import { claimAgain, claimRequest } from "~/features/bridge/claim-request.server";
import { parseTokenAmount, parseUint256 } from "~core/money";
import { NFT_TYPE } from "~core/nft";

export function action({ request }: ActionFunctionArgs) {
  // The market's refusal of a stack's amount ("amount: …") is the amount field's.
  return claimRequest(
    request,
    async ({ bridge }, intent, form) => {
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
      if (intent === "submit-claim")
        return claimAgain(form, "This claim cannot be found. Reload the page.", (txId) => bridge.claimSign(txId));
    },
    "amount",
  );
}
