/**
 * Failure diagnosis (for `GET /api/runs/{id}/diagnostics` and run reports): one diagnosis per failed job, read from the
 * run's event log and the failed job's own stderr (never the whole run's output).
 *
 * Precedence, for each failure: a pattern whose text matched *and* whose exit codes include the job's
 * exit code, then a pattern whose text matched, then a pattern the exit code alone implies, then the
 * `unknown_error` fallback, which every failure gets when nothing else fits. Within one level the pattern
 * listed first in DIAGNOSIS_PATTERNS wins. "Text" is the stderr tail (last 64 KiB) plus the engine's error
 * text for the job; engine patterns look at the engine's text (and its error code) only.
 *
 * A run that fails before any job (the pipeline does not load, the workdir is locked, a reference build
 * fails…) has no job_failed event, only `run_finished` with an error: that becomes one failure with
 * `rule` and `job` null, diagnosed from the error text and `error_code`.
 */
import type { RunEvent } from "../event-log.js";
import { DIAGNOSIS_PATTERNS, UNKNOWN_ERROR, type DiagnosisCategory, type DiagnosisPattern } from "./diagnosis-patterns.js";

/** How much of a job's stderr is searched: the end of the log is where a failure reports itself. */
export const STDERR_TAIL_CHARS = 64 * 1024;
const EXCERPT_LINES = 10;
const MAX_LINE_CHARS = 500;
const MAX_CAPTURE_CHARS = 200;
/** How the job runner words a failed attempt before quoting the last stderr line. */
const ENGINE_PREFIX = /^(?:exit code -?\d+|killed by SIG\w+): (.+)$/;
/** Bottleneck thresholds (see diagnoseRun). */
const MEMORY_SHARE = 0.8;
const TIME_SHARE = 0.5;
const MIN_BOTTLENECK_MS = 5000;

/** What is known about one failure. `error` is the engine's text for it, `error_code` the run's engine error code. */
export interface FailureEvidence {
  rule: string | null;
  job: string | null;
  exit_code: number | null;
  stderr: string;
  error?: string;
  error_code?: string;
}

export interface FailureDiagnosis {
  rule: string | null;
  job: string | null;
  exit_code: number | null;
  /** The pattern id, e.g. `command_not_found`; `unknown_error` when nothing matched. */
  pattern: string;
  category: DiagnosisCategory;
  likely_cause: string;
  suggestions: string[];
  /** The matching stderr lines with context, else the last stderr lines; engine text is prefixed `[strand] `. */
  log_excerpt: string[];
}

/**
 * Something worth knowing that did not fail the run: an attempt that was retried, a failed job marked
 * `required = false`, a job cancelled because the run stopped, or an engine `warning` event. `pattern` is
 * the diagnosis of the attempt or job where there is one.
 */
export interface DiagnosticWarning {
  kind: "retried_attempt" | "non_required_failure" | "cancelled_job" | "engine_warning";
  job: string | null;
  rule: string | null;
  pattern: string | null;
  message: string;
}

/**
 * A job that used most of a limit: peak memory ≥ 80 % of its declared memory (`metric: "peak_memory_mb"`,
 * when the declared memory is known), or a job that took ≥ 50 % of the run's wall time and at least 5 s
 * (`metric: "duration_ms"`). `share` = value / limit.
 */
export interface Bottleneck {
  job: string;
  rule: string | null;
  metric: "peak_memory_mb" | "duration_ms";
  value: number;
  limit: number;
  share: number;
  message: string;
}

export interface Diagnostics {
  failures: FailureDiagnosis[];
  warnings: DiagnosticWarning[];
  bottlenecks: Bottleneck[];
}

export interface DiagnoseRunOptions {
  /**
   * The declared memory of a rule in MB. The engine's events carry each job's peak memory but not its
   * request, so memory bottlenecks need this (or a `memory_mb` field on the job event).
   */
  declaredMemoryMb?: (rule: string, job: string) => number | undefined;
}

interface Line {
  text: string;
  origin: "stderr" | "engine";
  /** For engine text like "exit code 1: <last stderr line>": the quoted stderr line, so anchored patterns see it. */
  quoted?: string;
}

interface PatternMatch {
  pattern: DiagnosisPattern;
  level: number;
  captures: Record<string, string>;
  /** Indices into the stderr lines that matched. */
  stderrHits: number[];
}

/** Diagnoses one failure: the single best pattern by the precedence above, with its text filled in. */
export function diagnoseFailure(evidence: FailureEvidence): FailureDiagnosis {
  const tail = stderrTail(lastAttempt(evidence.stderr));
  const stderrLines = toLines(tail, "stderr");
  const engineLines = toLines(evidence.error ?? "", "engine");
  const haystack = `${tail}\n${evidence.error ?? ""}`;

  let best: PatternMatch | undefined;
  for (const pattern of DIAGNOSIS_PATTERNS) {
    const match = matchPattern(pattern, stderrLines, engineLines, haystack, evidence);
    if (match && (!best || match.level < best.level)) best = match;
    if (best?.level === 1) break;
  }
  const chosen = best ?? { pattern: UNKNOWN_ERROR, level: 4, captures: {}, stderrHits: [] };
  const vars: Record<string, string> = {
    ...chosen.captures,
    rule: evidence.rule ? `rule '${evidence.rule}'` : "the rule",
    job: evidence.job ?? "the job",
    exit_code: evidence.exit_code === null ? "unknown" : String(evidence.exit_code),
  };
  return {
    rule: evidence.rule,
    job: evidence.job,
    exit_code: evidence.exit_code,
    pattern: chosen.pattern.id,
    category: chosen.pattern.category,
    likely_cause: fillIn(chosen.pattern.likely_cause, vars),
    suggestions: chosen.pattern.suggestions.map((text) => fillIn(text, vars)),
    log_excerpt: excerpt(stderrLines, engineLines, chosen.stderrHits),
  };
}

/**
 * Diagnoses a run from its event log. `readLog` returns a job's stderr log by path (undefined when it is
 * gone); only its last 64 KiB are read. Each job's last failure counts once; see the types for warnings
 * and bottlenecks. A completed run has no failures.
 */
export function diagnoseRun(events: RunEvent[], readLog: (path: string) => string | undefined, options: DiagnoseRunOptions = {}): Diagnostics {
  const failures: FailureDiagnosis[] = [];
  const warnings: DiagnosticWarning[] = [];
  const stderrPaths = new Map<string, string>();
  const finalFailures = new Map<string, RunEvent>();
  const finished: RunEvent[] = [];
  const referenceFailures: RunEvent[] = [];
  let runFinished: RunEvent | undefined;

  for (const event of events) {
    const job = text(event.job);
    switch (event.type) {
      case "job_started":
        if (job !== null && typeof event.stderr === "string") stderrPaths.set(job, event.stderr);
        break;
      case "job_retrying": {
        const diagnosis = diagnoseFailure({ rule: text(event.rule), job, exit_code: code(event.exit_code), stderr: "", error: text(event.error) ?? undefined });
        const attempt = typeof event.attempt === "number" && typeof event.attempts === "number" ? ` (attempt ${event.attempt} of ${event.attempts})` : "";
        warnings.push({ kind: "retried_attempt", job, rule: text(event.rule), pattern: diagnosis.pattern, message: `${job ?? "a job"} failed and was retried${attempt}: ${text(event.error) ?? diagnosis.likely_cause}` });
        break;
      }
      case "job_failed":
        if (job === null) break;
        // Re-inserting keeps the map in the order of each job's last failure.
        finalFailures.delete(job);
        finalFailures.set(job, event);
        finished.push(event);
        break;
      case "job_completed":
        if (job !== null) finalFailures.delete(job);
        finished.push(event);
        break;
      case "reference_build_failed":
        referenceFailures.push(event);
        break;
      case "warning":
        warnings.push({ kind: "engine_warning", job, rule: text(event.rule), pattern: null, message: text(event.message) ?? "" });
        break;
      case "run_finished":
        runFinished = event;
        break;
      default:
        break;
    }
  }

  for (const [job, event] of finalFailures) {
    const rule = text(event.rule);
    if (event.cancelled === true) {
      warnings.push({ kind: "cancelled_job", job, rule, pattern: null, message: `${job} was stopped before it finished: ${text(event.error) ?? "cancelled"}` });
      continue;
    }
    const path = text(event.stderr) ?? stderrPaths.get(job);
    const diagnosis = diagnoseFailure({ rule, job, exit_code: code(event.exit_code), stderr: path ? safeRead(readLog, path) : "", error: text(event.error) ?? undefined });
    if (event.required === false) {
      warnings.push({ kind: "non_required_failure", job, rule, pattern: diagnosis.pattern, message: `${job} failed but is not required (required = false): ${diagnosis.likely_cause}` });
    } else {
      failures.push(diagnosis);
    }
  }
  for (const event of referenceFailures) {
    failures.push(diagnoseFailure({ rule: null, job: `reference:${text(event.reference) ?? "?"}`, exit_code: code(event.exit_code), stderr: text(event.stderr_tail) ?? "", error: text(event.error) ?? undefined }));
  }
  const runError = text(runFinished?.error);
  // "a reference build failed" is only the run's summary of a failure already diagnosed above.
  if (runError !== null && !(referenceFailures.length > 0 && runError === "a reference build failed")) {
    failures.push(diagnoseFailure({ rule: null, job: null, exit_code: null, stderr: "", error: runError, error_code: text(runFinished?.error_code) ?? undefined }));
  }

  return { failures, warnings, bottlenecks: bottlenecks(finished, events, runFinished, options) };
}

function matchPattern(pattern: DiagnosisPattern, stderrLines: Line[], engineLines: Line[], haystack: string, evidence: FailureEvidence): PatternMatch | undefined {
  const exitMatched = evidence.exit_code !== null && (pattern.exit_codes?.includes(evidence.exit_code) ?? false);
  let textMatched = evidence.error_code !== undefined && (pattern.error_codes?.includes(evidence.error_code) ?? false);
  const stderrHits = new Set<number>();
  let captures: Record<string, string> | undefined;
  const searchStderr = pattern.source !== "engine";
  for (const regex of pattern.regex) {
    let last: RegExpExecArray | null = null;
    if (searchStderr) {
      for (const [index, line] of stderrLines.entries()) {
        const found = regex.exec(line.text);
        if (found) {
          stderrHits.add(index);
          last = found;
        }
      }
    }
    if (!last) {
      for (const line of engineLines) last = regex.exec(line.text) ?? (line.quoted !== undefined ? regex.exec(line.quoted) : null) ?? last;
    }
    if (last) {
      textMatched = true;
      captures ??= cleanCaptures(last.groups);
    }
  }
  if (textMatched && pattern.requires && !pattern.requires.test(haystack)) textMatched = false;
  if (textMatched && pattern.exit_code_required && !exitMatched) textMatched = false;
  const level = textMatched && exitMatched ? 1 : textMatched ? 2 : exitMatched && pattern.implied_by_exit_code ? 3 : 0;
  if (level === 0) return undefined;
  return { pattern, level, captures: textMatched ? (captures ?? {}) : {}, stderrHits: textMatched ? [...stderrHits].sort((a, b) => a - b) : [] };
}

function cleanCaptures(groups: Record<string, string | undefined> | undefined): Record<string, string> {
  const captures: Record<string, string> = {};
  for (const [name, value] of Object.entries(groups ?? {})) {
    const trimmed = value?.trim();
    if (trimmed) captures[name] = trimmed.length > MAX_CAPTURE_CHARS ? `${trimmed.slice(0, MAX_CAPTURE_CHARS)}…` : trimmed;
  }
  return captures;
}

/** `{name}`, `{name|fallback}` and `{name?prefix}` (prefix and value, or nothing); unknown names stay as written. */
function fillIn(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)(?:([|?])([^{}]*))?\}/g, (whole, name: string, operator: string | undefined, argument: string | undefined) => {
    const value = vars[name];
    if (operator === "?") return value ? `${argument}${value}` : "";
    if (value) return value;
    return operator === "|" ? (argument ?? "") : whole;
  });
}

/** Up to 10 lines: the matches with a little context, else the last stderr lines; engine text last, marked. */
function excerpt(stderrLines: Line[], engineLines: Line[], hits: number[]): string[] {
  const show = (line: Line): string => (line.origin === "engine" ? `[strand] ${line.text}` : line.text);
  if (hits.length > 0) {
    const last = hits[hits.length - 1]!;
    const nearby = hits.filter((index) => index >= last - 7);
    let start = Math.max(0, nearby[0]! - 2);
    const end = Math.min(stderrLines.length - 1, last + 2);
    if (end - start + 1 > EXCERPT_LINES) start = end - EXCERPT_LINES + 1;
    return stderrLines.slice(start, end + 1).map(show);
  }
  const engine = engineLines.slice(0, 2);
  return [...stderrLines.slice(-(EXCERPT_LINES - engine.length)), ...engine].map(show);
}

/** The output of the last attempt: earlier attempts of a retried job are warnings, not this failure's cause. */
function lastAttempt(stderr: string): string {
  const markers = [...stderr.matchAll(/^\[strand\] attempt \d+$/gm)];
  const last = markers.at(-1);
  return last?.index !== undefined ? stderr.slice(last.index + last[0].length + 1) : stderr;
}

function stderrTail(stderr: string): string {
  if (stderr.length <= STDERR_TAIL_CHARS) return stderr;
  const tail = stderr.slice(-STDERR_TAIL_CHARS);
  // The first line of a cut tail is a fragment.
  const newline = tail.indexOf("\n");
  return newline >= 0 ? tail.slice(newline + 1) : tail;
}

function toLines(textBlock: string, origin: Line["origin"]): Line[] {
  return textBlock
    .split("\n")
    .map((line) => line.replace(/\r$/, "").trimEnd())
    .filter((line) => line.trim() !== "")
    .map((line) => ({
      text: line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line,
      origin,
      quoted: origin === "engine" ? ENGINE_PREFIX.exec(line)?.[1] : undefined,
    }));
}

function bottlenecks(finished: RunEvent[], events: RunEvent[], runFinished: RunEvent | undefined, options: DiagnoseRunOptions): Bottleneck[] {
  const found: Bottleneck[] = [];
  const runMs = typeof runFinished?.duration_ms === "number" ? runFinished.duration_ms : wallTime(events);
  for (const event of finished) {
    const job = text(event.job);
    if (job === null || event.cancelled === true) continue;
    const rule = text(event.rule);
    const peak = typeof event.peak_memory_mb === "number" ? event.peak_memory_mb : undefined;
    const declared = typeof event.memory_mb === "number" ? event.memory_mb : rule !== null ? options.declaredMemoryMb?.(rule, job) : undefined;
    if (peak !== undefined && declared !== undefined && declared > 0 && peak >= MEMORY_SHARE * declared) {
      const share = peak / declared;
      found.push({ job, rule, metric: "peak_memory_mb", value: peak, limit: declared, share, message: `${job} peaked at ${Math.round(peak)} MB, ${Math.round(share * 100)} % of its declared ${Math.round(declared)} MB: raise resources.memory before the input grows` });
    }
    const duration = typeof event.duration_ms === "number" ? event.duration_ms : undefined;
    if (duration !== undefined && runMs !== undefined && runMs > 0 && duration >= MIN_BOTTLENECK_MS && duration >= TIME_SHARE * runMs) {
      const share = Math.min(1, duration / runMs);
      found.push({ job, rule, metric: "duration_ms", value: duration, limit: runMs, share, message: `${job} took ${(duration / 1000).toFixed(1)} s, ${Math.round(share * 100)} % of the run's wall time: more threads or splitting its input would shorten the run most` });
    }
  }
  return found;
}

function wallTime(events: RunEvent[]): number | undefined {
  if (events.length < 2) return undefined;
  const first = Date.parse(events[0]!.time);
  const last = Date.parse(events[events.length - 1]!.time);
  return Number.isFinite(first) && Number.isFinite(last) ? last - first : undefined;
}

function safeRead(readLog: (path: string) => string | undefined, path: string): string {
  try {
    return readLog(path) ?? "";
  } catch {
    return "";
  }
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function code(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
