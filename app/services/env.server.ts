import { z } from "zod";
import { BACKEND_TIMEOUT_MS, DEFAULT_TOKEN_NAME, LOCAL_CHAIN_ID, RESERVED_COOKIE_NAMES } from "~/domain/constants";

const hexKey = (bytes: number) => z.string().regex(new RegExp(`^(0x)?[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes} bytes of hex`);
const optionalUrl = z.string().url().optional();
const link = (fallback: string) => z.string().url().default(fallback);

/** Development-only secrets, used when the app runs on its embedded backends. Real deployments set their own. */
const DEV_SESSION_SECRET = "spark-era-dev-session-secret-change-me";
const DEV_WALLET_ENCRYPTION_KEY = "5a".repeat(32);

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
    DATABASE_PATH: z.string().default("data/spark.db"),
    WALLET_ENCRYPTION_KEY: hexKey(32).optional(),
    CLAIM_SIGNER_KEY: hexKey(32).optional(),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().min(3).optional(),
    CHAIN_ID: z.coerce.number().int().positive().default(LOCAL_CHAIN_ID),
    /** Unset: a local anvil node is started and our contracts are deployed to it. */
    CHAIN_RPC_URL: optionalUrl,
    CHAIN_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
    /** Contract addresses (the Deployment JSON of contracts/deployment.ts); required with CHAIN_RPC_URL. */
    DEPLOYMENT_FILE: z.string().optional(),
    REQUEST_LOG: z.enum(["on", "off"]).default("on"),
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
  })
  .superRefine((env, ctx) => {
    // Against real backends the dev secrets would be a hole: insist on real ones.
    const external = Boolean(env.SSO_API_URL || env.MARKET_API_URL);
    if (external && env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required when SSO_API_URL or MARKET_API_URL is set" });
    }
    if (env.CHAIN_RPC_URL && !env.DEPLOYMENT_FILE) {
      ctx.addIssue({ code: "custom", path: ["DEPLOYMENT_FILE"], message: "is required when CHAIN_RPC_URL is set" });
    }
  });

export type Env = z.infer<typeof schema> & {
  sessionSecrets: string[];
  walletEncryptionKey: string;
  publicUrl: string;
  embeddedBackends: boolean;
};

/** Validates the environment once; on failure, lists every bad variable and throws. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new Error(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return {
    ...env,
    sessionSecrets: (env.SESSION_SECRET ?? DEV_SESSION_SECRET).split(",").map((s) => s.trim()).filter(Boolean),
    walletEncryptionKey: (env.WALLET_ENCRYPTION_KEY ?? DEV_WALLET_ENCRYPTION_KEY).replace(/^0x/, ""),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    embeddedBackends: !env.SSO_API_URL || !env.MARKET_API_URL,
  };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

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
  };
}

export type PublicEnv = ReturnType<typeof getPublicEnv>;
