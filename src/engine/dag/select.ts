/**
 * Choosing part of the graph: `-t` targets (an exact job name, else every job whose name starts with the
 * text, plus everything upstream) and `--module` (an include module's jobs plus the producers of its
 * declared inputs).
 */
import { nearestKey } from "../nearest-key.js";
import { EngineError } from "../findings.js";
import type { Module } from "../format/model.js";
import { closure, type JobGraph } from "./graph.js";

export interface Selection {
  targets?: string[];
  module?: string;
  /** `--until RULE`: only the jobs of these rules (exact names) and what they need; intersected with the rest. */
  until?: string[];
}

/** The jobs a selection keeps, as a mask; undefined when nothing is selected (keep everything). */
export function selectJobs(graph: JobGraph, selection: Selection, modules: Module[]): Uint8Array | undefined {
  const { targets = [], module, until = [] } = selection;
  if (targets.length === 0 && !module) return until.length > 0 ? untilJobs(graph, until) : undefined;
  const keep = new Uint8Array(graph.jobs.length);
  if (targets.length > 0) {
    const upstream = closure(graph, targets.flatMap((target) => targetJobs(graph, target)), "upstream");
    upstream.forEach((kept, i) => (keep[i] = kept));
  }
  if (module) {
    const found = modules.filter((candidate) => candidate.name === module);
    if (found.length === 0) {
      const names = [...new Set(modules.map((candidate) => candidate.name))];
      throw new EngineError("TARGET_ERROR", `--module ${module}: no include module of that name`, {
        suggestion: names.length > 0 ? `modules: ${names.join(", ")}` : "this workflow has no [[include]] modules",
      });
    }
    const members = new Set(found.flatMap((candidate) => candidate.rules));
    const inputs = new Set(found.flatMap((candidate) => candidate.inputs));
    graph.jobs.forEach((job, i) => {
      if (members.has(job.template) || job.output.paths.some((path) => inputs.has(path))) keep[i] = 1;
    });
  }
  if (until.length > 0) {
    // -t or --module choose what to make; --until stops at its rules: keep what both allow.
    const limit = untilJobs(graph, until);
    keep.forEach((kept, i) => (keep[i] = kept & limit[i]!));
  }
  return keep;
}

/** The jobs of the `--until` rules and everything upstream of them; an unknown rule is a TARGET_ERROR naming the nearest. */
function untilJobs(graph: JobGraph, rules: string[]): Uint8Array {
  const names = [...new Set(graph.jobs.map((job) => job.template))];
  const start: number[] = [];
  for (const rule of rules) {
    const jobs = graph.jobs.flatMap((job, i) => (job.template === rule ? [i] : []));
    if (jobs.length === 0) throw unknownRule("--until", rule, names);
    start.push(...jobs);
  }
  return closure(graph, start, "upstream");
}

/** The error for a rule name that names no rule of the graph, with the nearest name as the hint. */
export function unknownRule(flag: string, rule: string, names: readonly string[]): EngineError {
  const near = nearestKey(rule, names);
  return new EngineError("TARGET_ERROR", `${flag} ${rule}: no rule of that name has jobs`, {
    suggestion: near ? `did you mean ${near}?` : `rules: ${names.slice(0, 30).join(", ")}${names.length > 30 ? ", …" : ""}`,
  });
}

function targetJobs(graph: JobGraph, target: string): number[] {
  const exact = graph.jobs.findIndex((job) => job.name === target);
  if (exact >= 0) return [exact];
  const matches = graph.jobs.flatMap((job, i) => (job.name.startsWith(target) ? [i] : []));
  if (matches.length === 0) {
    const names = [...new Set(graph.jobs.map((job) => job.template))];
    throw new EngineError("TARGET_ERROR", `target '${target}' matches no rule`, {
      suggestion: `rules: ${names.slice(0, 30).join(", ")}${names.length > 30 ? ", …" : ""}`,
    });
  }
  return matches;
}
