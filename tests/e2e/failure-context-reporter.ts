/**
 * Prints the page snapshot Playwright keeps for a failed test (its error-context.md: the page's accessibility tree
 * at the failure). CI shows only the console, so without it a flake there could not be read after the run.
 */
import fs from "node:fs";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

const MAX_CHARS = 6000;

export default class FailureContextReporter implements Reporter {
  printsToStdio() {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === test.expectedStatus) return;
    for (const attachment of result.attachments) {
      if (attachment.name !== "error-context" || !attachment.path) continue;
      let text: string;
      try {
        text = fs.readFileSync(attachment.path, "utf8");
      } catch {
        continue;
      }
      // The error is printed already; the page (its YAML accessibility tree) is what the console lacks.
      const page = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]).join("\n");
      if (!page) continue;
      const shown = page.length > MAX_CHARS ? `${page.slice(0, MAX_CHARS)}\n… (${page.length - MAX_CHARS} more characters)` : page;
      console.log(`\n--- page at the failure of "${test.titlePath().slice(1).join(" › ")}" ---\n${shown}\n---`);
    }
  }
}
