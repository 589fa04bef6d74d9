/**
 * What the AI may know, and nothing it may do: the read-only capabilities the AI domain is given, bound to
 * one caller. There is no write method here by design — the AI reads pipelines and runs the caller may read
 * and calls deterministic checks, and everything it produces is a proposal the user acts on. The service
 * builds the implementation (`src/server/ai-capabilities.ts`); a test checks that it offers exactly these
 * methods. Anything the caller may not read is NOT_FOUND, as everywhere in the service.
 */
import type { ApiFinding } from "../workflow/service.js";

/** The engine's verdict on a text: errors stop a run, warnings do not. */
export interface DraftValidation {
  valid: boolean;
  errors: ApiFinding[];
  warnings: ApiFinding[];
}

/** A saved pipeline as the AI sees it. */
export interface PipelineText {
  id: string;
  name: string;
  toml_content: string;
  revision: number;
}

/** A template the AI may suggest (its name enters prompts as a hint). */
export interface TemplateHint {
  name: string;
  description: string;
}

/** One rule of a pipeline, defaults applied. */
export interface RuleFacts {
  name: string;
  description: string | null;
  input: string[];
  output: string[];
  shell: string | null;
  threads: number;
  memory: string | null;
  environment: string;
  depends_on: string[];
}

/** A run's record as the AI sees it. */
export interface RunFacts {
  id: string;
  workflow: string;
  status: string;
  pipeline_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** One job of a run, as the job table shows it. */
export interface JobFacts {
  job: string;
  rule: string;
  status: string;
  exit_code: number | null;
  duration_ms: number | null;
}

/** A diagnosis of one failed job, from the deterministic rule engine (the same as GET …/diagnostics). */
export interface FailureDiagnosis {
  rule: string | null;
  job: string | null;
  exit_code: number | null;
  pattern: string;
  category: string;
  likely_cause: string;
  suggestions: string[];
  log_excerpt: string[];
}

/** A result file of a run: its path inside the run's workspace and size. */
export interface ResultFacts {
  path: string;
  size_bytes: number;
}

/** Read-only capabilities, bound to the caller of the request. */
export interface AiReader {
  /** Built-in and visible templates, names and descriptions. */
  templates(): Promise<TemplateHint[]>;
  /** A saved pipeline the caller may read. */
  pipeline(id: string): Promise<PipelineText>;
  /** The engine's validation (lint included) of a text; a text that does not parse is a result with PARSE_ERROR. */
  validate(text: string): Promise<DraftValidation>;
  /** The rules of a text as the engine reads them (defaults applied); an error for a text that does not parse. */
  rules(text: string): Promise<RuleFacts[]>;
  /** The rule graph of a text: rules and the edges between them. */
  graph(text: string): Promise<{ nodes: { rule: string }[]; edges: { from: string; to: string }[] }>;
  /** A run the caller may read. */
  run(id: string): Promise<RunFacts>;
  /** A page of the run's jobs (failed ones first when asked). */
  runJobs(id: string, query?: { status?: "failed" | "completed" | "running" | "queued" | "skipped"; limit?: number }): Promise<{ items: JobFacts[]; total: number }>;
  /** The deterministic diagnosis of the run's failures. */
  runDiagnostics(id: string): Promise<{ failures: FailureDiagnosis[] }>;
  /** The last lines of one job's stderr or stdout (bounded). */
  jobLogTail(id: string, job: string, stream: "stderr" | "stdout", lines: number): Promise<string[]>;
  /** The command a job ran, rendered by the engine from the run's own pipeline, or null when it cannot be found. */
  jobCommand(id: string, job: string): Promise<string | null>;
  /** The run's declared outputs that exist, with sizes. */
  runResults(id: string): Promise<ResultFacts[]>;
  /** The first bytes of one result file of the run, as text (null when it is not a readable text or gzip text file). */
  resultHead(id: string, path: string, bytes: number): Promise<string | null>;
  /** Per-rule job durations of the caller's earlier runs of a saved pipeline, newest first (bounded). */
  pipelineHistory(pipelineId: string, runs: number): Promise<{ run_id: string; status: string; rules: { rule: string; jobs: number; duration_ms: number | null }[] }[]>;
}

/** The names of every capability: the test of the trust boundary compares the implementation against it. */
export const READER_METHODS = [
  "templates",
  "pipeline",
  "validate",
  "rules",
  "graph",
  "run",
  "runJobs",
  "runDiagnostics",
  "jobLogTail",
  "jobCommand",
  "runResults",
  "resultHead",
  "pipelineHistory",
] as const satisfies readonly (keyof AiReader)[];
