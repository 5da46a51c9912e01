/**
 * An execution's progress (issue 12 "Progress without JS"): one ordered list, queued, each transaction, then
 * the outcome, with the current row marked in words and by aria-current, never by colour alone; and a live
 * status line that screen readers announce as the page updates.
 */
import type { ExecutionView, ProgressRow, RowState } from "./execution-view";

const STATE_CLASS: Record<RowState, string> = {
  done: "border-emerald-700",
  active: "border-spark-400",
  waiting: "border-space-700 text-slate-300",
  failed: "border-red-700",
};

function Row({ row }: { row: ProgressRow }) {
  return (
    <li
      aria-current={row.current ? "step" : undefined}
      className={`rounded-md border px-3 py-2 text-sm ${STATE_CLASS[row.state]}`}
      data-testid="progress-step"
    >
      <p>
        {row.current && (
          <>
            <span className="rounded bg-space-800 px-1.5 py-0.5 text-xs font-semibold text-white">Now</span>{" "}
          </>
        )}
        <span className="font-semibold text-white">{row.label}</span>
        {row.detail && `: ${row.detail}`}
      </p>
      {row.txHash && (
        <p className="mt-1 break-all font-mono text-xs text-slate-300">
          Transaction {row.txHash}
          {row.blockNumber && `, block ${row.blockNumber}`}
        </p>
      )}
    </li>
  );
}

export function ExecutionProgress({ view }: { view: Pick<ExecutionView, "rows" | "statusText" | "final"> }) {
  return (
    <div className="flex flex-col gap-3">
      <p role="status" aria-live="polite" className="font-semibold text-white" data-testid="execution-status">
        {view.statusText}
      </p>
      <ol className="flex flex-col gap-2" aria-label="Progress">
        {view.rows.map((row) => (
          <Row key={row.key} row={row} />
        ))}
      </ol>
      {!view.final && <p className="muted text-xs">This page updates by itself until the action is done.</p>}
    </div>
  );
}
