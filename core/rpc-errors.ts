/**
 * Chain RPC errors as a metric counts them (issue 16): one wrapper for every viem transport of the app and of the
 * embedded backends, so each request that fails after its retries is reported once, by JSON-RPC method.
 */
import { RpcRequestError, type Transport } from "viem";

/** `rpc`: the node answered with an error; `transport`: no answer (unreachable, timeout, HTTP error). */
export type RpcFailureKind = "rpc" | "transport";

export function reportingRpcErrors(transport: Transport, report: (method: string, kind: RpcFailureKind) => void): Transport {
  return (params) => {
    const inner = transport(params);
    const request = (async (args, options) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        report(args.method, error instanceof RpcRequestError ? "rpc" : "transport");
        throw error;
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
}
