/** axe-core's serious and critical findings on the page as it is now, one line each (an empty list passes). */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
