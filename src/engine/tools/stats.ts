/**
 * `stats`: the size and shape of a pipeline — rules by kind, the dependencies and levels of the rule graph,
 * environments, threads, wildcards, and how many jobs it expands to.
 */
import { buildGraph } from "../dag/graph.js";
import { expandPipeline } from "../expand/expand.js";
import type { Pipeline } from "../format/model.js";
import { effectiveEnvironment, effectiveThreads, environmentKind } from "../format/rule-settings.js";
import { samplesInOrder } from "../format/sample-sources.js";

export interface PipelineStats {
  rules: number;
  /** Jobs after expansion (samples, pairs, values, scatter, transform). */
  jobs: number;
  shell_rules: number;
  script_rules: number;
  /** Edges of the rule graph (before expansion). */
  dependencies: number;
  levels: number;
  max_depth: number;
  environments: string[];
  total_threads: number;
  wildcard_names: string[];
  samples: number;
  pairs: number;
}

/** Computes the statistics of a loaded pipeline. */
export function pipelineStats(pipeline: Pipeline): PipelineStats {
  const graph = buildGraph(expandPipeline(pipeline, "template"));
  const jobs = expandPipeline(pipeline, "plan").jobs.length;
  const environments = new Set<string>();
  const wildcards = new Set<string>();
  let totalThreads = 0;
  for (const rule of pipeline.rules) {
    const kind = environmentKind(effectiveEnvironment(rule, pipeline.defaults));
    if (kind !== "system") environments.add(kind);
    totalThreads += effectiveThreads(rule, pipeline.defaults);
    for (const path of [...rule.input.paths, ...rule.output.paths]) for (const match of path.matchAll(/\{(\w+)\}/g)) wildcards.add(match[1]!);
  }
  return {
    rules: pipeline.rules.length,
    jobs,
    shell_rules: pipeline.rules.filter((rule) => rule.shell !== undefined).length,
    script_rules: pipeline.rules.filter((rule) => rule.script !== undefined).length,
    dependencies: graph.edges.count,
    levels: graph.levelCount,
    max_depth: Math.max(0, graph.levelCount - 1),
    environments: [...environments].sort(),
    total_threads: totalThreads,
    wildcard_names: [...wildcards].sort(),
    samples: samplesInOrder(pipeline.sample_groups, pipeline.pairs).length,
    pairs: pipeline.pairs.length,
  };
}
