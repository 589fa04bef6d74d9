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

/** What each fatal code means, for the finding-code reference (a code above without a meaning does not compile). */
export const FATAL_CODE_MEANING: { readonly [C in (typeof FATAL_CODES)[number]]: string } = {
  PARSE_ERROR: "the file is not valid TOML (or not valid UTF-8); the line and column are given",
  SCHEMA_ERROR: "a key has the wrong type, a required table or key is missing, or two rules share a name",
  INCLUDE_ERROR: "an `[[include]]` cannot be read: a missing file, a repository without a pinned `ref`, a clone that failed, or includes nested too deep",
  SOURCE_ERROR: "a samples or pairs file cannot be read (missing, an unknown extension, a missing column), or a `sample_pattern` without `{sample}`",
  CONFIG_ERROR: "a config override or `--configfile` is invalid: an unknown key, a value of the wrong type, a file that does not load",
  REFERENCE_ERROR: "a `[[references]]` entry is invalid: an unknown template or a missing field",
  EXPAND_ERROR: "the rules cannot be expanded into jobs: a reserved or duplicate `[[values]]` name, a `gather` naming no rule, a transform it cannot build, two jobs with one name",
  DAG_ERROR: "the job graph has a cycle (its path is shown)",
  TARGET_ERROR: "a `-t`, `--until`, `-R` or `--module` names no rule or module that has jobs",
  LIMIT_ERROR: "the pipeline is bigger than the engine's limits: jobs or dependencies, a file's size (the pipeline, an include, a samples file over 50 MiB), table nesting, files a glob looks at",
  USAGE_ERROR: "the command line is wrong: an unknown option, a missing value; exit code 2",
  IO_ERROR: "a file the engine must read or write cannot be (permissions, a full disk)",
  ENV_ERROR: "an environment cannot be set up: the conda, pixi or container tool is missing, or its set-up failed",
  DATA_ERROR: "a data helper cannot read the files or folder it was given",
  PLUGIN_ERROR: "a plugin manifest or its signature is invalid",
  CLUSTER_ERROR: "the scheduler cannot be used: its commands are missing, a submission failed, or `[cluster]` is invalid",
  CLUSTER_DIRECTIVE: "a scheduler directive value (queue, account, extra arguments) holds characters that would break the job script",
  SERVICE_ERROR: "`strand serve` cannot start: a bad setting, a port in use, a database it cannot open",
  REENTRY_ERROR: "a checkpoint rule's manifest cannot be used for re-entry (missing, not TOML, conflicting samples)",
  BUDGET_ERROR: "a job needs more threads or memory than `--max-threads` or `--max-memory` allows, so it could never start",
  UNSAFE_VALUE: "a sample name, file name or config value that reaches a shell command holds shell metacharacters",
  LOCKED: "another run is working in this folder (its host and pid are named; `strand unlock` clears a stale lock)",
};

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
