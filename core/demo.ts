/**
 * The seeded demo identities and the local chain's dev keys, shared by the SSO seed, the market seed, the chain
 * seed, the app's dev defaults and the tests.
 * Keys are anvil's well-known development keys: public, and never valid on a real chain with funds.
 */
export const DEMO_PASSWORD = "Demo-pass-1";

/** Account with a bound browser wallet (anvil dev account #0, which the injected test wallet drives). */
export const DEMO_BROWSER_ACCOUNT = {
  email: "demo@sparkera.test",
  userName: "demo@sparkera.test",
  wallet: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
} as const;

/** Account with a managed wallet (BindAddrType 2); its key is held encrypted by the SSO backend. */
export const DEMO_MANAGED_ACCOUNT = {
  email: "managed@sparkera.test",
  userName: "managed@sparkera.test",
  wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
} as const;

/** A second managed-wallet account, so one managed user can buy from another. */
export const DEMO_BUYER_ACCOUNT = {
  email: "buyer@sparkera.test",
  userName: "buyer@sparkera.test",
  wallet: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
} as const;

/**
 * Signs claims to the chain (anvil dev account #9), which the local chain's asset manager trusts: the embedded
 * backends' default on a local PUBLIC_URL only (app/services/env.server.ts).
 */
export const DEV_CLAIM_SIGNER_KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
/** Deploys and administers the local contracts (anvil dev account #8). */
export const DEV_DEPLOYER_KEY = "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97";
/**
 * Forges card-paid loot boxes to their buyers (anvil dev account #7), with the MINTER_ROLE the local deployment
 * grants it: the store's default on a local PUBLIC_URL only.
 */
export const DEV_STORE_MINTER_KEY = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";
/**
 * The gas tank that pays managed wallets' network fees (anvil dev account #6, decision 0038): the SSO's default on a
 * local PUBLIC_URL only, with DEV_GAS_FEE_RATES.
 */
export const DEV_GAS_TANK_KEY = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";
/** Local fee rates, whole tokens a BNB: BNB at 600 USD, FIRE at 0.05, QUARK at 0.5, USDT at 1. */
export const DEV_GAS_FEE_RATES = { FIRE: "12000", QUARK: "1200", USDT: "600" } as const;
/** Signs the embedded test checkout's payment events, and the app checks them with it: local PUBLIC_URL only. */
export const DEV_PAYMENT_WEBHOOK_SECRET = "whsec_spark_era_local_development_only";
