/**
 * Issue 17: the gzipped JavaScript a visitor's page downloads stays within 100 KB, on every route. React, React DOM
 * and Remix take about 93 KB of it, so a page has a few KB of its own: what only the server needs lives in the
 * route's `.server.ts` module, links and labels a page could compute come from its loader, and wallet code loads
 * when a wallet action starts. Byte sizes of one build are deterministic, so this is a test, not a benchmark
 * (tests/bench/js-size.ts measures the same way).
 */
import { expect, test } from "@playwright/test";
import { gzippedJs } from "../../bench/js-size";
import { MOBILE_PATHS } from "../mobile";

const KB = 1024;
const BUDGET = 100 * KB;

test("no page a visitor opens ships more gzipped JavaScript than its budget", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const over: string[] = [];
  for (const path of [...MOBILE_PATHS, "/lootbox/4"]) {
    const { bytes } = await gzippedJs(new URL(path, baseURL).href);
    if (bytes > BUDGET) over.push(`${path}: ${(bytes / KB).toFixed(1)} KB > ${BUDGET / KB} KB`);
  }
  expect(over).toEqual([]);
});
