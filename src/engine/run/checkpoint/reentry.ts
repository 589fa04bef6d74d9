/**
 * Checkpoint rules (docs/reference/pipeline-format.md §5.8): after a `checkpoint = true` job succeeds, its
 * `checkpoint_manifest` (TOML, `[reentry]` with `group`, `sample = [...]`, `pairs = [...]`) names new samples
 * and pairs. They are added to the pipeline, the rules are expanded again and the new jobs run in the same run.
 * Each round is kept in the checkpoint and replayed by later runs and dry-runs.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { parse } from "smol-toml";
import type { Job } from "../../expand/expand.js";
import { EngineError } from "../../findings.js";
import { injectSampleKeys } from "../../format/config.js";
import type { Reentry } from "./checkpoint.js";
import type { Pair, Pipeline } from "../../format/model.js";

export type { Reentry };

const NAME = /^[A-Za-z0-9._-]+$/;

/** Reads the manifest a checkpoint job wrote; a missing or unreadable manifest is an error that stops the run. */
export function readReentry(pipeline: Pipeline, job: Job, round: number): Reentry {
  const manifest = job.rule.checkpoint_manifest!;
  const path = isAbsolute(manifest) ? manifest : join(pipeline.dir, manifest);
  let document: Record<string, unknown>;
  try {
    document = parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new EngineError("REENTRY_ERROR", `checkpoint job ${job.name}: cannot read its manifest ${manifest}: ${(error as Error).message}`, {
      rule: job.template,
      suggestion: "the checkpoint rule's command must write checkpoint_manifest, with a [reentry] table",
    });
  }
  const table = (document.reentry ?? {}) as Record<string, unknown>;
  const group = typeof table.group === "string" ? table.group : null;
  const samples = (Array.isArray(table.sample) ? table.sample : Array.isArray(table.samples) ? table.samples : []).map(String);
  for (const sample of samples) {
    if (!NAME.test(sample)) throw new EngineError("REENTRY_ERROR", `checkpoint job ${job.name}: sample name '${sample}' in ${manifest} contains characters other than letters, digits, '.', '_' and '-'`, { rule: job.template });
  }
  const pairs: Pair[] = [];
  for (const entry of Array.isArray(table.pairs) ? (table.pairs as Record<string, unknown>[]) : []) {
    const experiment = String(entry.experiment ?? entry.tumor ?? "");
    const control = entry.control ?? entry.normal;
    const pairId = String(entry.pair_id ?? "");
    if (!pairId || !experiment) throw new EngineError("E015", `checkpoint job ${job.name}: a pair in ${manifest} needs pair_id and experiment (or tumor)`, { rule: job.template });
    for (const name of [pairId, experiment, ...(control !== undefined ? [String(control)] : [])]) {
      if (!NAME.test(name)) throw new EngineError("REENTRY_ERROR", `checkpoint job ${job.name}: name '${name}' in ${manifest} contains unsafe characters`, { rule: job.template });
    }
    pairs.push({ pair_id: pairId, experiment, control: control !== undefined ? String(control) : undefined, metadata: {} });
  }
  return { round, rule: job.name, group, samples, pairs };
}

/** Adds re-entered samples and pairs to the pipeline and refreshes the injected sample keys. */
export function applyReentries(pipeline: Pipeline, reentries: readonly Reentry[]): void {
  if (reentries.length === 0) return;
  for (const reentry of reentries) {
    if (reentry.samples.length > 0) {
      const name = reentry.group ?? pipeline.sample_groups[0]?.name ?? "default";
      let group = pipeline.sample_groups.find((candidate) => candidate.name === name);
      if (!group) {
        group = { name, samples: [], metadata: {} };
        pipeline.sample_groups.push(group);
      }
      for (const sample of reentry.samples) if (!group.samples.includes(sample)) group.samples.push(sample);
    }
    for (const pair of reentry.pairs) {
      const existing = pipeline.pairs.find((candidate) => candidate.pair_id === pair.pair_id);
      if (!existing) {
        pipeline.pairs.push(pair);
        continue;
      }
      if (existing.experiment !== pair.experiment || (existing.control ?? "") !== (pair.control ?? "")) {
        throw new EngineError("E016", `re-entry round ${reentry.round}: pair '${pair.pair_id}' is already defined with different samples`, {
          suggestion: "give the new pair its own pair_id",
        });
      }
    }
  }
  injectSampleKeys(pipeline.config, pipeline.sample_groups, pipeline.pairs, null, pipeline.injectedConfig);
}
