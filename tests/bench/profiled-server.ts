/**
 * server.ts under the inspector's CPU sampler, for tests/bench/page-profile.ts: SIGUSR2 starts a profile, the next
 * SIGUSR2 writes it to PROFILE_FILE (a .cpuprofile, which Chrome DevTools opens). The process's pid goes to
 * PROFILE_PID_FILE, as npx and tsx stand between it and the bench.
 */
import fs from "node:fs";
import inspector from "node:inspector/promises";

const session = new inspector.Session();
session.connect();
let sampling = false;
process.on("SIGUSR2", () => {
  sampling = !sampling;
  void (sampling ? start() : stop());
});

async function start() {
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: Number(process.env.PROFILE_INTERVAL_US ?? 250) });
  await session.post("Profiler.start");
}

async function stop() {
  const { profile } = await session.post("Profiler.stop");
  fs.writeFileSync(`${process.env.PROFILE_FILE}.tmp`, JSON.stringify(profile));
  fs.renameSync(`${process.env.PROFILE_FILE}.tmp`, process.env.PROFILE_FILE!);
}

fs.writeFileSync(process.env.PROFILE_PID_FILE!, String(process.pid));
await import("../../server");
