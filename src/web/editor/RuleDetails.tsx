/** The selected rule as the parse describes it: inputs, outputs, command, threads, memory, environment, dependencies. */
import type { ParsedRule } from "./pipeline-checks.js";

function paths(value: ParsedRule["input"]): string[] {
  return Array.isArray(value) ? value : Object.entries(value).map(([name, path]) => `${name} = ${path}`);
}

export function RuleDetails({ rule, onClose, onGoTo }: { rule: ParsedRule | undefined; onClose: () => void; onGoTo?: (line: number) => void }) {
  if (!rule) return null;
  const inputs = paths(rule.input);
  const outputs = paths(rule.output);
  return (
    <section className="editor-panel rule-details" aria-labelledby="rule-details-title">
      <header className="editor-panel-head">
        <h2 id="rule-details-title">
          Rule <span className="mono">{rule.name}</span>
        </h2>
        <span className="panel-actions">
          {rule.line !== undefined && onGoTo && (
            <button type="button" onClick={() => onGoTo(rule.line!)}>
              Go to definition
            </button>
          )}
          <button type="button" onClick={onClose} aria-label="Close rule details">
            ✕
          </button>
        </span>
      </header>
      {rule.description && <p className="rule-description">{rule.description}</p>}
      <dl className="rule-facts">
        <dt>Inputs</dt>
        <dd>{inputs.length ? <ul>{inputs.map((path) => <li key={path} className="mono">{path}</li>)}</ul> : <span className="muted">none</span>}</dd>
        <dt>Outputs</dt>
        <dd>{outputs.length ? <ul>{outputs.map((path) => <li key={path} className="mono">{path}</li>)}</ul> : <span className="muted">none</span>}</dd>
        {rule.depends_on.length > 0 && (
          <>
            <dt>Depends on</dt>
            <dd className="mono">{rule.depends_on.join(", ")}</dd>
          </>
        )}
        <dt>{rule.script ? "Script" : "Command"}</dt>
        <dd>
          <pre className="rule-command">{rule.shell ?? ""}{rule.shell && rule.script ? "\n" : ""}{rule.script ?? ""}{!rule.shell && !rule.script ? "(none)" : ""}</pre>
        </dd>
        <dt>Threads</dt>
        <dd>{rule.threads}</dd>
        <dt>Memory</dt>
        <dd>{rule.memory ?? <span className="muted">not set</span>}</dd>
        <dt>Environment</dt>
        <dd className="mono">{rule.environment}</dd>
        {rule.when && (
          <>
            <dt>When</dt>
            <dd className="mono">{rule.when}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
