/**
 * The names jobs carry at a scheduler. A job's instance name holds its wildcard values (`align_PATIENT-0042`),
 * and a scheduler shows every job's name to everyone on the cluster (`squeue`, and a shared service's
 * `GET /api/hpc`), so sample names are never part of it. A run whose id was given (`--run-id`: a shared
 * service's runs) names its jobs `strand-<run id>-<n>`, which lets the service tell whose run a queued job
 * belongs to; a run someone starts by hand names them `<rule>-<n>`. `n` counts the run's submissions from 1;
 * the scheduler's job id ties a name to its job (the submission record, `job.id` in the job's folder and the
 * `job_started` event's `native_id`).
 */

/** The prefix of a shared service's scheduler jobs. */
export const SERVICE_JOB_PREFIX = "strand-";

/** Longest rule part of a name (schedulers cut or refuse long names: PBS allows 236 characters, older ones 15). */
const RULE_PART_MAX = 32;

/** The scheduler name of a run's `number`th submission: `strand-<run id>-<n>` when the run id was given, else `<rule>-<n>`. */
export function schedulerJobName(number: number, naming: { runId?: string; rule: string }): string {
  if (naming.runId !== undefined) return `${SERVICE_JOB_PREFIX}${naming.runId}-${number}`;
  // Rule names are the pipeline author's, not data; still, only characters every scheduler takes, starting with a letter.
  const rule = naming.rule.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, RULE_PART_MAX);
  return `${/^[A-Za-z]/.test(rule) ? rule : `job_${rule}`}-${number}`;
}

/** The run id in a shared service's scheduler job name, or undefined for any other name. */
export function runIdOfJobName(name: string): string | undefined {
  const match = /^strand-([A-Za-z0-9][A-Za-z0-9._-]{0,127})-\d+$/.exec(name);
  return match?.[1];
}

/** The submission number at the end of a scheduler job name, or 0 when there is none. */
export function jobNumberOf(name: string): number {
  const match = /-(\d{1,9})$/.exec(name);
  return match ? Number(match[1]) : 0;
}
