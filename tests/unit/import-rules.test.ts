/**
 * The dependency direction of eslint.config.js: core/ imports nothing of ours, backend/ never imports app/ or
 * server/ (and of contracts/ only contracts/generated/), backend/db/ knows no backend, contracts/ never imports app/
 * or backend/, app/ never imports backend/ or server/, an SSO or market feature imports another only through its
 * index, and the market's shared/ imports no feature. Each rule must fail on a wrong import and let the right ones through.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The files linted here are not on disk, so the rules that need the type checker are left out.
const eslint = new ESLint({
  overrideConfigFile: "eslint.config.js",
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-misused-promises": "off",
      "@typescript-eslint/await-thenable": "off",
    },
  },
});

/** The no-restricted-imports messages for one import in a file at `filePath`. */
async function restricted(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`export * from "${source}";\n`, { filePath });
  return result.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

async function expectRefused(filePath: string, sources: string[], reason: RegExp) {
  for (const source of sources) {
    const messages = await restricted(filePath, source);
    expect(messages, `${filePath} importing ${source}`).toHaveLength(1);
    expect(messages[0], `${filePath} importing ${source}`).toMatch(reason);
  }
}

async function expectAllowed(filePath: string, sources: string[]) {
  for (const source of sources) expect(await restricted(filePath, source), `${filePath} importing ${source}`).toEqual([]);
}

describe("import rules (eslint.config.js)", () => {
  it("core/ imports nothing of ours, no Node-only API, no React or Remix", async () => {
    await expectRefused(
      "core/x.ts",
      ["../app/domain/listing", "../backend/http", "../contracts/deployment", "../server/rate-limit", "../server"],
      /core\//,
    );
    await expectRefused("core/api/x.ts", ["../../app/domain/listing", "../../backend/market/records"], /core\//);
    await expectRefused("core/x.ts", ["~/domain/listing", "~core/nft"], /relatively/);
    await expectRefused("core/x.ts", ["node:crypto", "crypto", "fs/promises", "express"], /Node-only/);
    await expectRefused("core/x.ts", ["react", "react-dom/server", "@remix-run/node"], /React or Remix/);
    await expectAllowed("core/x.ts", ["./nft", "viem"]);
    await expectAllowed("core/api/x.ts", ["../money", "./sso"]);
  });

  it("backend/ never imports app/ or server/, and of contracts/ only contracts/generated/", async () => {
    await expectRefused("backend/x.ts", ["../app/domain/listing", "~/services/env.server"], /app\//);
    await expectRefused(
      "backend/market/x.ts",
      ["../../app/services/password-hash.server", "../../server/rate-limit", "../../server"],
      /backend\//,
    );
    await expectRefused(
      "backend/market/x.ts",
      ["../../contracts/deploy", "../../contracts/deployment", "../../contracts"],
      /contracts\/generated/,
    );
    await expectAllowed("backend/market/x.ts", ["~core/nft", "../../contracts/generated/abi", "../http", "./shared/ledger", "viem"]);
    await expectAllowed("backend/sso/executor/x.ts", ["../../../contracts/lootbox-events"]);
  });

  it("backend/db/ knows no backend: nothing of backend/sso/, backend/market/ or the rest of backend/ (issue 45)", async () => {
    await expectRefused(
      "backend/db/x.ts",
      ["../sso/migrations", "../market/shared/tables", "../market/migrations/postgres", "../market", "../types", "../schema"],
      /engine layer/,
    );
    await expectRefused("backend/db/postgres/x.ts", ["../../sso/shared/tables", "../../market/shared/items"], /engine layer/);
    await expectRefused("backend/db/x.ts", ["../../app/domain/listing"], /backend\//);
    await expectAllowed("backend/db/x.ts", ["./migrate", "./sql", "~core/rpc-errors", "../../contracts/generated/abi", "kysely"]);
    await expectAllowed("backend/db/postgres/x.ts", ["../migrate", "./schema"]);
    await expectAllowed("backend/schema.ts", ["./db", "./sso/migrations/postgres", "./market/migrations/postgres"]);
  });

  it("an SSO feature imports another only through its index (issue 45)", async () => {
    await expectRefused("backend/sso/wallets/x.ts", ["../accounts/session-auth", "../executor/policy"], /only through its index/);
    await expectRefused("backend/sso/executor/x.ts", ["../store/card-orders"], /only through its index/);
    await expectRefused("backend/sso/wallets/x.ts", ["../../../app/domain/listing"], /backend\//);
    await expectAllowed("backend/sso/wallets/x.ts", [
      "../accounts",
      "../executor",
      "../shared/tables",
      "./wallets",
      "../core",
      "../../http",
    ]);
    await expectAllowed("backend/sso/x.ts", ["./accounts/account-routes", "./executor/routes"]);
  });

  it("a market feature imports another only through its index, and shared/ no feature (issue 45)", async () => {
    await expectRefused("backend/market/offers/x.ts", ["../trades/trades", "../listings/query"], /only through its index/);
    await expectRefused("backend/market/reconciler/x.ts", ["../indexer/apply", "../claims/stacks"], /only through its index/);
    await expectRefused("backend/market/trades/x.ts", ["../../../app/domain/listing"], /backend\//);
    await expectAllowed("backend/market/offers/x.ts", [
      "../trades",
      "../listings",
      "../shared/items",
      "./offers",
      "../core",
      "../request",
      "../../http",
    ]);
    await expectAllowed("backend/market/x.ts", ["./listings/listing-routes", "./trades/order-routes", "./shared/db"]);
    await expectRefused("backend/market/shared/x.ts", ["../trades", "../listings/query", "../core", "../request"], /shared\/ is below/);
    await expectAllowed("backend/market/shared/x.ts", ["./items", "../../http", "../../db/sql", "~core/nft"]);
  });

  it("contracts/ never imports app/ or backend/", async () => {
    await expectRefused("contracts/x.ts", ["../app/domain/boxes", "~/domain/boxes"], /app\//);
    await expectRefused("contracts/x.ts", ["../backend/demo", "../server/rate-limit"], /contracts\//);
    await expectAllowed("contracts/x.ts", ["~core/demo", "./generated/abi", "./deployment"]);
  });

  it("app/ never imports backend/ or server/", async () => {
    await expectRefused("app/routes/x.tsx", ["../../backend/market/ledger", "../../server/origin-check", "../../server"], /app\//);
    await expectRefused("app/services/x.server.ts", ["../../backend"], /app\//);
    await expectRefused("app/routes/game/route.tsx", ["./route.server"], /full name/);
    await expectAllowed("app/routes/game/route.tsx", ["~/routes/game/route.server"]);
    await expectRefused(
      "app/components/x.tsx",
      ["~/features/market/listing", "../features/market/listing", "~/routes/game/route"],
      /no feature/,
    );
    await expectRefused("app/features/market/x.ts", ["~/routes/game/route.server", "../../routes/game/route"], /never imports a route/);
    await expectAllowed("app/features/market/x.ts", ["~/features/actions/managed-action.server", "~/services/apis.server", "./listing"]);
    await expectAllowed("app/routes/x.tsx", [
      "~core/nft",
      "~/domain/listing",
      "../../contracts/generated/abi",
      "~/features/market/market-urls.server",
    ]);
  });
});
