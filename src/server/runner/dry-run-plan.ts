/**
 * A dry run's plan as the service shows it. The engine's `strand dry-run --json` writes no event log (a dry
 * run changes nothing, not even `.strand/`); its plan — every job with whether it would run and the
 * engine's reason — is the document the runner saves as the run's `dry-run.json`. This module reads that
 * document (bare, or inside the common `--json` envelope) into the few fields the views need, and renders
 * it as the lines of the run's log.
 */
import { readWorkspaceJson } from "./workspace-reader.js";
import type { PlannedJobState } from "./job-states.js";

/** Why the engine would run or skip a job: its reason code and text (`never-completed`, `up-to-date`, …). */
export interface PlanReason {
  code: string;
  text: string;
}

/** One job of a dry run's plan. */
export interface DryRunJob {
  job: string;
  rule: string;
  status: PlannedJobState;
  reason: PlanReason | null;
}

/** What a dry run found. */
export interface DryRunPlan {
  workflow: string | null;
  total: number;
  would_run: number;
  would_skip: number;
  jobs: DryRunJob[];
}

/** The most of a saved plan that is read (a plan of 100,000 jobs takes about 20 MB). */
export const PLAN_MAX_BYTES = 256 * 1024 * 1024;

/** The plan in a dry run's saved output in its workspace, or undefined when it is missing, unreadable or not a plan. */
export function readDryRunPlan(root: string, path: string): DryRunPlan | undefined {
  return planOf(readWorkspaceJson(root, path, PLAN_MAX_BYTES));
}

/** The plan in a `strand dry-run --json` document (bare or enveloped), or undefined. */
export function planOf(document: unknown): DryRunPlan | undefined {
  if (!isRecord(document)) return undefined;
  const data = isRecord(document.data) && "command" in document ? document.data : document;
  if (!Array.isArray(data.plan)) return undefined;
  const jobs: DryRunJob[] = [];
  for (const entry of data.plan) {
    if (!isRecord(entry) || typeof entry.name !== "string") continue;
    const reason = isRecord(entry.reason) && typeof entry.reason.code === "string" ? { code: entry.reason.code, text: typeof entry.reason.text === "string" ? entry.reason.text : entry.reason.code } : null;
    jobs.push({ job: entry.name, rule: typeof entry.rule === "string" ? entry.rule : entry.name, status: entry.status === "run" ? "would_run" : "would_skip", reason });
  }
  const wouldRun = jobs.filter((job) => job.status === "would_run").length;
  return { workflow: typeof data.workflow === "string" ? data.workflow : null, total: jobs.length, would_run: wouldRun, would_skip: jobs.length - wouldRun, jobs };
}

/** The plan as log lines: a summary, then one line per job in the engine's order with its reason. */
export function planLogLines(plan: DryRunPlan, workflowName: string): string[] {
  const lines = [`Dry run of ${workflowName}: ${plan.total} job${plan.total === 1 ? "" : "s"}; ${plan.would_run} would run, ${plan.would_skip} would be skipped`];
  plan.jobs.forEach((job, index) => {
    const verdict = job.status === "would_run" ? "would run" : "would skip";
    const why = job.reason ? `${job.reason.code}: ${job.reason.text}` : "no reason given";
    lines.push(`  ${index + 1}. ${job.job}  [${verdict}: ${why}]`);
  });
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
