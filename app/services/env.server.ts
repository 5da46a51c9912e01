/**
 * The app's configuration: every environment variable, validated once (parseEnv) with the development defaults a
 * local PUBLIC_URL allows, and the part the browser may see (getPublicEnv). Single values' shapes are in
 * env-values.server.ts.
 */
import { z } from "zod";
import { CHAIN_FINALITIES } from "~core/chain-finality";
import { DEFAULT_LOG_RANGE, parseRpcUrls } from "~core/chain-transport";
import { BACKEND_TIMEOUT_MS, DEFAULT_TOKEN_NAME, LOCAL_CHAIN_ID, RESERVED_COOKIE_NAMES } from "~core/constants";
import { DEV_CLAIM_SIGNER_KEY, DEV_GAS_FEE_RATES, DEV_GAS_TANK_KEY, DEV_PAYMENT_WEBHOOK_SECRET, DEV_STORE_MINTER_KEY } from "~core/demo";
import { analyticsSink, gasTankBudgets, type GasTankBudgets, hexKey, isLocalUrl, link, optionalUrl, trustProxy } from "./env-values.server";

/**
 * Development-only secrets, public in this repository: used only on a local PUBLIC_URL, and then named in the
 * start log. The claim signer's key is in core/demo.ts, as the local chain trusts it too.
 */
const DEV_SESSION_SECRET = "spark-era-dev-session-secret-change-me";
const DEV_WALLET_ENCRYPTION_KEY = "5a".repeat(32);

/**
 * The secrets a deployment must set, in log order. The embedded backends need them all; SMTP_URL because the
 * dev outbox, the only other place register and reset codes go, is never served on a public URL; the payment
 * webhook's secret and the store's minter key because with the public dev ones anyone could forge a payment or
 * mint boxes. The app checks the payment webhook itself, so it needs that secret against real backends too.
 */
function secretsNeeded(embeddedBackends: boolean) {
  return embeddedBackends
    ? (["SESSION_SECRET", "WALLET_ENCRYPTION_KEY", "CLAIM_SIGNER_KEY", "SMTP_URL", "STRIPE_WEBHOOK_SECRET", "STORE_MINTER_KEY"] as const)
    : (["SESSION_SECRET", "STRIPE_WEBHOOK_SECRET"] as const);
}
export type DevDefault = ReturnType<typeof secretsNeeded>[number];

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    /** The site's own origin, used for absolute links and to decide Secure cookies. */
    PUBLIC_URL: z.string().url().optional(),
    /** Comma-separated; the first signs, all verify, so secrets rotate without logging everyone out. */
    SESSION_SECRET: z.string().min(16).optional(),
    TOKEN_NAME: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .refine((name) => !(RESERVED_COOKIE_NAMES as readonly string[]).includes(name.toLowerCase()), "is a reserved cookie name")
      .default(DEFAULT_TOKEN_NAME),
    SSO_API_URL: optionalUrl,
    MARKET_API_URL: optionalUrl,
    BACKEND_TIMEOUT_MS: z.coerce.number().int().min(100).default(BACKEND_TIMEOUT_MS),
    /** Pages rendered at once; more wait briefly, or get a 503 (server/render-admission.ts). */
    RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
    DATABASE_PATH: z.string().default("data/spark.db"),
    /** Set: both embedded backends on this PostgreSQL database instead of the DATABASE_PATH file (decision 0011). */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// URL")
      .optional(),
    WALLET_ENCRYPTION_KEY: hexKey(32).optional(),
    CLAIM_SIGNER_KEY: hexKey(32).optional(),
    /** Set: card orders go through Stripe Checkout. Unset: the embedded store's test checkout stands in for it. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
      .optional(),
    /**
     * "on": a public deployment without STRIPE_SECRET_KEY runs the built-in test checkout anyway (a demo). Off by
     * default there: its test card pays for real boxes, forged by the real minter, for anyone.
     */
    STORE_TEST_CHECKOUT: z.enum(["on", "off"]).optional(),
    /** The webhook's signing secret (whsec_…): Stripe's, or the test checkout's. */
    STRIPE_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** The account that forges card-paid boxes (MINTER_ROLE on BlindBox), for the embedded store. */
    STORE_MINTER_KEY: hexKey(32).optional(),
    /**
     * The gas tank (decision 0038): the operator's wallet that sends managed wallets the BNB for their gas, for a fee in
     * tokens; "off" for none. Unset: anvil's dev account #6 on a local PUBLIC_URL, none on a public one.
     */
    GAS_TANK_KEY: z.union([hexKey(32), z.literal("off")]).optional(),
    /** The fee's rates, whole tokens a BNB: "FIRE=12000,QUARK=1200,USDT=600". Unset on a local PUBLIC_URL: those. */
    GAS_FEE_RATES: z
      .string()
      .regex(
        /^\s*FIRE=[\d.]+\s*,\s*QUARK=[\d.]+\s*,\s*USDT=[\d.]+\s*$/,
        'must read "FIRE=<rate>,QUARK=<rate>,USDT=<rate>" (whole tokens a BNB)',
      )
      .optional(),
    /** Or a URL answering those rates as JSON ({"FIRE": "12000", "QUARK": "1200", "USDT": "600"}), read once a minute. */
    GAS_FEE_RATES_URL: optionalUrl,
    /** The tank's budgets, "account=0.02,site=5,actions=20,low=1" (env-values.server.ts); unset ones keep their defaults. */
    GAS_TANK_BUDGETS: gasTankBudgets,
    /** Where the fees in tokens go; the tank's own address when unset. */
    GAS_FEE_RECEIVER: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address (0x and 40 hex digits)")
      .optional(),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().min(3).optional(),
    CHAIN_ID: z.coerce.number().int().positive().default(LOCAL_CHAIN_ID),
    /**
     * The chain's JSON-RPC URLs, comma-separated: the next is tried when one fails (core/chain-transport.ts). Unset: a
     * local anvil node is started and our contracts are deployed to it.
     */
    CHAIN_RPC_URL: z
      .string()
      .optional()
      .transform((text, ctx): string[] | undefined => {
        const urls = parseRpcUrls(text ?? "");
        for (const url of urls)
          if (!/^https?:\/\//.test(url) || !URL.canParse(url)) ctx.addIssue({ code: "custom", message: `"${url}" is no http(s) URL` });
        return urls.length ? urls : undefined;
      }),
    /** The node browsers' wallet islands read from, and CSP's connect-src allows; the first CHAIN_RPC_URL by default (keep a provider key out of it). */
    CHAIN_PUBLIC_RPC_URL: optionalUrl,
    /** Widest block range per eth_getLogs call; halved where a provider refuses it. */
    CHAIN_LOG_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_LOG_RANGE),
    CHAIN_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
    /** Contract addresses (the Deployment JSON of contracts/deployment.ts); required with CHAIN_RPC_URL. */
    DEPLOYMENT_FILE: z.string().optional(),
    /**
     * Origins besides PUBLIC_URL's that the item page may fetch a chain token's metadata from (its tokenURI), comma-
     * separated (https://meta.example,https://cdn.example). Anything else is refused: no request to an address a
     * contract names (decision 0016).
     */
    METADATA_ORIGINS: z
      .string()
      .optional()
      .transform((text, ctx): string[] => {
        const entries = (text ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
        const origins: string[] = [];
        for (const entry of entries) {
          const url = URL.canParse(entry) ? new URL(entry) : null;
          if (url && /^https?:$/.test(url.protocol) && url.origin === entry.replace(/\/$/, "")) origins.push(url.origin);
          else ctx.addIssue({ code: "custom", message: `must be a comma-separated list of http(s) origins; "${entry}" is not one` });
        }
        return origins;
      }),
    /** Blocks an event must be buried under before it is final: paid out, credited, delivered (BSC: 15; the local chain: 0). */
    CHAIN_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(0),
    /** `safe` or `finalized`: the node's block of that tag bounds what is final too (decision 0029). */
    CHAIN_FINALITY: z.enum(CHAIN_FINALITIES).default("confirmations"),
    /** How often the backends poll the node for new blocks and receipts. */
    CHAIN_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
    /** How often the market's chain reconciler compares its items, stacks and listings with the chain (decision 0027); 0: never. */
    RECONCILE_INTERVAL_MS: z.coerce
      .number()
      .int()
      .refine((ms) => ms === 0 || (ms >= 10_000 && ms <= 86_400_000), "must be 0 (off) or from 10000 to 86400000")
      .default(600_000),
    /** The access log (one JSON line per request); the other log lines follow LOG_LEVEL either way. */
    REQUEST_LOG: z.enum(["on", "off"]).default("on"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** /metrics on the public port with this bearer token; with METRICS_PORT, the token that port asks for. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** /metrics on a listener of its own (HOST:METRICS_PORT), never on the public port. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Error tracing with @sentry/remix on the server and in the browser; unset, no Sentry code loads anywhere. */
    SENTRY_DSN: z.string().url().optional(),
    /** Which peers may name the client in X-Forwarded-For (TrustProxy above). */
    TRUST_PROXY: trustProxy,
    /**
     * The demo world (accounts with the README's password, their managed wallets, market listings) on an empty
     * database. Unset: on for a local PUBLIC_URL, off for a public one, where "on" is a demo and the start log says so.
     */
    SEED_DEMO: z.enum(["on", "off"]).optional(),
    WEBSITE_URL: link("https://sparkera.example/"),
    REWARD_SYSTEM_URL: link("https://rewards.sparkera.example/"),
    EXCHANGE_URL: link("https://exchange.sparkera.example/"),
    WHITEPAPER_URL: link("https://docs.sparkera.example/whitepaper"),
    SOCIAL_X_URL: link("https://x.com/"),
    SOCIAL_BLOG_URL: link("https://medium.com/"),
    SOCIAL_DISCORD_URL: link("https://discord.com/"),
    SOCIAL_TELEGRAM_URL: link("https://t.me/"),
    STORE_ANDROID_URL: link("https://sparkera.example/download/android.apk"),
    STORE_IOS_URL: link("https://apps.apple.com/"),
    STORE_GOOGLE_PLAY_URL: link("https://play.google.com/store"),
    /**
     * Set: every rate-limit tier counts in this Redis, so the budget is shared by every process, and so is the
     * analytics once-per-transaction memory (decision 0012). Unset: both are kept in this process's memory.
     */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
      .refine((url) => URL.canParse(url), "must be a redis:// or rediss:// URL")
      .optional(),
    /**
     * The internal token every process of one site shares (app/services/internal-token.server.ts). Unset: a random
     * one per process, which never leaves it. A header value, so printable ASCII without spaces.
     */
    INTERNAL_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]*$/, "must be printable ASCII without spaces")
      .min(32, "must be 32 characters at least")
      .optional(),
    /** Scales every rate limit (server/rate-limit.ts); the e2e suite raises it, as it signs in many times from one address. */
    RATE_LIMIT_MULTIPLIER: z.coerce
      .number({ invalid_type_error: "must be a positive number" })
      .positive("must be a positive number")
      .finite("must be a positive number")
      .default(1),
    /** The market page cache (server/page-cache.ts): "report" adds X-Page-Cache: hit or miss (the bench reads it). */
    PAGE_CACHE: z.enum(["on", "off", "report"]).default("on"),
    ANALYTICS_SINK: analyticsSink,
    /** One folder holding a whole build, server and assets (remix.config.js reads it too); unset: build/ and public/build/. */
    REMIX_BUILD_DIR: z.string().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    // Against real backends the dev secrets would be a hole: insist on real ones.
    const external = Boolean(env.SSO_API_URL || env.MARKET_API_URL);
    if (external && env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required when SSO_API_URL or MARKET_API_URL is set" });
    }
    // A public deployment on public dev secrets (or an open outbox) can be taken over: refuse to start.
    if (env.PUBLIC_URL && !isLocalUrl(env.PUBLIC_URL)) {
      for (const name of secretsNeeded(!env.SSO_API_URL || !env.MARKET_API_URL)) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when PUBLIC_URL is not a local address" });
      }
    }
    const embedded = !env.SSO_API_URL || !env.MARKET_API_URL;
    if (env.PUBLIC_URL && !isLocalUrl(env.PUBLIC_URL) && embedded && !env.STRIPE_SECRET_KEY && env.STORE_TEST_CHECKOUT !== "on") {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message:
          "is required when PUBLIC_URL is not a local address: without it the test checkout's card 4242 pays for real boxes " +
          "(set STORE_TEST_CHECKOUT=on only for a demo)",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required when STRIPE_SECRET_KEY is set" });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: "custom",
        path: ["METRICS_PORT"],
        message: "must differ from PORT: metrics are never served on the public port",
      });
    }
    const tankKey = env.GAS_TANK_KEY && env.GAS_TANK_KEY !== "off";
    if (tankKey && !isLocalUrl(env.PUBLIC_URL ?? "http://localhost") && !env.GAS_FEE_RATES && !env.GAS_FEE_RATES_URL) {
      ctx.addIssue({ code: "custom", path: ["GAS_FEE_RATES"], message: "or GAS_FEE_RATES_URL is required when GAS_TANK_KEY is set" });
    }
    if (env.CHAIN_RPC_URL && !env.DEPLOYMENT_FILE) {
      ctx.addIssue({ code: "custom", path: ["DEPLOYMENT_FILE"], message: "is required when CHAIN_RPC_URL is set" });
    }
  });

/** Every variable the schema reads: the README's table and .env.example list the same (tests/unit/config-agreement.test.ts). */
export const ENV_VARIABLES = Object.keys(schema.innerType().shape);

export type Env = z.infer<typeof schema> & {
  sessionSecrets: string[];
  walletEncryptionKey: string;
  claimSignerKey: `0x${string}`;
  paymentWebhookSecret: string;
  storeMinterKey: `0x${string}`;
  /** The gas tank for the embedded SSO (decision 0038), or null for none. */
  gasTank: GasTankEnv | null;
  publicUrl: string;
  embeddedBackends: boolean;
  /** PUBLIC_URL names a host other than this machine: every secret is set and no dev default applies. */
  publicDeployment: boolean;
  /** Variables left unset whose dev default is in use (only ever on a local URL). */
  devDefaultsInUse: DevDefault[];
  /** Mail is not really sent, so the embedded SSO backend serves it at /dev/outbox (local URL only). */
  exposeDevOutbox: boolean;
  /** An empty database gets the demo world (SEED_DEMO). */
  seedDemo: boolean;
};

/** The embedded SSO's gas tank (backend/types.ts BackendGasTank). */
export interface GasTankEnv {
  key: `0x${string}`;
  rates: Record<"FIRE" | "QUARK" | "USDT", string> | { url: string };
  feeReceiver?: `0x${string}`;
  policy?: GasTankBudgets;
}

/** "FIRE=12000,QUARK=1200,USDT=600" (the schema checked its shape) as rates. */
const ratesOf = (text: string) =>
  Object.fromEntries(text.split(",").map((pair) => pair.split("=").map((part) => part.trim()))) as GasTankEnv["rates"];

/** The gas tank as configured; the dev one by default on a local URL, none by default on a public one. */
function gasTankOf(env: z.infer<typeof schema>, publicDeployment: boolean): GasTankEnv | null {
  if (env.GAS_TANK_KEY === "off" || (!env.GAS_TANK_KEY && publicDeployment)) return null;
  const key = (env.GAS_TANK_KEY ? `0x${env.GAS_TANK_KEY.replace(/^0x/, "")}` : DEV_GAS_TANK_KEY) as `0x${string}`;
  const rates = env.GAS_FEE_RATES_URL ? { url: env.GAS_FEE_RATES_URL } : env.GAS_FEE_RATES ? ratesOf(env.GAS_FEE_RATES) : DEV_GAS_FEE_RATES;
  return { key, rates, feeReceiver: env.GAS_FEE_RECEIVER as `0x${string}` | undefined, policy: env.GAS_TANK_BUDGETS };
}

/** Validates the environment once; on failure, lists every bad variable and throws. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new Error(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const embeddedBackends = !env.SSO_API_URL || !env.MARKET_API_URL;
  const publicDeployment = !isLocalUrl(publicUrl);
  return {
    ...env,
    sessionSecrets: (env.SESSION_SECRET ?? DEV_SESSION_SECRET)
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    walletEncryptionKey: (env.WALLET_ENCRYPTION_KEY ?? DEV_WALLET_ENCRYPTION_KEY).replace(/^0x/, ""),
    claimSignerKey: (env.CLAIM_SIGNER_KEY ? `0x${env.CLAIM_SIGNER_KEY.replace(/^0x/, "")}` : DEV_CLAIM_SIGNER_KEY) as `0x${string}`,
    paymentWebhookSecret: env.STRIPE_WEBHOOK_SECRET ?? DEV_PAYMENT_WEBHOOK_SECRET,
    storeMinterKey: (env.STORE_MINTER_KEY ? `0x${env.STORE_MINTER_KEY.replace(/^0x/, "")}` : DEV_STORE_MINTER_KEY) as `0x${string}`,
    gasTank: gasTankOf(env, publicDeployment),
    publicUrl,
    embeddedBackends,
    publicDeployment,
    devDefaultsInUse: secretsNeeded(embeddedBackends).filter((name) => !env[name]),
    exposeDevOutbox: embeddedBackends && !publicDeployment && !env.SMTP_URL,
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === "on" : !publicDeployment,
  };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

const MANAGED_WALLET_NOTE =
  "The game signs for this wallet, so it needs no extension. Its on-chain actions (loot boxes, staking, moves to the chain) pay gas in BNB: to top it up, send BNB on BNB Smart Chain to the address above.";
const MANAGED_WALLET_NOTE_SPONSORED =
  "The game signs for this wallet, so it needs no extension. Its on-chain actions (loot boxes, staking, moves to the chain) pay gas in BNB when it holds some; otherwise the site pays it, for a small fee in FIRE, QUARK or USDT shown before anything is sent.";

const GAS_SPONSORED_NOTICE =
  "Your wallet holds no BNB for network fees: the site pays them, for a small fee in FIRE, QUARK or USDT you review first.";

/** The subset of configuration the browser may see. Never put a secret here. */
export function getPublicEnv() {
  const env = getEnv();
  return {
    chainId: env.CHAIN_ID,
    tokenName: env.TOKEN_NAME,
    links: {
      website: env.WEBSITE_URL,
      rewardSystem: env.REWARD_SYSTEM_URL,
      exchange: env.EXCHANGE_URL,
      whitepaper: env.WHITEPAPER_URL,
    },
    social: {
      x: env.SOCIAL_X_URL,
      blog: env.SOCIAL_BLOG_URL,
      discord: env.SOCIAL_DISCORD_URL,
      telegram: env.SOCIAL_TELEGRAM_URL,
    },
    stores: {
      android: env.STORE_ANDROID_URL,
      ios: env.STORE_IOS_URL,
      googlePlay: env.STORE_GOOGLE_PLAY_URL,
    },
    // With the embedded SSO's gas tank (decision 0038), what a managed wallet without BNB is told: it may act for a fee
    // in tokens. Sent as data, so no page's JavaScript carries it.
    ...(env.gasTank ? { gasNotice: GAS_SPONSORED_NOTICE } : {}),
    // The header's managed wallet sheet: who pays its gas. Data, not JavaScript: every page's script stays smaller.
    managedWalletNote: env.gasTank ? MANAGED_WALLET_NOTE_SPONSORED : MANAGED_WALLET_NOTE,
    // Only when set: the root loads Sentry in the browser only for a DSN (a DSN is public by design).
    ...(env.SENTRY_DSN ? { sentryDsn: env.SENTRY_DSN } : {}),
  };
}

export type PublicEnv = ReturnType<typeof getPublicEnv>;
