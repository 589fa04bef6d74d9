/** The problems panel: every finding of the text, errors first; a row jumps to its place, a fix button applies a quick fix. */
import type { Finding } from "../api/workflow-tooling.js";

const SEVERITY_ICON = { error: "✕", warning: "!", info: "i" } as const;
const SEVERITY_NAME = { error: "Error", warning: "Warning", info: "Note" } as const;

export function ProblemsPanel({
  findings,
  checking,
  onJump,
  onFix,
  canFix,
}: {
  findings: Finding[];
  checking: boolean;
  onJump: (finding: Finding) => void;
  onFix: (finding: Finding) => void;
  canFix: (finding: Finding) => string | undefined;
}) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return (
    <section className="editor-panel problems-panel" aria-labelledby="problems-title">
      <header className="editor-panel-head">
        <h2 id="problems-title">Problems</h2>
        <span className="problem-counts" aria-live="polite">
          <span className="sev-error">{counts.error} errors</span> · <span className="sev-warning">{counts.warning} warnings</span> · <span className="sev-info">{counts.info} notes</span>
          {checking ? " · checking…" : ""}
        </span>
      </header>
      {findings.length === 0 ? (
        <p className="panel-empty">{checking ? "Checking…" : "No problems found. The graph and stats follow the text as you type."}</p>
      ) : (
        <ul className="problem-list" aria-label="Problems in the pipeline">
          {findings.map((finding, index) => {
            const fix = canFix(finding);
            const place = finding.line !== null ? `line ${finding.line}${finding.column !== null ? `:${finding.column}` : ""}` : "whole pipeline";
            return (
              <li key={`${finding.code}-${finding.line}-${finding.column}-${index}`} className={`problem sev-${finding.severity}`}>
                <button type="button" className="problem-jump" onClick={() => onJump(finding)} title="Go to the place in the text">
                  <span className="problem-icon" aria-hidden="true">
                    {SEVERITY_ICON[finding.severity]}
                  </span>
                  <span className="visually-hidden">{SEVERITY_NAME[finding.severity]}</span>
                  <span className="problem-code">{finding.code}</span>
                  <span className="problem-text">
                    {finding.message}
                    {finding.suggestion ? <span className="problem-suggestion"> — {finding.suggestion}</span> : null}
                  </span>
                  <span className="problem-place">{place}</span>
                </button>
                {fix && (
                  <button type="button" className="problem-fix" onClick={() => onFix(finding)}>
                    Quick fix: {fix}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
