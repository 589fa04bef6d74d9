/**
 * A finished run of many jobs, made in seconds instead of hours: `seedLargeRun` writes what a real run
 * leaves behind — the run's folder in its workspace with the pipeline it ran, its request, its engine log
 * and its event log in the engine's own format (run_started, job_queued / job_started / job_completed or
 * job_failed per job, run_finished), a stderr log per failed job — and records the run in the service's
 * store. The service's views (status, dag-status, jobs, logs, diagnostics) then read it as they read any
 * run that ended. Times, durations and failures come from a seeded generator, so two seedings agree.
 */
import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { runFiles } from "../../src/server/runner/engine-command.js";
import { ownWorkspace } from "../../src/server/domains/execution/run-workspaces.js";
import type { Store } from "../../src/server/store/store.js";

/** The rule names a seeded run uses, in pipeline order (cycled with a number beyond 20). */
const RULE_NAMES = ["fetch", "fastqc", "trim", "align", "sort", "markdup", "index", "bqsr", "call", "filter", "annotate", "depth", "coverage", "metrics", "phase", "impute", "merge", "stats", "plot", "report"];

export interface LargeRunOptions {
  /** Jobs in the run (default 100,000). */
  jobs?: number;
  /** Rules they spread over, chained one after another (default 20). */
  rules?: number;
  /** Jobs that failed, spread evenly (default 0); the run then failed. */
  failed?: number;
  /** The run's owner (default `local`, personal mode's). */
  owner?: string;
  /** Jobs at once, for the times (default 32). */
  parallel?: number;
}

/** What a seeded run is made of. */
export interface LargeRun {
  id: string;
  workspace: string;
  rules: string[];
  jobs: number;
  failed: number;
}

/** A small deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The names of `count` rules. */
export function largeRunRules(count: number): string[] {
  return Array.from({ length: count }, (_, index) => (index < RULE_NAMES.length ? RULE_NAMES[index]! : `${RULE_NAMES[index % RULE_NAMES.length]!}${Math.floor(index / RULE_NAMES.length) + 1}`));
}

/** A pipeline of these rules chained per sample (what the seeded run ran). */
function pipelineOf(rules: string[]): string {
  const blocks = rules.map((rule, index) => {
    const input = index === 0 ? `input = ["reads/{sample}.fastq.gz"]` : `input = ["${rules[index - 1]}/{sample}.out"]`;
    return `[[rules]]\nname = "${rule}"\n${input}\noutput = ["${rule}/{sample}.out"]\nshell = "process-${rule} {input[0]} > {output[0]}"\n`;
  });
  return `[workflow]\nname = "large-run"\nversion = "1.0.0"\n\n${blocks.join("\n")}`;
}

/**
 * Records a finished run of `jobs` jobs over `rules` rules in the service's store, with its files in a
 * workspace under `dataDir` as a real run leaves them. Returns the run's id and where it lives.
 */
export async function seedLargeRun(service: { store: Store; dataDir: string | undefined }, options: LargeRunOptions = {}): Promise<LargeRun> {
  const jobs = options.jobs ?? 100_000;
  const rules = largeRunRules(options.rules ?? 20);
  const failedJobs = Math.min(options.failed ?? 0, jobs);
  const owner = options.owner ?? "local";
  const parallel = options.parallel ?? 32;
  if (!service.dataDir) throw new Error("seedLargeRun needs the service's data directory");
  const id = randomUUID();
  const workspace = ownWorkspace(service.dataDir, owner, id);
  const files = runFiles(workspace, id);
  mkdirSync(files.dir, { recursive: true });
  const text = pipelineOf(rules);
  writeFileSync(files.workspacePipeline, text);
  writeFileSync(files.pipeline, text);
  writeFileSync(files.request, `${JSON.stringify({ target: { type: "local" }, jobs: parallel, keep_going: true }, null, 2)}\n`);

  const random = generator(jobs * 31 + rules.length);
  const perRule = Math.ceil(jobs / rules.length);
  const failEvery = failedJobs > 0 ? jobs / failedJobs : Infinity;
  const start = Date.parse("2026-01-05T09:00:00.000Z");
  const slots = new Float64Array(parallel).fill(start + 1000);
  const fd = openSync(files.events, "w");
  let seq = 0;
  let buffer: string[] = [];
  const emit = (time: number, type: string, fields: Record<string, unknown>) => {
    buffer.push(JSON.stringify({ seq: ++seq, time: new Date(time).toISOString(), type, run_id: id, ...fields }));
    if (buffer.length >= 5000) flush();
  };
  const flush = () => {
    if (buffer.length > 0) writeSync(fd, `${buffer.join("\n")}\n`);
    buffer = [];
  };
  let end = start;
  let failed = 0;
  try {
    emit(start, "run_started", { workflow: files.workspacePipeline, workflow_name: "large-run", workdir: workspace, pid: 4242, executor: "local", jobs_total: jobs, jobs_to_run: jobs });
    const names: { job: string; rule: string }[] = [];
    for (let index = 0; index < jobs; index++) {
      const rule = rules[Math.min(rules.length - 1, Math.floor(index / perRule))]!;
      const job = `${rule}_S${String(index % perRule).padStart(6, "0")}`;
      names.push({ job, rule });
      emit(start + 500, "job_queued", { job, rule, reason: { code: "never-completed", text: "never completed before" } });
    }
    for (let index = 0; index < jobs; index++) {
      const { job, rule } = names[index]!;
      // The earliest free slot takes the next job (the engine's order).
      let slot = 0;
      for (let other = 1; other < parallel; other++) if (slots[other]! < slots[slot]!) slot = other;
      const startedAt = slots[slot]!;
      const duration = Math.round(200 + random() * random() * 60_000);
      const finishedAt = startedAt + duration;
      slots[slot] = finishedAt + 5;
      end = Math.max(end, finishedAt);
      const jobDir = join(files.dir, "jobs", job);
      const logs = { stdout: join(jobDir, "stdout.log"), stderr: join(jobDir, "stderr.log") };
      emit(startedAt, "job_started", { job, rule, attempt: 1, attempts: 1, ...logs });
      if (failed < failedJobs && index >= Math.floor(failed * failEvery)) {
        failed++;
        mkdirSync(jobDir, { recursive: true });
        writeFileSync(logs.stderr, `process-${rule}: reading ${rule}/${job}.in\nprocess-${rule}: error: truncated record at line ${1 + Math.floor(random() * 10_000)}\n`);
        emit(finishedAt, "job_failed", { job, rule, exit_code: 1, error: `exit code 1: process-${rule}: error: truncated record`, duration_ms: duration, cpu_ms: Math.round(duration * 0.9), peak_memory_mb: 64, attempts: 1, required: true, stderr: logs.stderr });
      } else {
        emit(finishedAt, "job_completed", { job, rule, exit_code: 0, duration_ms: duration, cpu_ms: Math.round(duration * 0.9), peak_memory_mb: Math.round(50 + random() * 2000), attempts: 1 });
      }
    }
    const status = failed > 0 ? "failed" : "completed";
    const counts = { total: jobs, completed: jobs - failed, failed, running: 0, skipped: 0, pending: 0 };
    emit(end + 100, "run_finished", { status, error: failed > 0 ? `${failed} job${failed === 1 ? "" : "s"} failed` : null, error_code: failed > 0 ? "JOB_FAILED" : null, counts, duration_ms: end + 100 - start });
    flush();
  } finally {
    closeSync(fd);
  }
  writeFileSync(files.engineLog, `strand run: large-run, ${jobs} jobs to run\nDone: ${jobs - failed} succeeded, ${failed} failed\n`);
  const finishedAt = new Date(end + 100).toISOString();
  await service.store.createRun({
    id,
    status: failed > 0 ? "failed" : "completed",
    workflow_name: "large-run",
    owner,
    target: { type: "local" },
    started_at: new Date(start).toISOString(),
    finished_at: finishedAt,
    exit_code: failed > 0 ? 1 : 0,
    counts: { total: jobs, completed: jobs - failed, failed, running: 0, skipped: 0, pending: 0 },
    workspace,
    events_path: files.events,
    error: failed > 0 ? `${failed} job${failed === 1 ? "" : "s"} failed` : null,
  });
  return { id, workspace, rules, jobs, failed };
}
