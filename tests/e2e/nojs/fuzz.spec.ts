import { expect, test } from "@playwright/test";
import { API_PATHS } from "../../../backend";
import { fuzzContext, prepareSessions, runFuzz } from "../../fuzz/engine";
import { describeOutcome, formatReport } from "../../fuzz/report";
import { missingKnowledge } from "../../fuzz/targets";

/** A fixed slice by default, so CI replays the same requests; FUZZ_SEED explores others. */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : 0x5eed0010;
const REQUESTS = 2000;

test("every route file and every backend endpoint is a fuzz target", async () => {
  expect(missingKnowledge()).toEqual({ unknownRoutes: [], staleEntries: [] });
  const ctx = await fuzzContext();
  for (const prefix of API_PATHS)
    expect(
      ctx.api.some((target) => target.path.startsWith(prefix)),
      prefix,
    ).toBe(true);
  expect(ctx.app.filter((target) => target.loader || target.action).length).toBeGreaterThan(10);
});

test(`${REQUESTS} seeded requests to every loader, action and backend endpoint get no answer ≥ 500`, async ({ baseURL }) => {
  test.setTimeout(240_000);
  const ctx = await fuzzContext();
  const report = await runFuzz(ctx, {
    baseUrl: baseURL!,
    seed: SEED,
    count: REQUESTS,
    concurrency: 6,
    origin: new URL(baseURL!).origin,
    sessions: await prepareSessions(baseURL!),
    huge: true,
  });
  const figures = formatReport(report);
  await test.info().attach("fuzz report", { body: figures, contentType: "text/plain" });
  expect(report.failures.map(describeOutcome), figures).toEqual([]);
  // A request that holds the event loop shows in /healthz (a path of 7,000 segments held it 5.8 s before issue 24);
  // its slowest answer through a whole run here is well under a second.
  expect(report.healthz.failures, figures).toBe(0);
  expect(report.healthz.worstMs, figures).toBeLessThan(2500);
  // Every target was reached, so a route that stops being fuzzed shows here.
  for (const target of [...ctx.app, ...ctx.api]) expect(report.byTarget[target.id], target.id).toBeDefined();
  expect((await fetch(new URL("/healthz", baseURL))).ok).toBe(true);
});
