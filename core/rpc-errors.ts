/**
 * Chain RPC errors as a metric counts them (issue 16): one wrapper for every viem transport of the app and of the
 * embedded backends, so each request that fails after its retries is reported once, by JSON-RPC method.
 */
import { BaseError, RpcError, RpcRequestError, type Transport } from "viem";

/** `rpc`: the node answered with an error; `transport`: no answer (unreachable, timeout, HTTP error). */
export type RpcFailureKind = "rpc" | "transport";

export function reportingRpcErrors(transport: Transport, report: (method: string, kind: RpcFailureKind) => void): Transport {
  return (params) => {
    const inner = transport(params);
    const request = (async (args, options) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        // viem has already turned an error answer into one of its RpcError kinds, with the raw answer as its cause.
        const answer = error instanceof BaseError ? error.walk((e) => e instanceof RpcError || e instanceof RpcRequestError) : null;
        // A revert (code 3) is the contract's answer to a call or an estimate, not a failing node.
        if ((answer as { code?: number } | null)?.code !== 3) report(args.method, answer ? "rpc" : "transport");
        throw error;
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
}

/**
 * An error in one line for a log: viem's short message, never its details, which name the node's URL (with any
 * provider key in its path) and the request's parameters.
 */
export function shortError(error: unknown): string {
  return (error as { shortMessage?: string })?.shortMessage ?? (error as Error)?.message ?? String(error);
}
