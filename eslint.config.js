import { builtinModules } from "node:module";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

/**
 * The dependency direction between our top-level folders (core ← app, backend, contracts; server wires them).
 * Relative imports are matched by the folder they climb to, `~/` is app/ and `~core/` is core/.
 */
const climbsTo = (...folders) => `^(\\.\\./)+(${folders.join("|")})(\\.ts)?(/|$)`;
const APP_ALIAS = "^~/";

const CORE_RULE = "core/ is plain TypeScript shared by everything: it imports only core/ (relatively) and portable packages";
const nodeOnly = [...builtinModules.filter((name) => !name.startsWith("_")), "express", "better-sqlite3", "nodemailer"];
/** core/ files at `depth` folders below core/ may climb that many levels, never out of core/. */
const coreAtDepth = (depth) => ({
  files: [`core/${"*/".repeat(depth - 1)}*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { regex: `^(\\.\\./){${depth},}`, message: `${CORE_RULE}: nothing of app/, backend/, contracts/ or server/.` },
          { regex: "^~", message: `${CORE_RULE}: import core/ files relatively; ~/ is app/.` },
          { regex: `^(node:|(${nodeOnly.join("|")})(/|$))`, message: `${CORE_RULE}: no Node-only API (it runs in the browser too).` },
          { regex: "^(react|react-dom|@remix-run)(/|$)", message: `${CORE_RULE}: no React or Remix.` },
        ],
      },
    ],
  },
});

const APP_OUTSIDE = {
  regex: climbsTo("backend", "server", "scripts", "tests"),
  message: "app/ never imports backend/ or server/: server/ wires them together; share through core/.",
};

const BACKEND_RULES = [
  { regex: APP_ALIAS, message: "backend/ never imports app/: share through core/." },
  {
    regex: climbsTo("app", "server", "scripts", "tests"),
    message: "backend/ imports only core/, contracts/generated/ and its own files.",
  },
  {
    regex: "^(\\.\\./)+contracts(/(?!generated(/|$)|lootbox-(events|sale|opener)$)|$)",
    message:
      "backend/ imports only contracts/generated/ of contracts/ (and lootbox-events, lootbox-sale and lootbox-opener, the loot box's pure readers and plans).",
  },
];
/** The SSO's features (docs/architecture.md, Inside backend/sso/): one imports another only through its index.ts. */
const SSO_FEATURES = ["accounts", "codes", "executor", "mail", "store", "wallets"];
/** The market's features (docs/architecture.md, Inside backend/market/): the same rule; shared/ is below them all. */
const MARKET_FEATURES = ["awards", "claims", "indexer", "invites", "listings", "offers", "reconciler", "stats", "trades", "watches"];
const MARKET_FEATURE_RULE = {
  regex: `^\\.\\./(${MARKET_FEATURES.join("|")})/`,
  message:
    "A market feature imports another only through its index (../<feature>), never a file inside it (docs/architecture.md, Inside backend/market/).",
};

const restrict = (files, patterns) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } });

/**
 * backend/db/ is the engine layer (drivers, transactions, retries, roles, the migration runner; decision 0039): it
 * knows no backend. A file `depth` folders inside backend/db/ reaches backend/ by climbing `depth` levels: it may climb
 * past it (to core/ or contracts/generated/, as BACKEND_RULES allow), never into backend/sso/, backend/market/ or the
 * rest of backend/.
 */
const dbAtDepth = (depth) =>
  restrict(
    [`backend/db/${"*/".repeat(depth - 1)}*.ts`],
    [
      ...BACKEND_RULES,
      {
        regex: `^(\\.\\./){${depth}}(?!\\.\\./)`,
        message:
          "backend/db/ is the engine layer: it imports its own files, core/ and packages, never backend/sso/, backend/market/ or the rest of backend/; the backends hand it their migrations and table types (backend/schema.ts, decision 0039).",
      },
    ],
  );

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "build/**",
      "public/build/**",
      ".build/**",
      ".cache/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "contracts/generated/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // The ledger's SQL is async on both engines: a forgotten await would let a write escape its transaction.
    files: ["backend/**/*.ts", "tests/backend/**/*.ts", "scripts/**/*.ts", "server.ts", "server/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    files: ["**/*.{js,cjs}"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  coreAtDepth(1),
  coreAtDepth(2),
  coreAtDepth(3),
  restrict(["backend/**/*.ts"], BACKEND_RULES),
  dbAtDepth(1),
  dbAtDepth(2),
  restrict(
    ["backend/sso/*/**/*.ts"],
    [
      ...BACKEND_RULES,
      {
        regex: `^\\.\\./(${SSO_FEATURES.join("|")})/`,
        message:
          "An SSO feature imports another only through its index (../<feature>), never a file inside it (docs/architecture.md, Inside backend/sso/).",
      },
    ],
  ),
  restrict(["backend/market/*/**/*.ts"], [...BACKEND_RULES, MARKET_FEATURE_RULE]),
  restrict(
    ["backend/market/shared/**/*.ts"],
    [
      ...BACKEND_RULES,
      {
        regex: "^\\.\\./[^./]",
        message:
          "The market's shared/ is below its features: it imports shared/ files, backend/ and core/, never a feature or core.ts, request.ts, service.ts (docs/architecture.md, Inside backend/market/).",
      },
    ],
  ),
  restrict(
    ["contracts/**/*.ts"],
    [
      { regex: APP_ALIAS, message: "contracts/ never imports app/: share through core/." },
      { regex: climbsTo("app", "backend", "server", "scripts", "tests"), message: "contracts/ imports only core/ and its own files." },
    ],
  ),
  restrict(["app/**/*.{ts,tsx}"], [APP_OUTSIDE]),
  restrict(
    ["app/{components,domain,islands,services}/**/*.{ts,tsx}"],
    [
      APP_OUTSIDE,
      {
        regex: "^(~/|(\\.\\./)+)(features|routes)(/|$)",
        message:
          "components/, domain/, islands/ and services/ serve every feature: they import no feature and no route (docs/architecture.md, Inside app/).",
      },
    ],
  ),
  restrict(
    ["app/routes/*/route.{ts,tsx}"],
    [
      APP_OUTSIDE,
      {
        regex: "^\\./route\\.server$",
        message:
          "Import the route's server module by its full name (~/routes/<route>/route.server): the compiler keys the empty module it gives the browser by the import's text, so every route's ./route.server would share one extra chunk.",
      },
    ],
  ),
  restrict(
    ["app/features/**/*.{ts,tsx}"],
    [
      APP_OUTSIDE,
      {
        regex: "^(~/|(\\.\\./)+)routes(/|$)",
        message:
          "A feature never imports a route: what a route shares with others belongs in its feature (docs/architecture.md, Inside app/).",
      },
    ],
  ),
);
