import { describe, expect, it } from "vitest";
import { DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { parseEnv } from "~/services/env.server";
import { devDefaultsWarning, startWarnings } from "~/services/env-warnings.server";

const SECRETS = {
  SESSION_SECRET: "real-session-secret-0123456789",
  WALLET_ENCRYPTION_KEY: "ab".repeat(32),
  CLAIM_SIGNER_KEY: `0x${"cd".repeat(32)}`,
  SMTP_URL: "smtp://mail.sparkera.example:587",
  STRIPE_WEBHOOK_SECRET: "whsec_real_0123456789abcdef",
  STORE_MINTER_KEY: `0x${"ef".repeat(32)}`,
  STRIPE_SECRET_KEY: "sk_live_0123456789abcdef",
};
const EMBEDDED_SECRETS = [
  "SESSION_SECRET",
  "WALLET_ENCRYPTION_KEY",
  "CLAIM_SIGNER_KEY",
  "SMTP_URL",
  "STRIPE_WEBHOOK_SECRET",
  "STORE_MINTER_KEY",
];

describe("parseEnv", () => {
  it("runs out of the box on the embedded defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.embeddedBackends).toBe(true);
    expect(env.TOKEN_NAME).toBe("sessionId");
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.sessionSecrets).toHaveLength(1);
  });

  it("reads METADATA_ORIGINS as a list of http(s) origins, and refuses anything else (decision 0016)", () => {
    expect(parseEnv({}).METADATA_ORIGINS).toEqual([]);
    expect(parseEnv({ METADATA_ORIGINS: "https://meta.sparkera.example, http://127.0.0.1:9000/" }).METADATA_ORIGINS).toEqual([
      "https://meta.sparkera.example",
      "http://127.0.0.1:9000",
    ]);
    for (const bad of ["https://meta.sparkera.example/nft/", "ftp://x.example", "meta.sparkera.example", "https://u:p@x.example"]) {
      expect(() => parseEnv({ METADATA_ORIGINS: bad }), bad).toThrow(/METADATA_ORIGINS/);
    }
  });

  it("takes the gas tank's budgets in BNB and a count, keeping the defaults of those not set (decision 0038)", () => {
    expect(parseEnv({}).gasTank?.policy).toBeUndefined();
    expect(parseEnv({ GAS_TANK_BUDGETS: "account=0.05, site=12.5,actions=40,low=0.000000000000000001" }).gasTank?.policy).toEqual({
      accountDayWei: 5n * 10n ** 16n,
      siteDayWei: 125n * 10n ** 17n,
      actionDayCount: 40,
      lowBalanceWei: 1n,
    });
    expect(parseEnv({ GAS_TANK_BUDGETS: "site=50" }).gasTank?.policy).toEqual({ siteDayWei: 50n * 10n ** 18n });
    for (const bad of ["site=5 BNB", "actions=2.5", "site=-1", "budget=5", "site=5=6", "site=1.0000000000000000001"]) {
      expect(() => parseEnv({ GAS_TANK_BUDGETS: bad }), bad).toThrow(
        /GAS_TANK_BUDGETS: must read like "account=0\.02,site=5,actions=20,low=1"/,
      );
    }
  });

  it("lists every bad variable in one error", () => {
    expect(() => parseEnv({ PORT: "abc", SSO_API_URL: "not a url", WALLET_ENCRYPTION_KEY: "xyz" })).toThrowError(
      /PORT[\s\S]*SSO_API_URL[\s\S]*WALLET_ENCRYPTION_KEY/,
    );
  });

  it("renders 4 pages at once unless told otherwise, and at least one", () => {
    expect(parseEnv({}).RENDER_CONCURRENCY).toBe(4);
    expect(parseEnv({ RENDER_CONCURRENCY: "8" }).RENDER_CONCURRENCY).toBe(8);
    expect(() => parseEnv({ RENDER_CONCURRENCY: "0" })).toThrowError(/RENDER_CONCURRENCY/);
  });

  it("scales the rate limits by a positive number only (issue 25)", () => {
    expect(parseEnv({}).RATE_LIMIT_MULTIPLIER).toBe(1);
    expect(parseEnv({ RATE_LIMIT_MULTIPLIER: "2.5" }).RATE_LIMIT_MULTIPLIER).toBe(2.5);
    for (const bad of ["0", "-1", "abc", "Infinity"]) {
      expect(() => parseEnv({ RATE_LIMIT_MULTIPLIER: bad })).toThrowError(/RATE_LIMIT_MULTIPLIER: must be a positive number/);
    }
  });

  it("caches market pages unless PAGE_CACHE says off or report (issue 25)", () => {
    expect(parseEnv({}).PAGE_CACHE).toBe("on");
    expect(parseEnv({ PAGE_CACHE: "report" }).PAGE_CACHE).toBe("report");
    expect(() => parseEnv({ PAGE_CACHE: "yes" })).toThrowError(/PAGE_CACHE: .*'on' \| 'off' \| 'report'/);
  });

  it("refuses a reserved cookie name for the token (product §5)", () => {
    expect(() => parseEnv({ TOKEN_NAME: "Max-Age" })).toThrowError(/TOKEN_NAME: is a reserved cookie name/);
  });

  it("needs the webhook secret with a Stripe key", () => {
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc123" })).toThrowError(
      /STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set/,
    );
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_test_abc123" })).toThrowError(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(
      parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: SECRETS.STRIPE_WEBHOOK_SECRET }).paymentWebhookSecret,
    ).toBe(SECRETS.STRIPE_WEBHOOK_SECRET);
  });

  it("insists on a real session secret against real backends in production", () => {
    const real = { NODE_ENV: "production", SSO_API_URL: "https://sso.example", MARKET_API_URL: "https://market.example" };
    expect(() => parseEnv(real)).toThrowError(/SESSION_SECRET/);
    const env = parseEnv({ ...real, SESSION_SECRET: "new-secret-0123456789,old-secret-0123456789" });
    expect(env.sessionSecrets).toEqual(["new-secret-0123456789", "old-secret-0123456789"]);
    expect(env.embeddedBackends).toBe(false);
  });
});

describe("public deployment (issue 10, item 1)", () => {
  it("refuses to start on a public URL and lists every missing secret", () => {
    let message = "";
    try {
      parseEnv({ PUBLIC_URL: "https://market.sparkera.example" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of EMBEDDED_SECRETS) {
      expect(message).toMatch(new RegExp(`- ${name}: is required when PUBLIC_URL is not a local address`));
    }
  });

  it("lists only what is still missing, and against real backends only the session and webhook secrets", () => {
    expect(() => parseEnv({ PUBLIC_URL: "https://market.sparkera.example", ...SECRETS, SMTP_URL: undefined })).toThrowError(
      /^Invalid environment variables:\n {2}- SMTP_URL: [^\n]*$/,
    );
    const external = { PUBLIC_URL: "http://10.0.0.5:3000", SSO_API_URL: "https://sso.example", MARKET_API_URL: "https://market.example" };
    expect(() => parseEnv(external)).toThrowError(
      /^Invalid environment variables:\n {2}- SESSION_SECRET: [^\n]*\n {2}- STRIPE_WEBHOOK_SECRET: [^\n]*$/,
    );
    expect(
      parseEnv({ ...external, SESSION_SECRET: SECRETS.SESSION_SECRET, STRIPE_WEBHOOK_SECRET: SECRETS.STRIPE_WEBHOOK_SECRET }),
    ).toMatchObject({
      publicDeployment: true,
      devDefaultsInUse: [],
    });
  });

  it("treats every host but localhost, 127.0.0.1 and ::1 as public, whatever NODE_ENV says", () => {
    for (const url of [
      "https://sparkera.example",
      "http://192.168.1.20:3000",
      "http://0.0.0.0:3000",
      "http://localhost.evil.example",
      "http://127.0.0.2:3000",
      "http://[::2]:3000",
    ]) {
      expect(() => parseEnv({ NODE_ENV: "development", PUBLIC_URL: url }), url).toThrowError(/SESSION_SECRET/);
    }
  });

  it("refuses a public deployment whose card checkout would be the test one, unless a demo says so", () => {
    const { STRIPE_SECRET_KEY: _, ...withoutStripe } = SECRETS;
    expect(() => parseEnv({ PUBLIC_URL: "https://market.sparkera.example", ...withoutStripe })).toThrowError(
      /- STRIPE_SECRET_KEY: is required when PUBLIC_URL is not a local address: without it the test checkout's card 4242 pays for real boxes/,
    );
    expect(parseEnv({ PUBLIC_URL: "https://market.sparkera.example", ...withoutStripe, STORE_TEST_CHECKOUT: "on" }).publicDeployment).toBe(
      true,
    );
    // Locally the test checkout is the default.
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("starts with every secret set, and then never exposes the dev outbox", () => {
    const env = parseEnv({ PUBLIC_URL: "https://market.sparkera.example", ...SECRETS });
    expect(env).toMatchObject({
      publicDeployment: true,
      devDefaultsInUse: [],
      exposeDevOutbox: false,
      claimSignerKey: SECRETS.CLAIM_SIGNER_KEY,
    });
    expect(env.sessionSecrets).toEqual([SECRETS.SESSION_SECRET]);
    expect(devDefaultsWarning(env)).toBeNull();
  });

  it.each(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000", "https://LOCALHOST"])(
    "keeps the dev defaults on the local URL %s and names each one in use",
    (url) => {
      const env = parseEnv({ PUBLIC_URL: url });
      expect(env.publicDeployment).toBe(false);
      expect(env.devDefaultsInUse).toEqual(EMBEDDED_SECRETS);
      expect(env.exposeDevOutbox).toBe(true);
      expect(env.claimSignerKey).toBe(DEV_CLAIM_SIGNER_KEY);
    },
  );

  it("prints one warning block naming each dev default in use and the open outbox", () => {
    const warning = devDefaultsWarning(parseEnv({ WALLET_ENCRYPTION_KEY: SECRETS.WALLET_ENCRYPTION_KEY }))!;
    expect(warning).toMatch(/SESSION_SECRET/);
    expect(warning).toMatch(/CLAIM_SIGNER_KEY/);
    expect(warning).not.toMatch(/WALLET_ENCRYPTION_KEY/);
    expect(warning).toMatch(/\/dev\/outbox[^\n]*anyone who can reach this server/);
  });

  it("mounts the outbox only on a local URL, with the embedded backends and without SMTP", () => {
    expect(parseEnv({ SMTP_URL: SECRETS.SMTP_URL })).toMatchObject({
      exposeDevOutbox: false,
      devDefaultsInUse: EMBEDDED_SECRETS.filter((name) => name !== "SMTP_URL"),
    });
    const external = parseEnv({ SSO_API_URL: "https://sso.example", MARKET_API_URL: "https://market.example" });
    expect(external).toMatchObject({ exposeDevOutbox: false, devDefaultsInUse: ["SESSION_SECRET", "STRIPE_WEBHOOK_SECRET"] });
  });
});

describe("TRUST_PROXY (issue 24, item 2)", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["true", true],
    ["0", 0],
    ["1", 1],
    [" 2 ", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8, 192.168.1.7", ["10.0.0.0/8", "192.168.1.7"]],
    ["::1,fd00::/8,2001:db8::/128", ["::1", "fd00::/8", "2001:db8::/128"]],
    ["loopback, linklocal, uniquelocal", ["loopback", "linklocal", "uniquelocal"]],
    ["172.16.0.0/12,loopback", ["172.16.0.0/12", "loopback"]],
  ])("reads %j as %j, never as a string Express would take for an address", (text, setting) => {
    expect(parseEnv({ TRUST_PROXY: text }).TRUST_PROXY).toEqual(setting);
  });

  it.each(["yes", "1.2.3.4/99", "-1", "abc", "::1/129", "10.0.0.0/255.0.0.0", "10.0.0.1,", "10.0.0.1/8/8", "1.5"])(
    "refuses %j with the forms it takes",
    (text) => {
      expect(() => parseEnv({ TRUST_PROXY: text })).toThrowError(
        /TRUST_PROXY: must be a hop count \(1, 2, …\), true, false, or a comma-separated list of addresses, subnets/,
      );
    },
  );

  it("names only the entries it refuses", () => {
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.1, nope, 10.0.0.0/40" })).toThrowError(/\(got "nope", "10.0.0.0\/40"\)$/);
  });

  it("warns at start that true believes whatever the client writes, and says nothing of the other forms", () => {
    expect(startWarnings(parseEnv({ TRUST_PROXY: "true", SMTP_URL: SECRETS.SMTP_URL }))).toContainEqual(
      expect.stringMatching(/^WARNING: TRUST_PROXY=true takes the leftmost X-Forwarded-For entry/),
    );
    for (const text of ["loopback", "10.0.0.5", "false"]) {
      expect(startWarnings(parseEnv({ TRUST_PROXY: text })).join("\n")).not.toContain("TRUST_PROXY");
    }
  });

  it("warns at start that a hop count trusts whoever connects when the port listens beyond loopback (issue 43)", () => {
    const [warning] = startWarnings(parseEnv({ TRUST_PROXY: "1", PORT: "3000", SMTP_URL: SECRETS.SMTP_URL })).filter((text) =>
      text.includes("TRUST_PROXY"),
    );
    expect(warning).toMatch(/^WARNING: TRUST_PROXY=1 trusts whoever connects, and this server listens on 0\.0\.0\.0/);
    expect(warning).toContain("Make the port reachable only through the proxy");
    for (const HOST of ["127.0.0.1", "::1", "localhost"]) {
      expect(startWarnings(parseEnv({ TRUST_PROXY: "1", HOST })).join("\n")).not.toContain("TRUST_PROXY");
    }
  });
});

describe("SEED_DEMO (issue 24, item 3)", () => {
  const PUBLIC = { PUBLIC_URL: "https://market.sparkera.example", ...SECRETS };

  it("seeds a local deployment and never a public one, unless told", () => {
    expect(parseEnv({}).seedDemo).toBe(true);
    expect(parseEnv({ SEED_DEMO: "off" }).seedDemo).toBe(false);
    expect(parseEnv(PUBLIC).seedDemo).toBe(false);
    expect(parseEnv({ ...PUBLIC, SEED_DEMO: "on" }).seedDemo).toBe(true);
    expect(() => parseEnv({ SEED_DEMO: "yes" })).toThrowError(/SEED_DEMO/);
  });

  it("warns at start when a public deployment seeds the demo world", () => {
    expect(startWarnings(parseEnv(PUBLIC))).toEqual([]);
    const [warning] = startWarnings(parseEnv({ ...PUBLIC, SEED_DEMO: "on" }));
    expect(warning).toMatch(/^WARNING: SEED_DEMO=on on a public deployment \(https:\/\/market\.sparkera\.example\)/);
    expect(warning).toContain("demo accounts");
    // Locally the demo world is the default, and no warning of its own.
    expect(startWarnings(parseEnv({})).join("\n")).not.toContain("SEED_DEMO");
  });
});

describe("a shared database (issue 27)", () => {
  const PG = "postgres://spark@db.internal/spark";

  it("says at start what else several processes must share: one chain and Redis", () => {
    expect(startWarnings(parseEnv({})).join("\n")).not.toContain("DATABASE_URL");
    const notes = startWarnings(parseEnv({ DATABASE_URL: PG })).filter((line) => line.startsWith("NOTE:"));
    expect(notes).toEqual([
      expect.stringMatching(/^NOTE: DATABASE_URL without CHAIN_RPC_URL: this process runs its own local chain/),
      expect.stringMatching(/^NOTE: DATABASE_URL without REDIS_URL: rate limits and the analytics dedupe are kept per process/),
    ]);
    const shared = {
      DATABASE_URL: PG,
      REDIS_URL: "redis://cache.internal:6379",
      CHAIN_RPC_URL: "http://chain.internal:8545",
      DEPLOYMENT_FILE: "deployment.json",
    };
    expect(startWarnings(parseEnv(shared)).join("\n")).not.toContain("NOTE:");
  });
});

describe("the chain's nodes (issue 41)", () => {
  it("takes a comma-separated list of http(s) URLs, and the log range", () => {
    const env = parseEnv({
      CHAIN_RPC_URL: "https://bsc.provider.example/key-123, https://bsc-dataseed.bnbchain.org ,",
      DEPLOYMENT_FILE: "deployment.json",
    });
    expect(env.CHAIN_RPC_URL).toEqual(["https://bsc.provider.example/key-123", "https://bsc-dataseed.bnbchain.org"]);
    expect(env.CHAIN_LOG_RANGE).toBe(1_000);
    expect(parseEnv({}).CHAIN_RPC_URL).toBeUndefined();
    expect(parseEnv({ CHAIN_LOG_RANGE: "5000" }).CHAIN_LOG_RANGE).toBe(5_000);
    for (const bad of ["ws://node:8546", "https://a.example,not a url"]) {
      expect(() => parseEnv({ CHAIN_RPC_URL: bad, DEPLOYMENT_FILE: "d.json" }), bad).toThrowError(
        /CHAIN_RPC_URL: ".*" is no http\(s\) URL/,
      );
    }
    expect(() => parseEnv({ CHAIN_LOG_RANGE: "0" })).toThrowError(/CHAIN_LOG_RANGE/);
  });
});

describe("REDIS_URL and INTERNAL_TOKEN (issue 27)", () => {
  it("takes a redis:// or rediss:// URL, or none", () => {
    expect(parseEnv({}).REDIS_URL).toBeUndefined();
    expect(parseEnv({ REDIS_URL: "redis://localhost:6379/2" }).REDIS_URL).toBe("redis://localhost:6379/2");
    expect(parseEnv({ REDIS_URL: "rediss://user:pass@redis.internal:6380" }).REDIS_URL).toBe("rediss://user:pass@redis.internal:6380");
    for (const bad of ["localhost:6379", "http://localhost:6379", "redis://", "redis://a b"]) {
      expect(() => parseEnv({ REDIS_URL: bad })).toThrowError(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });

  it("takes an internal token of 32 printable characters at least, fit for a header", () => {
    expect(parseEnv({}).INTERNAL_TOKEN).toBeUndefined();
    expect(parseEnv({ INTERNAL_TOKEN: "a".repeat(32) }).INTERNAL_TOKEN).toBe("a".repeat(32));
    expect(() => parseEnv({ INTERNAL_TOKEN: "a".repeat(31) })).toThrowError(/INTERNAL_TOKEN: must be 32 characters at least/);
    expect(() => parseEnv({ INTERNAL_TOKEN: `${"a".repeat(32)} b` })).toThrowError(/INTERNAL_TOKEN: must be printable ASCII/);
    expect(() => parseEnv({ INTERNAL_TOKEN: `${"a".repeat(32)}\n` })).toThrowError(/INTERNAL_TOKEN: must be printable ASCII/);
  });
});
