/**
 * Issue 23: a page is checked as a person uses it, not as Playwright does. Playwright scrolls any clipped container to
 * reach an element before it clicks; a person scrolls the window and taps what they see. So, on each page:
 * - the document is no wider than the window;
 * - every visible link, button, field and summary of the header and `<main>`, scrolled into the middle of the window
 *   by the window alone, lies in the window, and `elementFromPoint` at its centre is the element or inside it;
 * - each sheet of the header (menu, wallet, account), opened by a click at its button's centre, lies inside the window,
 *   and each of its controls passes the same hit test;
 * - the cells of one table row never overlap, and none runs off the window's right edge;
 * - no box cuts its content off (overflow hidden without an ellipsis).
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./accounts";
import { DEMO, MANAGED } from "./fixtures";
import { MOBILE_PATHS, PHONE } from "./mobile";
import { anvilKey, installTestWallet } from "./wallet";

export const DESKTOP = { width: 1280, height: 900 };

/** In the page: the problems of every control under `rootSelector`, as "what: why" lines. */
function hitProblems({ rootSelector, scrollWindow }: { rootSelector: string; scrollWindow: boolean }): string[] {
  const problems: string[] = [];
  const describe = (el: Element) => {
    const text = (el.getAttribute("aria-label") ?? (el as HTMLElement).innerText ?? el.getAttribute("name") ?? "").trim();
    return `<${el.tagName.toLowerCase()}> "${text.replace(/\s+/g, " ").slice(0, 40)}"`;
  };
  const controls = Array.from(
    document.querySelectorAll(
      rootSelector
        .split(",")
        .map(
          (root) => `${root} a[href], ${root} button, ${root} input:not([type=hidden]), ${root} select, ${root} textarea, ${root} summary`,
        )
        .join(","),
    ),
  );
  const horizontalScroller = (el: Element) => {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (/(auto|scroll)/.test(style.overflowX) && node.scrollWidth > node.clientWidth) return node;
    }
    return null;
  };
  for (const el of controls) {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    let rect = el.getBoundingClientRect();
    // Visually hidden (sr-only) controls are for screen readers; their visible label is what a person taps.
    if (rect.width <= 1 || rect.height <= 1) continue;
    if (scrollWindow) {
      window.scrollTo(0, window.scrollY + rect.top + rect.height / 2 - window.innerHeight / 2);
      rect = el.getBoundingClientRect();
    }
    // A row of pills that scrolls sideways is swiped, as a person would; a menu's links are not looked for past its edge.
    if (rect.left < 0 || rect.right > window.innerWidth) {
      const scroller = horizontalScroller(el);
      if (scroller && el.closest("nav")) {
        problems.push(`${describe(el)}: a menu link past the window's edge (its right edge at ${Math.round(rect.right)} px)`);
        continue;
      }
      if (scroller) {
        scroller.scrollLeft += rect.left + rect.width / 2 - window.innerWidth / 2;
        rect = el.getBoundingClientRect();
      }
    }
    // A link that wraps onto two lines is hit on a line of its text, not in the gap its bounding box spans.
    const lines = Array.from(el.getClientRects()).filter((line) => line.width > 1 && line.height > 1);
    const targets = (lines.length > 1 ? lines : [rect]).map((box) => ({
      x: box.left + Math.min(box.width, window.innerWidth) / 2,
      y: box.top + Math.min(box.height, window.innerHeight) / 2,
    }));
    const inWindow = targets.filter(({ x, y }) => x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight);
    if (!inWindow.length) {
      problems.push(`${describe(el)}: its centre (${Math.round(targets[0].x)}, ${Math.round(targets[0].y)}) is outside the window`);
      continue;
    }
    const hits = inWindow.map(({ x, y }) => document.elementFromPoint(x, y));
    if (!hits.some((hit) => hit && (hit === el || el.contains(hit)))) {
      const hit = hits[0];
      problems.push(`${describe(el)}: covered at its centre by ${hit ? describe(hit) : "nothing"}`);
    }
  }
  return problems;
}

/** In the page: cells of one table row whose contents overlap, or run off the window's right edge. */
function tableProblems(): string[] {
  const problems: string[] = [];
  const contentBox = (cell: Element) => {
    // Visually hidden (sr-only) text lays out past its 1 px clip but is never seen: left out while measuring.
    const hidden = Array.from(cell.querySelectorAll<HTMLElement>("*")).filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width <= 1 && box.height <= 1 && getComputedStyle(el).overflow === "hidden";
    });
    for (const el of hidden) el.style.display = "none";
    const range = document.createRange();
    range.selectNodeContents(cell);
    const box = range.getBoundingClientRect();
    for (const el of hidden) el.style.removeProperty("display");
    return box;
  };
  for (const row of Array.from(document.querySelectorAll("main tr"))) {
    if (!row.checkVisibility()) continue;
    const cells = Array.from(row.children)
      .filter((cell) => cell.checkVisibility() && (cell.textContent ?? "").trim())
      .map((cell) => ({ cell, box: contentBox(cell) }));
    const label = (row.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
    for (let i = 0; i < cells.length; i++) {
      if (cells[i].box.right > window.innerWidth + 0.5) problems.push(`row "${label}": a cell runs off the window`);
      for (let j = i + 1; j < cells.length; j++) {
        const a = cells[i].box;
        const b = cells[j].box;
        const overlap =
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
        if (overlap) problems.push(`row "${label}": cells ${i + 1} and ${j + 1} overlap`);
      }
    }
  }
  return problems;
}

/** In the page: boxes that cut their content off (overflow hidden, no ellipsis), as item cards did with long attributes. */
function clippedProblems(): string[] {
  const problems: string[] = [];
  for (const el of Array.from(document.querySelectorAll("header *, nav *, main *"))) {
    const style = getComputedStyle(el);
    if (!/(hidden|clip)/.test(style.overflowX) || style.textOverflow === "ellipsis") continue;
    const rect = el.getBoundingClientRect();
    // Visually hidden (sr-only) text is clipped on purpose.
    if (rect.width <= 1 || rect.height <= 1 || !el.checkVisibility()) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const text = ((el as HTMLElement).innerText ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      problems.push(
        `<${el.tagName.toLowerCase()}> "${text}": its content is ${el.scrollWidth} px wide in a ${el.clientWidth} px box that cuts it off`,
      );
    }
  }
  return problems;
}

/** Everything on the page a person could not see or hit, with its header's sheets opened too unless `sheets` is false; an empty list passes. */
export async function unreachable(page: Page, { sheets = true } = {}): Promise<string[]> {
  const problems: string[] = [];
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scrollWidth > innerWidth) problems.push(`the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
  problems.push(...(await page.evaluate(hitProblems, { rootSelector: "header, nav, main", scrollWindow: true })));
  problems.push(...(await page.evaluate(tableProblems)));
  problems.push(...(await page.evaluate(clippedProblems)));
  await page.evaluate(() => window.scrollTo(0, 0));
  if (!sheets) return problems;

  // Each sheet of the header, opened by a click where a person would tap its button.
  const summaries = page.locator("header details > summary");
  for (let i = 0; i < (await summaries.count()); i++) {
    const summary = summaries.nth(i);
    if (!(await summary.isVisible())) continue;
    const name = ((await summary.getAttribute("aria-label")) ?? (await summary.innerText())).trim() || `sheet ${i + 1}`;
    const box = await summary.boundingBox();
    if (!box) continue;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const details = summary.locator("..");
    const panel = details.locator(":scope > [data-panel]");
    if (!(await details.evaluate((el) => (el as HTMLDetailsElement).open))) {
      problems.push(`${name}: a click on its button opens nothing`);
      continue;
    }
    const inside = await panel.evaluate((el) => {
      const rect = el.getBoundingClientRect();
      return rect.left >= 0 && rect.top >= 0 && rect.right <= window.innerWidth && rect.bottom <= window.innerHeight;
    });
    if (!inside) problems.push(`${name}: the opened sheet does not lie inside the window`);
    await details.evaluate((el) => el.setAttribute("data-reach-open", ""));
    const inSheet = await page.evaluate(hitProblems, { rootSelector: "[data-reach-open] > [data-panel]", scrollWindow: false });
    problems.push(...inSheet.map((problem) => `${name} sheet, ${problem}`));
    // Its button closes it again, so the button must not lie under its own sheet.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    if (await details.evaluate((el) => (el as HTMLDetailsElement).open)) {
      problems.push(`${name}: a click on its button does not close the sheet`);
      await details.evaluate((el) => ((el as HTMLDetailsElement).open = false));
    }
    await details.evaluate((el) => el.removeAttribute("data-reach-open"));
  }
  return problems;
}

/**
 * `unreachable` over several pages, each problem prefixed with its path. The header is one component, so its sheets
 * are opened on the first page only.
 */
export async function unreachableOnPages(page: Page, paths: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [index, path] of paths.entries()) {
    await page.goto(path);
    await page.locator("main").waitFor();
    problems.push(...(await unreachable(page, { sheets: index === 0 })).map((problem) => `${path} ${problem}`));
  }
  return problems;
}

export const REACH_VIEWPORTS = { phone: PHONE, desktop: DESKTOP } as const;

/**
 * One test per width and player: every page of product §2 and those a player reaches from them, checked by
 * `unreachable`, for a visitor, the bound-wallet demo player and the managed one. With JavaScript, the bound wallet's
 * extension is connected first, so the header shows what that player sees: the address on the wallet button.
 */
export function reachTests({ javaScript }: { javaScript: boolean }) {
  const users = { visitor: null, "bound wallet": DEMO, "managed wallet": MANAGED } as const;
  for (const [size, viewport] of Object.entries(REACH_VIEWPORTS)) {
    for (const [who, account] of Object.entries(users)) {
      test(`at ${viewport.width} px, for a ${who}, every control of every page lies in the window, uncovered`, async ({ page, signIn }) => {
        test.setTimeout(180_000);
        await page.setViewportSize(viewport);
        if (account) await signIn(page, account);
        if (javaScript && account === DEMO) {
          await installTestWallet(page, { privateKey: anvilKey(0) });
          await page.goto("/home");
          await page.getByTestId("wallet-button").locator("..").click();
          await page.getByRole("button", { name: /^MetaMask/ }).click();
          await expect(page.getByTestId("wallet-address")).toBeVisible();
          await page.keyboard.press("Escape");
        }
        expect(await unreachableOnPages(page, MOBILE_PATHS), `${size}, ${who}`).toEqual([]);
      });
    }
  }
}
