/**
 * `strand status [WORKFLOW|DIR]`: the state of a workdir from its checkpoint and its latest event log —
 * which jobs completed or failed, and whether the last run finished, is still running or was interrupted.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { discoverWorkflow } from "../../engine/format/load.js";
import { readCheckpoint } from "../../engine/run/checkpoint/checkpoint.js";
import { readEventLog, type RunEvent } from "../../engine/run/event-log.js";
import { processAlive } from "../../engine/run/file-lock.js";
import { optionValue, type OptionSpec } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, paint } from "../print.js";
import type { Command } from "./command.js";

const STATUS_OPTIONS: OptionSpec[] = [
  { name: "workdir", short: "d", value: true, placeholder: "DIR", description: "the workdir (default: the workflow's folder or the current folder)" },
  { name: "run", value: true, placeholder: "ID", description: "show this run instead of the latest" },
];

interface RunSummary {
  run_id: string;
  status: "running" | "paused" | "completed" | "failed" | "cancelled" | "interrupted";
  started_at: string | null;
  finished_at: string | null;
  events: string;
  pid: number | null;
  counts: Record<string, number>;
  failed_jobs: { job: string; exit_code: number | null; error: string; log: string | null }[];
  running_jobs: string[];
}

/** The workdir a `[WORKFLOW|DIR]` argument (or `-d DIR`) means: a folder with `.strand`, a workflow's folder, or the folder itself. */
export function workdirOf(target: string | undefined, explicit: string | undefined): string {
  if (explicit) return resolve(explicit);
  const path = resolve(target ?? ".");
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (existsSync(join(path, ".strand"))) return path;
    try {
      return dirname(discoverWorkflow(path));
    } catch {
      return path;
    }
  }
  return dirname(path);
}

/** Summarises one run from its event log. */
export function summariseRun(workdir: string, runId: string): RunSummary | null {
  const runDir = join(workdir, ".strand", "runs", runId);
  let record: { events?: string; pid?: number };
  try {
    record = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")) as typeof record;
  } catch {
    record = {};
  }
  const eventsPath = record.events ?? join(runDir, "events.jsonl");
  if (!existsSync(eventsPath)) return null;
  const events = readEventLog(eventsPath);
  const started = events.find((event) => event.type === "run_started");
  const finished = events.findLast((event) => event.type === "run_finished");
  const pid = (started?.pid as number | undefined) ?? record.pid ?? null;
  const running = new Set<string>();
  const failed = new Map<string, RunEvent>();
  let paused = false;
  for (const event of events) {
    const job = event.job as string | undefined;
    if (event.type === "job_started" && job) running.add(job);
    if ((event.type === "job_completed" || event.type === "job_failed" || event.type === "job_skipped") && job) running.delete(job);
    if (event.type === "job_failed" && job) failed.set(job, event);
    if (event.type === "job_completed" && job) failed.delete(job);
    if (event.type === "run_paused") paused = true;
    if (event.type === "run_resumed") paused = false;
  }
  let status: RunSummary["status"];
  if (finished) status = finished.status as RunSummary["status"];
  else if (pid !== null && processAlive(pid)) status = paused ? "paused" : "running";
  else status = "interrupted";
  const counts = (finished?.counts as Record<string, number> | undefined) ?? {
    succeeded: events.filter((event) => event.type === "job_completed").length,
    failed: failed.size,
    running: running.size,
  };
  return {
    run_id: runId,
    status,
    started_at: started?.time ?? null,
    finished_at: finished?.time ?? null,
    events: eventsPath,
    pid,
    counts,
    failed_jobs: [...failed.values()].map((event) => ({ job: event.job as string, exit_code: (event.exit_code as number | null) ?? null, error: String(event.error ?? ""), log: (event.stderr as string | undefined) ?? null })),
    running_jobs: status === "running" || status === "paused" ? [...running] : [],
  };
}

export const statusCommand: Command = {
  usage: "strand status [WORKFLOW|DIR] [-d DIR] [--run ID] [--json]",
  options: STATUS_OPTIONS,
  async run(args, output) {
    const workdir = workdirOf(args.positionals[0], optionValue(args, "workdir"));
    const checkpoint = readCheckpoint(workdir);
    const jobs = Object.entries(checkpoint?.jobs ?? {});
    const completed = jobs.filter(([, record]) => record.status === "completed").map(([name]) => name);
    const failed = jobs.filter(([, record]) => record.status === "failed").map(([name]) => name);
    let runId = optionValue(args, "run");
    if (runId === undefined) {
      try {
        runId = readFileSync(join(workdir, ".strand", "runs", "latest"), "utf8").trim();
      } catch {
        runId = undefined;
      }
    }
    const run = runId ? summariseRun(workdir, runId) : null;
    const checkpointPath = join(workdir, ".strand", "checkpoint.json");
    if (args.flags.has("json")) {
      printEnvelope(output, "status", {
        ok: true,
        data: {
          workdir,
          checkpoint: existsSync(checkpointPath) ? checkpointPath : null,
          workflow: checkpoint?.workflow_path ?? null,
          completed,
          failed,
          run,
        },
      });
      return 0;
    }
    if (!checkpoint && !run) {
      output.out(`no runs recorded in ${displayPath(output, workdir)} (no .strand/checkpoint.json)`);
      return 0;
    }
    if (run) {
      const colour = run.status === "completed" ? "green" : run.status === "running" || run.status === "paused" ? "blue" : run.status === "cancelled" ? "yellow" : "red";
      output.out(`run ${run.run_id}: ${paint(output, colour, run.status)}${run.started_at ? ` (started ${run.started_at}${run.finished_at ? `, finished ${run.finished_at}` : ""})` : ""}`);
      output.out(`  ${Object.entries(run.counts).map(([key, value]) => `${key.replaceAll("_", " ")} ${value}`).join(" · ")}`);
      if (run.status === "interrupted") output.out(`  the engine (pid ${run.pid}) stopped without finishing the run; run it again to continue from the checkpoint`);
      for (const job of run.running_jobs) output.out(`  ▶ ${job}`);
      for (const job of run.failed_jobs) output.out(`  ${paint(output, "red", "✗")} ${job.job}: ${job.error}${job.log ? `\n    log: ${displayPath(output, job.log)}` : ""}`);
      output.out(`  events: ${displayPath(output, run.events)}`);
    }
    output.out(`checkpoint: ${completed.length} completed, ${failed.length} failed${checkpoint ? ` (${displayPath(output, checkpointPath)})` : " (none)"}`);
    return 0;
  },
};
