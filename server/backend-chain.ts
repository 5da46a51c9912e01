/** The backends' view of the chain, from the environment: built once here for the server and for `npm run reconcile`. */
import type { BackendChain } from "../backend/types";
import type { Deployment } from "../contracts/deployment";
import type { Env } from "../app/services/env.server";

export function backendChainFromEnv(env: Env, rpcUrls: readonly string[], deployment: Deployment): BackendChain {
  return {
    rpcUrls,
    logRange: env.CHAIN_LOG_RANGE,
    chainId: env.CHAIN_ID,
    contracts: deployment.contracts,
    deployedAtBlock: deployment.deployedAtBlock,
    confirmations: env.CHAIN_CONFIRMATIONS,
    finality: env.CHAIN_FINALITY,
    pollIntervalMs: env.CHAIN_POLL_MS,
  };
}
