/**
 * Temporary outputs after a run (docs/reference/pipeline-format.md §5.7 and
 * docs/reference/pipeline-format.md, decision 4), when the run ends. `temporary = true`: after a run in which
 * nothing failed, the outputs of a temporary job whose consumers all completed are deleted. `temp_output` paths
 * are deleted once every consumer of the job has completed, failures elsewhere or not (and, in the job runner,
 * when the job fails). A job without consumers keeps them. Deleted outputs are tombstoned in the checkpoint, so
 * their absence alone never re-runs the job.
 */
import { rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Plan } from "./plan.js";
import type { TaskOutcome } from "./scheduler.js";

export interface Tombstone {
  job: string;
  paths: string[];
}

const DONE = new Set<TaskOutcome | "up-to-date">(["succeeded", "up-to-date"]);

/** Deletes what may be deleted and returns the tombstones to record. */
export function cleanTemporaryOutputs(plan: Plan, statuses: Map<number, TaskOutcome | "up-to-date">, runSucceeded: boolean): Tombstone[] {
  const { graph } = plan;
  const workdir = plan.pipeline.dir;
  const tombstones: Tombstone[] = [];
  for (const planned of plan.jobs) {
    const { job, index } = planned;
    const rule = job.rule;
    if (!rule.temporary && rule.temp_output.length === 0) continue;
    if (!DONE.has(statuses.get(index) ?? "skipped")) continue;
    let consumersDone = true;
    let consumers = 0;
    for (let k = graph.succStart[index]!; k < graph.succStart[index + 1]!; k++) {
      consumers++;
      if (!DONE.has(statuses.get(graph.succ[k]!) ?? "skipped")) consumersDone = false;
    }
    if (!consumersDone || consumers === 0) continue;
    const paths = new Set<string>();
    if (rule.temporary && runSucceeded) for (const path of job.output.paths) paths.add(path);
    for (const path of rule.temp_output) {
      // temp_output entries are written like outputs; match them to this job's expanded outputs by position.
      const at = rule.output.paths.indexOf(path);
      paths.add(at >= 0 ? job.output.paths[at]! : path);
    }
    const deleted: string[] = [];
    for (const path of paths) {
      if (path.includes("{")) continue;
      try {
        rmSync(isAbsolute(path) ? path : join(workdir, path), { recursive: true, force: true });
        deleted.push(path);
      } catch {
        // left in place; it will simply be there next time
      }
    }
    if (deleted.length > 0) tombstones.push({ job: job.name, paths: deleted });
  }
  return tombstones;
}
