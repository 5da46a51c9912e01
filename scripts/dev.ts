/**
 * `npm run dev`: build once, then rebuild on change (remix watch) while the server imports the newest build
 * on every request. Server-side code outside app/ (server.ts, backend/) needs a restart.
 */
import { spawn, spawnSync } from "node:child_process";

const build = spawnSync("npx", ["remix", "build", "--sourcemap"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } });
if (build.status !== 0) process.exit(build.status ?? 1);

const children = [
  spawn("npx", ["remix", "watch"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } }),
  spawn("npx", ["tsx", "server.ts"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
for (const child of children)
  child.once("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
