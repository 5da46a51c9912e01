import type { Router } from "express";
import type { ChainFinality } from "~core/chain-finality";
import type { AnalyticsSink } from "~core/analytics";
import type { GasTankPolicy } from "./sso/executor/gas-tank";
import type { SsoApiOptions } from "./market/shared/token-owners";
import type { DriftKind } from "./market/reconciler/check";
import type { ContractAddresses } from "~core/contracts";
import type { RpcFailureKind } from "~core/rpc-errors";
import type { EngineDb } from "./db";
import type { MarketTables } from "./market/shared/tables";
import type { SsoTables } from "./sso/shared/tables";

/** Every table of the embedded backends: each declares its own part, and backend/schema.ts migrates them. */
export type Database = SsoTables & MarketTables;

/** The embedded backends' database: the engine layer's handle (backend/db/), typed by their tables. */
export type BackendDb = EngineDb<Database>;

/** Where the backends write their own lines (the indexer, the executor, the store, mail): the server's JSON log. */
export type BackendLog = Pick<Console, "info" | "warn" | "error">;

export interface BackendOptions {
  /** Console by default (tests, scripts); the server passes its pino logger (server/logging.ts consoleOf). */
  log?: BackendLog;
  /** Hex-encoded 32-byte key that encrypts managed wallets' private keys at rest. */
  walletEncryptionKey: string;
  /** Private key that signs claims from the game to the chain. */
  claimSignerKey: `0x${string}`;
  /**
   * Where the market asks the SSO whose an auth token is (GET /sso/getUserInfo): this server over loopback, with
   * the internal token, when the SSO is the embedded one; SSO_API_URL, without it, when the SSO is external.
   */
  ssoApi: SsoApiOptions;
  /** Chain id the orders and claims are bound to (the market's order domain, which the SSO signs in too). */
  chainId: number;
  /**
   * The site's RFC 3986 authority (PUBLIC_URL's host[:port]): a Sign-In with Ethereum message for POST /sso/loginOther
   * must name it (decision 0019), so a signature a wallet gave another site never signs in here.
   */
  signInDomain: string;
  /** The site's own URL (PUBLIC_URL), for links in mail; `https://` + signInDomain when unset (siteUrlOf). */
  publicUrl?: string;
  /** When set, mail goes out through nodemailer; otherwise it lands in the dev outbox table. */
  smtpUrl?: string;
  /** Sender address of outgoing mail. */
  mailFrom?: string;
  /** How long an SSO token lives. */
  tokenTtlSeconds: number;
  /** Mount /dev/outbox (never in production). */
  exposeDevOutbox: boolean;
  /** How long the code endpoints' answers wait at least (account-routes.ts CODE_ANSWER_FLOOR_MS by default). */
  codeAnswerFloorMs?: number;
  /** Seed the demo world into an empty database (never on a public deployment unless SEED_DEMO=on). */
  seedDemo: boolean;
  /** The on-chain asset manager that honours claims; claims are bound to it. Unset: claims name the zero address. */
  assetManagerAddress?: `0x${string}`;
  /** ERC-20 address of FIRE, named in token claims. */
  fireTokenAddress?: `0x${string}`;
  /**
   * This process's random token on the app's own calls to the embedded backends (header x-spark-internal).
   * Only such calls may name the client they speak for (x-spark-client-ip); see client-address.ts.
   */
  internalToken?: string;
  /**
   * The chain the backends act on and read: the SSO executor sends managed wallets' transactions there, the
   * market indexer follows its events. Unset (some unit tests): no executor and no indexer.
   */
  chain?: BackendChain;
  /**
   * The market's chain reconciler (decision 0027), with `chain`: its period (RECONCILE_INTERVAL_MS; 0 off, 10 minutes
   * when unset) and where each run's differences are counted.
   */
  reconcile?: { intervalMs?: number; onDrift?: (differences: Record<DriftKind, number>) => void };
  /**
   * Where the executor delivers the analytics events of managed wallets' mined actions (decision 0009): the server
   * passes ANALYTICS_SINK, the app's own sink. Unset (tests, scripts): they are recorded and dropped.
   */
  analytics?: AnalyticsSink;
  /** Card payments (docs/api/sso.md "Store"). Unset (some unit tests): orders can be read, not taken. */
  payments?: BackendPayments;
  /**
   * The gas tank that pays managed wallets' network fees for a fee in tokens (decision 0038), with `chain`. Unset: a
   * wallet without the BNB for its gas is refused (decision 0005).
   */
  gasTank?: BackendGasTank;
}

export interface BackendGasTank {
  /** The operator's wallet that sends the gas (GAS_TANK_KEY). */
  key: `0x${string}`;
  /** Whole tokens a BNB (GAS_FEE_RATES), or a URL serving them as JSON (GAS_FEE_RATES_URL). */
  rates: { FIRE: string; QUARK: string; USDT: string } | { url: string };
  /** Where fees in tokens go (GAS_FEE_RECEIVER); the tank's address when unset. */
  feeReceiver?: `0x${string}`;
  /** The budgets and the quote's lifetime, when not backend/sso/executor/gas-tank.ts's defaults (tests). */
  policy?: Partial<GasTankPolicy>;
}

export interface BackendPayments {
  /** The provider's webhook signing secret (Stripe's whsec_...): events are checked against it. */
  webhookSecret: string;
  /**
   * No provider is configured: the store is its own test provider. It takes orders under its own session ids,
   * serves POST /store/testCheckout/pay, and sends the signed event to `webhookUrl` like the provider would.
   */
  testCheckout: boolean;
  /** The app's webhook, for the test checkout's events. */
  webhookUrl: string;
  /** The account that forges paid boxes to the buyer's wallet (MINTER_ROLE on BlindBox). */
  minterKey: `0x${string}`;
}

export interface BackendChain {
  /** The node's JSON-RPC URLs, the next tried when one fails. */
  rpcUrls: readonly string[];
  /** Widest block range per eth_getLogs call (CHAIN_LOG_RANGE). */
  logRange: number;
  chainId: number;
  contracts: ContractAddresses;
  /** First block holding our contracts. */
  deployedAtBlock: number;
  /** Blocks an event must be buried under before it is final (core/chain-finality.ts); 0 on the local chain. */
  confirmations: number;
  /** Whether a node's block tag bounds what is final too (CHAIN_FINALITY); absent: confirmations only. */
  finality?: ChainFinality;
  /** How often the indexer and the executor's receipt waits poll the node. */
  pollIntervalMs: number;
  /** Told of each request to the node that failed after its retries (the server counts them in its metrics). */
  onRpcError?: (failure: { method: string; kind: RpcFailureKind; source: string }) => void;
}

export interface BackendContext {
  store: BackendDb;
  options: BackendOptions;
}

export interface Service {
  router: Router;
}

/** The site's own URL: PUBLIC_URL, else `https://` + the sign-in domain. */
export function siteUrlOf(options: Pick<BackendOptions, "publicUrl" | "signInDomain">): string {
  return options.publicUrl ?? `https://${options.signInDomain}`;
}
