/** Per-rule progress: a bar of each rule's jobs by state, its counts, state and time. */
import { formatCount, formatDuration } from "../components/formatting.js";
import type { RunStatusView } from "../api/runs.js";

export function RuleProgress({ nodes, selected, onSelect }: { nodes: RunStatusView["nodes"]; selected?: string; onSelect: (rule: string | undefined) => void }) {
  if (nodes.length === 0) return <p className="muted">No rules have jobs yet: the engine is planning the run.</p>;
  return (
    <ul className="rule-progress" aria-label="Progress by rule">
      {nodes.map((node) => {
        const { total, completed, failed, running, skipped } = node.jobs;
        const part = (count: number) => `${total > 0 ? (100 * count) / total : 0}%`;
        const label = `${node.rule}: ${completed} of ${total} completed${failed ? `, ${failed} failed` : ""}${running ? `, ${running} running` : ""}${skipped ? `, ${skipped} skipped` : ""}`;
        return (
          <li key={node.rule} className={selected === node.rule ? "selected" : undefined}>
            <button type="button" className="rule-progress-name" aria-pressed={selected === node.rule} onClick={() => onSelect(selected === node.rule ? undefined : node.rule)} title="Show this rule's jobs">
              {node.rule}
            </button>
            <span className={`badge badge-${node.status}`}>{node.status.replace("_", " ")}</span>
            <span
              className="progress"
              role="progressbar"
              aria-label={label}
              aria-valuemin={0}
              aria-valuemax={total}
              aria-valuenow={completed + skipped + failed}
              aria-valuetext={label}
            >
              <span className="progress-ok" style={{ width: part(completed) }} />
              <span className="progress-skip" style={{ width: part(skipped) }} />
              <span className="progress-bad" style={{ width: part(failed) }} />
              <span className="progress-run" style={{ width: part(running) }} />
            </span>
            <span className="rule-progress-count mono">
              {formatCount(completed + skipped)}/{formatCount(total)}
              {failed ? <span className="failed"> · {formatCount(failed)} failed</span> : null}
            </span>
            <span className="muted rule-progress-time">{formatDuration(node.duration_ms)}</span>
          </li>
        );
      })}
    </ul>
  );
}
