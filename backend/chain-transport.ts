/** The embedded backends' transport to the node: viem's http, with each failed request reported (BackendChain.onRpcError). */
import { http, type HttpTransportConfig, type Transport } from "viem";
import { reportingRpcErrors } from "~core/rpc-errors";
import type { BackendChain } from "./types";

/** `source` names the backend part in the metric: indexer, executor or store. */
export function backendTransport(chain: BackendChain, source: string, config: HttpTransportConfig): Transport {
  const transport = http(chain.rpcUrl, config);
  const report = chain.onRpcError;
  return report ? reportingRpcErrors(transport, (method, kind) => report({ method, kind, source })) : transport;
}
