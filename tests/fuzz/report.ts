/** The fuzz run's report: answers by status class and target, failures grouped by signature, each request as text. */
import type { FuzzRequest } from "./requests";
import type { Outcome, Report } from "./engine";

/** The request as text: enough to send it again by hand (long bodies shortened, cookies named by kind). */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => {
      const shown =
        name === "Cookie" || name === "authToken"
          ? `<${request.session} ${name === "Cookie" ? "cookie" : "token"}> ${value.slice(0, 40)}…`
          : value;
      return `  ${name}: ${shown.length > 200 ? `${shown.slice(0, 200)}… (${shown.length} chars)` : shown}`;
    })
    .join("\n");
  const body = request.body
    ? `\n  body (${request.bodyKind}, ${request.body.length} bytes): ${JSON.stringify(request.body.subarray(0, 300).toString("latin1"))}${request.body.length > 300 ? "…" : ""}`
    : "";
  const path = request.path.length > 300 ? `${request.path.slice(0, 300)}… (${request.path.length} chars)` : request.path;
  return `seed ${request.seed} (0x${request.seed.toString(16)}) → ${request.target}\n  ${request.method} ${path}\n${headers}${body}`;
}

export function describeOutcome(outcome: Outcome): string {
  const answer =
    outcome.status === undefined
      ? `no answer after ${outcome.ms} ms: ${outcome.error}`
      : `${outcome.status} in ${outcome.ms} ms: ${JSON.stringify(outcome.snippet.slice(0, 300))}`;
  return `${describeRequest(outcome.request)}\n  → ${answer}`;
}

function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** What a failure looks like from outside, to group many failures into few causes. */
export function signature(outcome: Outcome): string {
  const { request } = outcome;
  const badHost = "Host" in request.headers ? " bad-Host" : "";
  const type = request.headers["Content-Type"]?.split(";", 1)[0].toLowerCase() ?? "no type";
  const body = request.body ? ` ${request.bodyKind} (${type})` : "";
  return `${outcome.status} ${request.target} ${request.method}${body}${badHost}`;
}

export function formatReport(report: Report): string {
  const classes = ["1xx", "2xx", "3xx", "4xx", "5xx", "error"];
  const line = (counts: Record<string, number>) => classes.map((kind) => String(counts[kind] ?? 0).padStart(6)).join("");
  const rows = Object.entries(report.byTarget)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([target, counts]) => `${target.padEnd(56)}${line(counts)}`);
  return [
    `Fuzz: ${report.requests} requests, seed ${report.seed} (0x${report.seed.toString(16)}), ${(report.ms / 1000).toFixed(1)} s`,
    `${"".padEnd(56)}${classes.map((kind) => kind.padStart(6)).join("")}`,
    `${"all".padEnd(56)}${line(report.byClass)}`,
    ...rows,
    "",
    `${report.failures.length} answers ≥ 500${report.failures.length ? ", by signature:" : ""}`,
    ...Object.entries(tally(report.failures.map(signature)))
      .sort(([, a], [, b]) => b - a)
      .map(([key, count]) => `${String(count).padStart(6)}  ${key}`),
    "",
    ...report.failures.map(describeOutcome),
    ...(report.errors.length
      ? ["", `${report.errors.length} requests without an answer:`, ...report.errors.slice(0, 20).map(describeOutcome)]
      : []),
    "",
    `/healthz, asked ${report.healthz.probes} times through the run: slowest answer ${report.healthz.worstMs} ms, ${report.healthz.failures} not 200`,
    report.longestRender
      ? `Longest render: ${report.longestRender.renderMs} ms, seed ${report.longestRender.request.seed} ${report.longestRender.request.method} ${report.longestRender.request.path.slice(0, 120)}`
      : "No page rendered",
    "",
    "Slowest:",
    ...report.slowest.map(
      (outcome) => `  ${outcome.ms} ms  seed ${outcome.request.seed} ${outcome.request.method} ${outcome.request.path.slice(0, 120)}`,
    ),
  ].join("\n");
}
