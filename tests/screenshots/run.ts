/**
 * `npm run screenshots`: a full-page PNG of every page at 390 and 1280 px, with JavaScript on and off, for a visitor
 * and for the managed demo player, plus each width's opened menu, in screenshots/ (ignored by git). They are for a
 * person to open and look at whenever a change touches layout (issue 23); nothing here asserts.
 *
 * On a fresh build and a server of its own (a fresh database and chain), or on a running one: `npm run screenshots -- --url http://…`.
 * `--only /marketplace` keeps the paths that contain the text.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { runDir, startServer, type BenchServer } from "../bench/server";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium";
import { MANAGED } from "../e2e/fixtures";
import { MOBILE_PATHS } from "../e2e/mobile";
import { REACH_VIEWPORTS } from "../e2e/reach";

const OUT = path.resolve("screenshots");
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

const slug = (pagePath: string) =>
  pagePath
    .replace(/^\//, "")
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/-$/, "") || "root";

async function shoot(browser: Browser, base: string, paths: readonly string[]): Promise<number> {
  let count = 0;
  for (const [size, viewport] of Object.entries(REACH_VIEWPORTS)) {
    for (const js of [true, false]) {
      for (const who of ["visitor", "managed"] as const) {
        const context = await browser.newContext({ baseURL: base, viewport, javaScriptEnabled: js });
        const page = await context.newPage();
        if (who === "managed") {
          await page.goto("/login");
          await page.getByLabel("Email").fill(MANAGED.email);
          await page.getByLabel("Password").fill(MANAGED.password);
          await page.getByRole("button", { name: "Log in" }).click();
          await page.waitForURL((url) => url.pathname !== "/login");
        }
        const dir = path.join(OUT, `${size}-${viewport.width}`, js ? "js" : "nojs", who);
        fs.mkdirSync(dir, { recursive: true });
        for (const pagePath of paths) {
          await page.goto(pagePath);
          await page.locator("main").waitFor();
          await page.screenshot({ path: path.join(dir, `${slug(pagePath)}.png`), fullPage: true });
          count++;
        }
        // The menu as a person opens it: a click on its button, and the window as it then looks.
        await page.goto("/home");
        await page.getByLabel("Menu", { exact: true }).click();
        await page.screenshot({ path: path.join(dir, "menu-open.png") });
        count++;
        await context.close();
      }
    }
  }
  return count;
}

const only = option("--only");
const paths = MOBILE_PATHS.filter((pagePath) => !only || pagePath.includes(only));
let server: BenchServer | undefined;
const url = option("--url");
if (!url) {
  server = await startServer({ port: 3297, chainPort: 8597, database: path.join(runDir("screenshots"), "spark.db") });
}
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  fs.rmSync(OUT, { recursive: true, force: true });
  const count = await shoot(browser, url ?? server!.base, paths);
  console.log(`${count} screenshots in ${path.relative(process.cwd(), OUT)}/`);
} finally {
  await browser.close();
  server?.stop();
}
