/**
 * Choosing part of the graph: `-t` targets (an exact job name, else every job whose name starts with the
 * text, plus everything upstream) and `--module` (an include module's jobs plus the producers of its
 * declared inputs).
 */
import { EngineError } from "../findings.js";
import type { Module } from "../format/model.js";
import { closure, type JobGraph } from "./graph.js";

export interface Selection {
  targets?: string[];
  module?: string;
}

/** The jobs a selection keeps, as a mask; undefined when nothing is selected (keep everything). */
export function selectJobs(graph: JobGraph, selection: Selection, modules: Module[]): Uint8Array | undefined {
  const { targets = [], module } = selection;
  if (targets.length === 0 && !module) return undefined;
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
  return keep;
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
