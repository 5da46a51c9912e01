/** The embedded backends' transport to the node: core's chain transport, with each failed request reported (BackendChain.onRpcError). */
import type { Transport } from "viem";
import { chainTransport, type ChainTransportOptions } from "~core/chain-transport";
import { reportingRpcErrors } from "~core/rpc-errors";
import type { BackendChain } from "./types";

/** `source` names the backend part in the metric: indexer, executor or store. */
export function backendTransport(
  chain: Pick<BackendChain, "rpcUrls" | "onRpcError">,
  source: string,
  options: ChainTransportOptions,
): Transport {
  const transport = chainTransport(chain.rpcUrls, options);
  const report = chain.onRpcError;
  return report ? reportingRpcErrors(transport, (method, kind) => report({ method, kind, source })) : transport;
}
