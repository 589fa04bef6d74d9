/**
 * The editor's live checks of the text being written: validate first (it answers 200 even for text that does
 * not parse, with the parse error at its line), then — only for text that parses, so the service is never
 * asked for a graph it would refuse — lint, parse, graph and stats together. One TanStack query per text:
 * an answer belongs to the text it was asked for, a newer text's query replaces (and cancels) the older one,
 * so a slow, stale answer can never overwrite a newer one.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, ApiError, dataOf } from "../api.js";
import type { components } from "../../client/api-types.js";

export type Finding = components["schemas"]["Finding"];
export type DagResult = components["schemas"]["DagResult"];
export type ParseResult = components["schemas"]["ParseResult"];

/** A rule as `POST /api/pipelines/parse` describes it. */
export interface ParsedRule {
  name: string;
  description: string | null;
  input: string[] | Record<string, string>;
  output: string[] | Record<string, string>;
  shell: string | null;
  script: string | null;
  threads: number;
  memory: string | null;
  environment: string;
  when: string | null;
  depends_on: string[];
  line?: number;
}

/** The figures of `POST /api/pipelines/stats`. */
export interface PipelineStats {
  rules: number;
  jobs: number;
  shell_rules: number;
  script_rules: number;
  dependencies: number;
  levels: number;
  max_depth: number;
  environments: string[];
  total_threads: number;
  wildcard_names: string[];
  samples: number;
  pairs: number;
}

/** Everything the service said about one text. */
export interface PipelineCheck {
  text: string;
  valid: boolean;
  /** Validation and lint findings together, each once. */
  findings: Finding[];
  /** Whether the text parsed (a PARSE_ERROR finding says where it did not). */
  parsed: boolean;
  parse?: ParseResult;
  dag?: DagResult;
  stats?: PipelineStats;
  /** Why there is no graph for a text that parsed (a cycle, …). */
  graphProblem?: string;
}

async function optional<T>(request: Promise<T>): Promise<{ value?: T; problem?: string }> {
  try {
    return { value: await request };
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return { problem: error instanceof ApiError ? error.message : String(error) };
  }
}

function findingKey(finding: Finding): string {
  return `${finding.code}|${finding.line ?? ""}|${finding.column ?? ""}|${finding.message}`;
}

/** Asks the service about `text`; `signal` cancels the requests when a newer text supersedes it. */
export async function checkPipeline(text: string, signal: AbortSignal): Promise<PipelineCheck> {
  const body = { toml_content: text };
  const validation = dataOf(await api.POST("/api/pipelines/validate", { body, signal }));
  const errorCodes = new Set(validation.errors.map((finding) => finding.code));
  const parsed = !errorCodes.has("PARSE_ERROR");
  const findings = new Map<string, Finding>();
  for (const finding of [...validation.errors, ...validation.warnings]) findings.set(findingKey(finding), finding);
  if (!parsed) return { text, valid: false, findings: [...findings.values()], parsed };
  // A cycle (E006) parses but has no graph: the service would refuse the graph and the stats.
  const acyclic = !errorCodes.has("E006");
  const [lint, parse, dag, stats] = await Promise.all([
    optional(api.POST("/api/pipelines/lint", { body, signal }).then(dataOf)),
    optional(api.POST("/api/pipelines/parse", { body, signal }).then(dataOf)),
    acyclic ? optional(api.POST("/api/pipelines/dag", { body: { ...body, limit: 20_000 }, signal }).then(dataOf)) : Promise.resolve({ value: undefined, problem: undefined }),
    acyclic ? optional(api.POST("/api/pipelines/stats", { body, signal }).then(dataOf)) : Promise.resolve({ value: undefined, problem: undefined }),
  ]);
  for (const finding of [...(lint.value?.errors ?? []), ...(lint.value?.warnings ?? []), ...(lint.value?.info ?? [])]) findings.set(findingKey(finding), finding);
  const cycle = validation.errors.find((finding) => finding.code === "E006");
  return {
    text,
    valid: validation.valid && (lint.value?.valid ?? true),
    findings: [...findings.values()],
    parsed,
    parse: parse.value,
    dag: dag.value,
    stats: stats.value as PipelineStats | undefined,
    graphProblem: cycle ? cycle.message : dag.problem,
  };
}

/** `value`, once it has stopped changing for `delay` milliseconds. */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The checks of `text` (debounced ~400 ms); while a newer text is checked the previous answer stays shown. */
export function usePipelineChecks(text: string | undefined) {
  const settled = useDebouncedValue(text, 400);
  const query = useQuery({
    queryKey: ["pipeline-check", settled],
    queryFn: ({ signal }) => checkPipeline(settled!, signal),
    enabled: settled !== undefined,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  /** True while the text typed last has no answer yet (waiting for the pause, or asking). */
  const checking = text !== settled || query.isFetching;
  return { query, checking };
}
