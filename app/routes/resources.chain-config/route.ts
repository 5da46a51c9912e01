import { json } from "@remix-run/node";
import { publicChainConfig } from "~/services/chain.server";

/** The chain id, node URL and contract addresses for the wallet islands of pages whose loader does not send them. */
export function loader() {
  return json(publicChainConfig(), { headers: { "Cache-Control": "public, max-age=300" } });
}
