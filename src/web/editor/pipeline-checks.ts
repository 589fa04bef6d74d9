/**
 * The editor's live checks of the text being written: validate first (it answers 200 even for text that does
 * not parse, with the parse error at its line), then — only for text that parses, so the service is never
 * asked for what it would refuse — lint, parse, graph and stats. TanStack queries keyed by the text: an
 * answer belongs to the text it was asked for, a newer text's query replaces (and cancels) the older one,
 * so a slow, stale answer can never overwrite a newer one.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { checkQuery, validationQuery, type DagResult, type Finding, type ParseResult, type PipelineStats, type TextAnswer } from "../api/workflow-tooling.js";

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

/** Everything the service has said so far about one text (parts arrive one by one). */
export interface PipelineCheck {
  text: string;
  valid: boolean;
  /** Validation and lint findings together, each once. */
  findings: Finding[];
  /** Whether the text parsed (a PARSE_ERROR finding says where it did not). */
  parsed: boolean;
  /** Whether lint has answered too (its findings are in `findings`). */
  linted: boolean;
  parse?: ParseResult;
  dag?: DagResult;
  stats?: PipelineStats;
  /** Why there is no graph for a text that parsed (a cycle, a refusal). */
  graphProblem?: string;
}

function findingKey(finding: Finding): string {
  return `${finding.code}|${finding.line ?? ""}|${finding.column ?? ""}|${finding.message}`;
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

/**
 * The checks of `text`. Validate and lint follow the text ~400 ms after typing pauses (the markers); parse,
 * graph and stats after a longer pause (1 s), since the service allows each client a limited number of
 * requests a minute (SERVICE_RATE_LIMIT, 100 by default) and five requests at every short pause would spend
 * it in a minute of typing. All but validate are asked only once validate says the text parses, each shown
 * as soon as it answers. While a newer text is checked the previous answers stay shown; a 429 is retried
 * after the time the service names.
 */
export function usePipelineChecks(text: string | undefined): { check: PipelineCheck | undefined; checking: boolean; refused?: Error } {
  const settled = useDebouncedValue(text, 400);
  const structureText = useDebouncedValue(text, 1_000);
  const validation = useQuery(validationQuery(settled));
  // Only for the text validate has answered about, and only when it parses (the service would refuse the rest).
  const checked = validation.data && validation.data.text === settled ? validation.data : undefined;
  const errorCodes = new Set(checked?.value.errors.map((finding) => finding.code));
  const parses = checked !== undefined && !errorCodes.has("PARSE_ERROR");
  const acyclic = parses && !errorCodes.has("E006");
  const structural = parses && structureText === settled;
  const lint = useQuery(checkQuery("lint", settled, parses));
  const parse = useQuery(checkQuery("parse", settled, structural));
  const dag = useQuery(checkQuery("dag", settled, structural && acyclic));
  const stats = useQuery(checkQuery("stats", settled, structural && acyclic));

  const shown = validation.data;
  const sameText = <T,>(answer: TextAnswer<T> | undefined) => (answer !== undefined && answer.text === shown?.text ? answer : undefined);
  const lintAnswer = sameText(lint.data);
  const parseAnswer = sameText(parse.data);
  const dagAnswer = sameText(dag.data);
  const statsAnswer = sameText(stats.data);
  const check = useMemo<PipelineCheck | undefined>(() => {
    if (!shown) return undefined;
    const findings = new Map<string, Finding>();
    const lintValue = lintAnswer?.value;
    for (const finding of [...shown.value.errors, ...shown.value.warnings, ...(lintValue?.errors ?? []), ...(lintValue?.warnings ?? []), ...(lintValue?.info ?? [])]) findings.set(findingKey(finding), finding);
    const cycle = shown.value.errors.find((finding) => finding.code === "E006");
    return {
      text: shown.text,
      valid: shown.value.valid && (lintValue?.valid ?? true),
      findings: [...findings.values()],
      parsed: !shown.value.errors.some((finding) => finding.code === "PARSE_ERROR"),
      linted: lintAnswer !== undefined,
      parse: parseAnswer?.value,
      dag: dagAnswer?.value,
      stats: statsAnswer?.value,
      graphProblem: cycle ? cycle.message : dagAnswer?.problem,
    };
  }, [shown, lintAnswer, parseAnswer, dagAnswer, statsAnswer]);
  // True while the text typed last has no full answer yet (waiting for the pause, or asking).
  const checking = text !== settled || validation.isFetching || lint.isFetching || parse.isFetching || dag.isFetching || stats.isFetching;
  // The service refusing to check (too many requests, unreachable): said in the toolbar, the last answers stay.
  const refused = validation.error ?? validation.failureReason ?? lint.failureReason ?? dag.failureReason;
  return { check, checking, refused: refused ?? undefined };
}
