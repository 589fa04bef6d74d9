/**
 * Findings of the service placed in the text: a finding's 1-based line and column become a CodeMirror
 * range (the word or string literal that starts there), and a suggestion that names a concrete replacement
 * ("did you mean 'align'?") becomes a quick fix that writes it.
 */
import type { Action, Diagnostic } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import type { Finding } from "../api/workflow-tooling.js";

/** Errors first, then warnings, then notes; by line within each. */
export function sortFindings(findings: Finding[]): Finding[] {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return [...findings].sort((a, b) => rank[a.severity] - rank[b.severity] || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** The document range a finding points at: the string literal or word at its line and column. */
export function findingRange(doc: Text, finding: Pick<Finding, "line" | "column">): { from: number; to: number } {
  const lineNumber = Math.min(Math.max(finding.line ?? 1, 1), doc.lines);
  const line = doc.line(lineNumber);
  const offset = Math.min(Math.max((finding.column ?? 1) - 1, 0), line.length);
  const from = line.from + offset;
  const rest = line.text.slice(offset);
  const literal = /^"(?:[^"\\]|\\.)*"|^'[^']*'/.exec(rest) ?? /^[\w.:-]+/.exec(rest);
  if (literal) return { from, to: from + literal[0].length };
  // No word there (a table header, the line's start): mark the line's content.
  const content = line.text.trimEnd();
  return content.length > offset ? { from, to: line.from + content.length } : { from, to: Math.min(from + 1, line.to) };
}

/** The replacement text a suggestion names, when it names exactly one. */
export function concreteReplacement(finding: Finding): string | undefined {
  const match = /did you mean ['"]([^'"]+)['"]\?/.exec(finding.suggestion ?? "");
  return match?.[1];
}

/** The edit a quick fix makes: the literal at the finding's place replaced, keeping its quotes. */
export function quickFixEdit(doc: Text, finding: Finding): { from: number; to: number; insert: string; label: string } | undefined {
  const replacement = concreteReplacement(finding);
  if (replacement === undefined || finding.line === null) return undefined;
  const { from, to } = findingRange(doc, finding);
  const current = doc.sliceString(from, to);
  const quote = current.startsWith('"') || current.startsWith("'") ? current[0]! : "";
  return { from, to, insert: `${quote}${replacement}${quote}`, label: `Replace with ${replacement}` };
}

/** The findings as CodeMirror diagnostics for `doc` (the text they were found in). */
export function toDiagnostics(doc: Text, findings: Finding[]): Diagnostic[] {
  return findings.map((finding) => {
    const { from, to } = findingRange(doc, finding);
    const fix = quickFixEdit(doc, finding);
    const actions: Action[] = fix
      ? [
          {
            name: fix.label,
            apply: (view, actionFrom, actionTo) => {
              // The diagnostic's range moves with edits since it was made; write at its current place.
              const current = view.state.sliceDoc(actionFrom, actionTo);
              const quote = current.startsWith('"') || current.startsWith("'") ? current[0]! : "";
              view.dispatch({ changes: { from: actionFrom, to: actionTo, insert: `${quote}${concreteReplacement(finding)}${quote}` } });
            },
          },
        ]
      : [];
    return {
      from,
      to,
      severity: finding.severity,
      source: finding.code,
      message: finding.suggestion ? `${finding.message} (${finding.suggestion})` : finding.message,
      actions,
    };
  });
}
