/**
 * POST /resources/lootbox-open (txHash): the browser-wallet island's report of a confirmed opening, for the boxes'
 * `select_content` analytics events. Only the hash is taken from the browser: the boxes are the opener's BoxOpened
 * events in that transaction on chain, and only those of the wallet bound to this session.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { emitBoxOpensOnce } from "~/services/lootbox-analytics.server";

export async function action({ request }: ActionFunctionArgs) {
  const { token, user } = await getAuth(request);
  const wallet = token ? walletFromUserInfo(user?.WalletAddress) : null;
  if (!wallet) return json({ recorded: 0, message: "Log in with a bound wallet first." }, { status: 401 });
  const txHash = String((await request.formData()).get("txHash") ?? "");
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) {
    return json({ recorded: 0, message: "txHash must be a transaction hash (0x and 64 hex digits)." }, { status: 400 });
  }
  try {
    return json({ recorded: await emitBoxOpensOnce(txHash as `0x${string}`, wallet) });
  } catch {
    return json({ recorded: 0, message: "The chain is not answering right now." }, { status: 503 });
  }
}
