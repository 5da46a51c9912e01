/** What the start log says about a configuration (server.ts): dev defaults in use, risky settings, what a shared database needs. */
import type { DevDefault, Env } from "./env.server";

const DEV_DEFAULT_MEANING: Record<DevDefault, string> = {
  SESSION_SECRET: "session cookies are signed with a public dev secret",
  WALLET_ENCRYPTION_KEY: "managed wallets' keys are encrypted with a public dev key",
  CLAIM_SIGNER_KEY: "claims are signed with a public anvil dev key",
  SMTP_URL: "mail is not sent; register and reset codes land in the dev outbox",
  STRIPE_WEBHOOK_SECRET: "payment events are signed and checked with a public dev secret",
  STORE_MINTER_KEY: "card-paid boxes are forged by a public anvil dev key",
};

/** Whether HOST binds loopback only (127.0.0.0/8, ::1, localhost): nobody outside this machine reaches the port. */
function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Every warning the start log gives about this configuration, one block each. */
export function startWarnings(env: Env): string[] {
  const warnings = [devDefaultsWarning(env)];
  if (env.publicDeployment && env.seedDemo && env.embeddedBackends) {
    warnings.push(
      `WARNING: SEED_DEMO=on on a public deployment (${env.publicUrl}): an empty database gets the demo accounts, ` +
        "whose password the README publishes, managed wallets whose keys are in the repository, and fake market listings. " +
        "Fine for a demo, never for real users.",
    );
  }
  if (env.TRUST_PROXY === true) {
    warnings.push(
      "WARNING: TRUST_PROXY=true takes the leftmost X-Forwarded-For entry as the client's address, and any client can " +
        "write it: rate limits and sign-in budgets hold only if the proxy in front replaces the header rather than appending to it. " +
        "A hop count (1 for one proxy) or the proxies' addresses hold either way.",
    );
  }
  if (typeof env.TRUST_PROXY === "number" && !isLoopbackHost(env.HOST)) {
    warnings.push(
      `WARNING: TRUST_PROXY=${env.TRUST_PROXY} trusts whoever connects, and this server listens on ${env.HOST}: a client that ` +
        `reaches port ${env.PORT} directly, not through the proxy, writes its own X-Forwarded-For and gets a fresh rate-limit ` +
        "and sign-in budget each time. Make the port reachable only through the proxy (a firewall, or HOST on a private " +
        "or loopback address), or set TRUST_PROXY to the proxies' addresses (10.0.0.5, or 10.0.0.0/8).",
    );
  }
  warnings.push(...sharedDatabaseNotes(env));
  return warnings.filter((warning) => warning !== null);
}

/**
 * A shared database (DATABASE_URL) is how several processes serve one site (docs/deploy.md): what each must share
 * besides it, said at start when it is missing. One process alone needs none of it.
 */
function sharedDatabaseNotes(env: Env): string[] {
  if (!env.DATABASE_URL || !env.embeddedBackends) return [];
  const notes: string[] = [];
  if (!env.CHAIN_RPC_URL) {
    notes.push(
      "NOTE: DATABASE_URL without CHAIN_RPC_URL: this process runs its own local chain. Every other process on this database " +
        "must use that one chain (CHAIN_RPC_URL and DEPLOYMENT_FILE), as `npm run cluster` does; see docs/deploy.md.",
    );
  }
  if (!env.REDIS_URL) {
    notes.push(
      "NOTE: DATABASE_URL without REDIS_URL: rate limits and the analytics dedupe are kept per process. With more than one " +
        "process, set REDIS_URL so they are shared; see docs/deploy.md.",
    );
  }
  return notes;
}

/** The start log's one warning block about dev defaults, or null when none is in use. */
export function devDefaultsWarning(env: Env): string | null {
  if (env.devDefaultsInUse.length === 0) return null;
  const lines = env.devDefaultsInUse.map((name) => `  - ${name} unset: ${DEV_DEFAULT_MEANING[name]}`);
  if (env.exposeDevOutbox) {
    lines.push(
      `  /dev/outbox is open to anyone who can reach this server (listening on ${env.HOST}:${env.PORT}), so they can read any reset code and take the account.`,
    );
  }
  return [
    `WARNING: development defaults in use; fine on this machine, never for real users (PUBLIC_URL ${env.publicUrl} is local).`,
    ...lines,
    "  A non-local PUBLIC_URL turns these defaults off and makes the server require every one of them.",
  ].join("\n");
}
