/**
 * The bench's floor (tests/bench/market-page.ts): a Remix app of one trivial page, built into data/bench-floor/ and
 * served by the very server.ts of the app (REMIX_BUILD_DIR=data/bench-floor), so it pays every Express middleware and
 * Remix's own work, and nothing of the app's: no root loader, no layout, no other route to match.
 * Why a build of its own rather than a route of the app: every route of the app runs under its root (loader, header,
 * footer, wallet watcher), so no route there can measure Remix without them; and a build the bench alone makes can
 * never be reached in a deployment.
 */
import appConfig from "../../../remix.config.js";

const out = new URL("../../../data/bench-floor/", import.meta.url).pathname;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  appDirectory: "app",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverBuildPath: `${out}index.js`,
  assetsBuildDirectory: `${out}assets`,
  // Not tests/bench/floor/.cache, which git would see.
  cacheDirectory: `${out}.cache`,
  publicPath: "/build/",
  tailwind: false,
  postcss: false,
  // The app's flags: the same single fetch, lazy route discovery and so on.
  future: appConfig.future,
};
