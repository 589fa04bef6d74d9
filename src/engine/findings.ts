/**
 * Findings and engine errors: the one place where coded problems are created.
 *
 * A finding is what `validate`, `lint` and the service's tooling endpoints report. A fatal problem while
 * loading or planning is thrown as an `EngineError`, which carries the same fields, so every caller turns
 * it into output in one way.
 */

export type Severity = "error" | "warning" | "info";

/**
 * Every code of a problem that stops the engine (loading, planning, running); an EngineError takes only
 * these or a check's E code, so a new code is added here or does not compile.
 */
export const FATAL_CODES = [
  "PARSE_ERROR",
  "SCHEMA_ERROR",
  "INCLUDE_ERROR",
  "SOURCE_ERROR",
  "CONFIG_ERROR",
  "REFERENCE_ERROR",
  "EXPAND_ERROR",
  "DAG_ERROR",
  "TARGET_ERROR",
  "LIMIT_ERROR",
  "USAGE_ERROR",
  "IO_ERROR",
  "ENV_ERROR",
  "DATA_ERROR",
  "PLUGIN_ERROR",
  "CLUSTER_ERROR",
  "CLUSTER_DIRECTIVE",
  "SERVICE_ERROR",
  "REENTRY_ERROR",
  "BUDGET_ERROR",
  "UNSAFE_VALUE",
  "LOCKED",
] as const;

/** A code for a problem that stops loading, planning or running (the E/W codes of checks are strings like "E003"). */
export type FatalCode = (typeof FATAL_CODES)[number];

/** A validate error code (`E001` …), thrown when a check's error stops planning. */
export type CheckErrorCode = `E${number}`;

/** What an EngineError's code can be. */
export type EngineErrorCode = FatalCode | CheckErrorCode;

/** A position in a source file; line and column count from 1. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** One reported problem, with where it is and how to fix it. */
export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  rule: string | null;
  suggestion: string | null;
  line: number | null;
  column: number | null;
  /** The file the position refers to (an included module, a samples file, or the workflow itself). */
  file: string | null;
}

/** A problem that stops loading or planning. */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly finding: Finding;

  constructor(code: EngineErrorCode, message: string, options: FindingOptions = {}) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.finding = makeFinding(code, "error", message, options);
  }
}

export interface FindingOptions {
  rule?: string | null;
  suggestion?: string | null;
  at?: SourcePosition | null;
}

/** Builds a finding; the single constructor used by every check. */
export function makeFinding(code: string, severity: Severity, message: string, options: FindingOptions = {}): Finding {
  return {
    code,
    severity,
    message,
    rule: options.rule ?? null,
    suggestion: options.suggestion ?? null,
    line: options.at?.line ?? null,
    column: options.at?.column ?? null,
    file: options.at?.file ?? null,
  };
}

/** Formats a finding's location as `file:line:column` (or as much of it as is known). */
export function formatLocation(finding: Pick<Finding, "file" | "line" | "column">): string {
  if (!finding.file) return "";
  if (finding.line == null) return finding.file;
  return `${finding.file}:${finding.line}${finding.column != null ? `:${finding.column}` : ""}`;
}

/** True when an unknown thrown value is an EngineError (also across module copies). */
export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}
