/**
 * `npm run bench`: every benchmark in turn, each printing its own figures. Never part of `npm test`.
 * The JS size of pages is measured against a running server: `tsx tests/bench/js-size.ts <baseUrl>`.
 */
import { spawnSync } from "node:child_process";

const BENCHES = [
  "tests/bench/market-query.ts",
  "tests/bench/market-page.ts",
  "tests/bench/page-profile.ts",
  "tests/bench/ledger-sync.ts",
  "tests/bench/trades.ts",
  "tests/bench/watches.ts",
  "tests/bench/crash-recovery.ts",
  "tests/bench/bridge.ts",
  "tests/bench/indexer-provider.ts",
  "tests/bench/cluster.ts",
  "tests/bench/shared-cache.ts",
  "tests/bench/drop.ts",
  "tests/bench/lighthouse.ts",
];
let failed = false;
for (const bench of BENCHES) {
  console.log(`\n== ${bench}`);
  const result = spawnSync("npx", ["tsx", bench, ...process.argv.slice(2)], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
