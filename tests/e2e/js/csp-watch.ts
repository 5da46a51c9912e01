import { expect, type Page } from "@playwright/test";

/**
 * Watches a page for what a broken CSP shows (issue 44, decision 0033): the browser's violation events, its console
 * reports and uncaught errors. Start it before the page is opened; `expectNone` after the page has done its work.
 */
export async function watchCsp(page: Page) {
  const violations: string[] = [];
  const errors: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return {
    async expectNone() {
      expect(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])).toEqual([]);
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    },
  };
}
