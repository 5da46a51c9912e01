/**
 * The executor of managed wallets' on-chain actions (docs/api/sso.md "On-chain actions"). What other SSO features
 * use goes through this file; its routes (routes.ts) are mounted by service.ts only.
 */
export { createExecutor, type Executor } from "./executor";
export { DEFAULT_EXECUTOR_POLICY } from "./policy";
export { idempotencyKey } from "./schemas";
