/**
 * `npm run fuzz`: 20,000 seeded requests against a server of its own, then the figures (answers by status class
 * and by route, and every answer ≥ 500 with its seed and request). Exits 1 when any answer is ≥ 500.
 *
 *   npm run fuzz                                   # random seed, printed
 *   npm run fuzz -- --seed 1234 --count 5000       # a given run
 *   npm run fuzz -- --replay 0x1a2b3c4d,77         # just these requests, printed with their answers
 *   npm run fuzz -- --base-url http://127.0.0.1:3000   # against a running server instead
 *
 * Its server runs on FUZZ_PORT (3392) with its chain on FUZZ_CHAIN_PORT (8692); the build is made when missing.
 */
import { parseArgs } from "node:util";
import http from "node:http";
import { fuzzContext, prepareSessions, runFuzz, send } from "./engine";
import { describeOutcome, formatReport } from "./report";
import { drawRequest } from "./requests";
import { ensureBuild, startServer, stopServer, type ServerProcess } from "./server";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    count: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "8" },
    replay: { type: "string" },
    "base-url": { type: "string" },
  },
});

const parseSeed = (text: string) => Number(text.trim()) >>> 0;
const seed = values.seed ? parseSeed(values.seed) : Math.floor(Math.random() * 2 ** 32);
const seeds = values.replay?.split(",").map(parseSeed);

let server: ServerProcess | undefined;
let baseUrl = values["base-url"];
if (!baseUrl) {
  ensureBuild();
  const port = Number(process.env.FUZZ_PORT ?? 3392);
  console.log(`Starting a server on port ${port}…`);
  server = await startServer({ port, chainPort: Number(process.env.FUZZ_CHAIN_PORT ?? 8692), tag: "fuzz" });
  baseUrl = server.baseUrl;
  console.log(`Its log: ${server.logFile}`);
}

let failed = true;
try {
  const ctx = await fuzzContext();
  const sessions = await prepareSessions(baseUrl);
  const draw = { origin: new URL(baseUrl).origin, sessions, huge: true };
  if (seeds) {
    const agent = new http.Agent({ keepAlive: true });
    const outcomes = [];
    for (const one of seeds) outcomes.push(await send(baseUrl, drawRequest(one, ctx, draw), agent));
    agent.destroy();
    console.log(outcomes.map(describeOutcome).join("\n\n"));
    failed = outcomes.some((outcome) => (outcome.status ?? 0) >= 500);
  } else {
    console.log(`${ctx.app.length} app routes, ${ctx.api.length} backend endpoints; sending ${values.count} requests…`);
    const report = await runFuzz(ctx, {
      ...draw,
      baseUrl,
      seed,
      count: Number(values.count),
      concurrency: Number(values.concurrency),
      onProgress: (done) => {
        if (done % 2000 === 0) console.log(`  ${done} sent`);
      },
    });
    console.log(formatReport(report));
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (!healthy) console.log("The server no longer answers /healthz.");
    failed = report.failures.length > 0 || !healthy;
  }
} finally {
  if (server) await stopServer(server);
}
process.exit(failed ? 1 : 0);
