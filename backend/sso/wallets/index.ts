/**
 * Wallets (docs/api/sso.md "Wallets", "Signed market orders"): bound and managed wallets, Sign-In with Ethereum,
 * and the market orders the SSO signs as custodian. Its routes (wallet-routes.ts, order-routes.ts) are mounted by
 * service.ts only.
 */
export { createWallets, type Wallets } from "./wallets";
export { createOrderSigner, type OrderSigner } from "./order-signing";
