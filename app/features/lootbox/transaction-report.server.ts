/**
 * A wallet island's report of a confirmed transaction (routes/resources.lootbox-*.ts): only a transaction hash from a
 * session with a browser wallet is taken, and `emitOnce` reads the rest from the chain, for that wallet only.
 */
import { json } from "@remix-run/node";
import type { Hash } from "viem";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";

export async function reportTransaction<T>(request: Request, emitOnce: (hash: Hash, wallet: string) => Promise<T>, nothing: T) {
  const { token, user } = await getAuth(request);
  const wallet = token ? walletFromUserInfo(user?.WalletAddress) : null;
  if (!wallet) return json({ recorded: nothing, message: "Log in with a bound wallet first." }, { status: 401 });
  // The executor reports a managed wallet's transactions itself (decision 0009): a second report would count twice.
  if (user?.BindAddrType === BIND_ADDR_TYPE.managed) {
    return json({ recorded: nothing, message: "A managed wallet's transactions are reported by the wallet service." }, { status: 409 });
  }
  const txHash = String((await request.formData()).get("txHash") ?? "");
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) {
    return json({ recorded: nothing, message: "txHash must be a transaction hash (0x and 64 hex digits)." }, { status: 400 });
  }
  try {
    return json({ recorded: await emitOnce(txHash as Hash, wallet) });
  } catch {
    return json({ recorded: nothing, message: "The chain is not answering right now." }, { status: 503 });
  }
}
