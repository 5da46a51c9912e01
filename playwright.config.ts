import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${PORT}`;
/**
 * A second server, its backends on PostgreSQL (decision 0011), for the specs that race and fuzz its writes. Its
 * ports are the suite's + 6 (tests/e2e/own-server.ts lists the offsets in use).
 */
const POSTGRES_PORT = PORT + 6;
const POSTGRES_CHAIN_PORT = Number(process.env.E2E_CHAIN_PORT ?? 8546) + 6;
const POSTGRES_SPECS = ["races.spec.ts", "fuzz.spec.ts"];

/** Debian's Chromium: Playwright cannot download its own browser here. */
const chromium = {
  browserName: "chromium" as const,
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: process.env.CI ? [["list"], ["./tests/e2e/failure-context-reporter.ts"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: { baseURL, trace: "retain-on-failure" },
  projects: [
    { name: "no-js", testDir: "tests/e2e/nojs", use: { ...chromium, javaScriptEnabled: false } },
    {
      name: "no-js-postgres",
      testDir: "tests/e2e/nojs",
      testMatch: POSTGRES_SPECS,
      use: { ...chromium, javaScriptEnabled: false, baseURL: `http://127.0.0.1:${POSTGRES_PORT}` },
    },
    { name: "js", testDir: "tests/e2e/js", use: { ...chromium, javaScriptEnabled: true } },
    // Specs that move the chain's clock (tests/e2e/chain-clock.ts) run after all others, one project after the other and
    // one file at a time (a file's revert at its end would take back another's accounts), each putting the chain back
    // at its end. Run one alone with --no-deps.
    {
      name: "chain-time-nojs",
      testDir: "tests/e2e/chain-time/nojs",
      dependencies: ["no-js", "js"],
      workers: 1,
      use: { ...chromium, javaScriptEnabled: false },
    },
    {
      name: "chain-time-js",
      testDir: "tests/e2e/chain-time/js",
      dependencies: ["chain-time-nojs"],
      workers: 1,
      use: { ...chromium, javaScriptEnabled: true },
    },
  ],
  webServer: [
    {
      command: "npx tsx tests/e2e/server.ts",
      url: `${baseURL}/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { E2E_PORT: String(PORT), E2E_PROVIDER: "1" },
    },
    {
      command: "npx tsx tests/e2e/server.ts",
      url: `http://127.0.0.1:${POSTGRES_PORT}/healthz`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { E2E_PORT: String(POSTGRES_PORT), E2E_CHAIN_PORT: String(POSTGRES_CHAIN_PORT), E2E_ENGINE: "postgres" },
    },
  ],
});
