/**
 * POST /resources/lootbox-purchase (txHash): the browser-wallet island's report of a confirmed loot box purchase,
 * for the `purchase` analytics event. Only the hash is taken from the browser: the event is built from that
 * transaction's BoxesPurchased event on chain, and only when the buyer is the wallet bound to this session.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { emitBoxPurchaseOnce } from "~/services/lootbox-analytics.server";

export async function action({ request }: ActionFunctionArgs) {
  const { token, user } = await getAuth(request);
  const wallet = token ? walletFromUserInfo(user?.WalletAddress) : null;
  if (!wallet) return json({ recorded: false, message: "Log in with a bound wallet first." }, { status: 401 });
  const txHash = String((await request.formData()).get("txHash") ?? "");
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) {
    return json({ recorded: false, message: "txHash must be a transaction hash (0x and 64 hex digits)." }, { status: 400 });
  }
  try {
    return json({ recorded: await emitBoxPurchaseOnce(txHash as `0x${string}`, wallet) });
  } catch {
    return json({ recorded: false, message: "The chain is not answering right now." }, { status: 503 });
  }
}
