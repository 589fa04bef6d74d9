/**
 * `strand run`: executes a pipeline locally or on an HPC scheduler. Progress goes to stderr; `--json`
 * prints one summary object on stdout. SIGINT/SIGTERM cancel (exit 130/143), SIGUSR1 pauses and SIGUSR2
 * resumes. The event log (`.strand/runs/<run id>/events.jsonl` or `--events FILE`) records everything.
 * `--remote CLUSTER` runs it on a registered remote cluster instead (../run/remote-run.ts).
 */
import { relative, resolve } from "node:path";
import type { Pipeline } from "../../engine/format/model.js";
import { memoryToMegabytes } from "../../engine/format/rule-settings.js";
import { parseDuration } from "../../engine/run/durations.js";
import { EXECUTOR_KINDS, isExecutorKind } from "../../engine/run/executor-kinds.js";
import { startRun, type RunResult } from "../../engine/run/run-pipeline.js";
import { WEBHOOK_TARGETS, type WebhookTargets } from "../../engine/notify/webhook.js";
import { optionValue, optionValues, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";
import { FORCERUN_OPTION, loadFromArgs, PIPELINE_OPTIONS, SELECTION_OPTIONS, UNTIL_OPTION } from "../pipeline-options.js";
import { clampThreads, CORES_OPTION, coresOption } from "../run/cores.js";
import { makeFinding } from "../../engine/findings.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, formatFinding, paint, type Output } from "../print.js";
import { ProgressDisplay } from "../run/progress.js";
import type { Command } from "./command.js";
import { writeRunReport } from "./report.js";

/** The executors as the option's help lists them: "local (default), slurm, pbs, sge or lsf". */
const EXECUTOR_CHOICES = `${EXECUTOR_KINDS[0]} (default), ${EXECUTOR_KINDS.slice(1, -1).join(", ")} or ${EXECUTOR_KINDS.at(-1)}`;

const RUN_OPTIONS: OptionSpec[] = [
  ...PIPELINE_OPTIONS,
  ...SELECTION_OPTIONS,
  UNTIL_OPTION,
  FORCERUN_OPTION,
  { name: "dry-run", short: "n", description: "print the plan and run nothing (the same as strand dry-run)" },
  { name: "jobs", short: "j", value: true, placeholder: "N", description: "jobs at once (default 1, or N with --cores N)" },
  CORES_OPTION,
  { name: "keep-going", short: "k", description: "keep running independent jobs after a failure" },
  { name: "max-threads", value: true, placeholder: "N", description: "thread budget for local jobs (default: CPU count)" },
  { name: "max-memory", value: true, placeholder: "MB", description: "memory budget for local jobs, MB or 8G (default: machine RAM)" },
  { name: "retry", short: "r", value: true, placeholder: "N", description: "extra attempts for every job (a rule's retries wins when larger)" },
  { name: "timeout", value: true, placeholder: "DURATION", description: "per-attempt time limit: seconds or 30m, 1h (0 = none) when a rule sets no time_limit" },
  { name: "rerun", description: "run every selected job, up to date or not" },
  { name: "retry-failed", description: "run only the jobs that failed last time, and what depends on them" },
  { name: "resume-failed", description: "same as --retry-failed (oxo-flow's name)" },
  { name: "run-id", value: true, placeholder: "ID", description: "the run's id (default: time-based)" },
  { name: "events", value: true, placeholder: "FILE", description: "write the event log here (default .strand/runs/<run id>/events.jsonl)" },
  { name: "executor", value: true, placeholder: "NAME", description: `${EXECUTOR_CHOICES} (default from the profile's [cluster])` },
  { name: "max-submitted", value: true, placeholder: "N", description: "scheduler jobs in flight at once (default 50)" },
  { name: "poll-interval", value: true, placeholder: "DURATION", description: "how often to ask the scheduler about jobs (default 5s)" },
  { name: "skip-env-setup", description: "do not create environments (conda, venv, images); use them as they are" },
  { name: "skip-ref-build", description: "do not build [[references]]" },
  { name: "remote", value: true, placeholder: "CLUSTER", description: "run on a cluster registered with the local service (strand cluster add) over SSH: the folder goes up, the results come back" },
  { name: "report", value: true, placeholder: "FILE", description: "write a self-contained HTML report of the run to FILE when it ends, whatever its outcome" },
  {
    name: "webhook-targets",
    value: true,
    placeholder: "WHERE",
    description: "where the pipeline's webhooks may go: any (default: loopback and private addresses too) or public (public addresses only, as a service's runs)",
  },
];

function integerOption(args: ParsedArgs, name: string, minimum = 0): number | undefined {
  const text = optionValue(args, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) throw new UsageError(`--${name} needs a whole number of at least ${minimum}, got '${text}'`);
  return value;
}

function durationOption(args: ParsedArgs, name: string): number | undefined {
  const text = optionValue(args, name);
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--${name} needs seconds or a duration like 30s, 30m, 1h, got '${text}'`);
  return ms;
}

/** `--webhook-targets`: any (the default) or public. */
function webhookTargetsOption(args: ParsedArgs): WebhookTargets | undefined {
  const text = optionValue(args, "webhook-targets");
  if (text === undefined) return undefined;
  if (!(WEBHOOK_TARGETS as readonly string[]).includes(text)) throw new UsageError(`--webhook-targets must be ${WEBHOOK_TARGETS.join(" or ")}, got '${text}'`);
  return text as WebhookTargets;
}

function memoryOption(args: ParsedArgs): number | undefined {
  const text = optionValue(args, "max-memory");
  if (text === undefined) return undefined;
  const mb = memoryToMegabytes(text);
  if (mb === undefined || mb <= 0) throw new UsageError(`--max-memory needs megabytes or a size like 8G, got '${text}'`);
  return mb;
}

export const runCommand: Command = {
  usage: "strand run [WORKFLOW] [KEY=VALUE…] [-n] [-j N] [-c N] [-k] [-t RULE] [--until RULE] [-R RULE] [--rerun | --retry-failed] [--executor slurm | --remote CLUSTER] [--events FILE] [--run-id ID]",
  options: RUN_OPTIONS,
  async run(args, output) {
    // -n is Snakemake's dry run: the same plan `strand dry-run` prints, and nothing runs.
    if (args.flags.has("dry-run")) return (await import("./plan.js")).dryRunCommand.run(args, output);
    const cores = coresOption(args);
    if (cores !== undefined && optionValue(args, "max-threads") !== undefined) throw new UsageError("--cores and --max-threads both set the thread budget", "use one of them: -c clamps a job that asks for more, --max-threads refuses it");
    const executor = optionValue(args, "executor");
    if (executor !== undefined && !isExecutorKind(executor)) throw new UsageError(`unknown executor '${executor}'`, `use one of ${EXECUTOR_KINDS.join(", ")}`);
    const options = {
      jobs: integerOption(args, "jobs", 0) ?? cores,
      keepGoing: args.flags.has("keep-going"),
      maxThreads: integerOption(args, "max-threads", 1) ?? cores,
      maxMemoryMb: memoryOption(args),
      retry: integerOption(args, "retry", 0),
      timeoutMs: durationOption(args, "timeout"),
      targets: optionValues(args, "target"),
      until: optionValues(args, "until"),
      forceRules: optionValues(args, "forcerun"),
      module: optionValue(args, "module"),
      rerun: args.flags.has("rerun"),
      retryFailed: args.flags.has("retry-failed"),
      resumeFailed: args.flags.has("resume-failed"),
      runId: optionValue(args, "run-id"),
      eventsPath: optionValue(args, "events"),
      executor,
      maxSubmitted: integerOption(args, "max-submitted", 1),
      pollIntervalMs: durationOption(args, "poll-interval"),
      skipEnvSetup: args.flags.has("skip-env-setup"),
      skipRefBuild: args.flags.has("skip-ref-build"),
      webhookTargets: webhookTargetsOption(args),
      argv: maskArgv(process.argv.slice(2)),
    };
    if (options.rerun && (options.retryFailed || options.resumeFailed)) throw new UsageError("--rerun and --retry-failed contradict each other", "use one of them");
    const { pipeline, path } = await loadFromArgs(args, RUN_OPTIONS);
    // Checked here first, then run on the cluster by the engine there.
    const remote = optionValue(args, "remote");
    if (remote !== undefined) return (await import("../run/remote-run.js")).runOnCluster(args, output, remote, resolve(path));
    if (cores !== undefined) {
      clampThreads(pipeline, cores);
      for (const warning of pipeline.warnings.filter((finding) => finding.code === "CORES_CLAMPED")) output.err(formatFinding(output, warning));
    }
    const json = args.flags.has("json");
    const progress = new ProgressDisplay(output, process.stderr.isTTY === true && !json, args.flags.has("quiet"));
    const controller = startRun(pipeline, { ...options, onEvent: (event) => progress.show(event) });
    let signalled: NodeJS.Signals | undefined;
    const onCancel = (signal: NodeJS.Signals) => () => {
      if (signalled) {
        controller.cancel(`second ${signal}: killing now`, 0);
        return;
      }
      signalled = signal;
      controller.cancel(`received ${signal}`);
    };
    const handlers: [NodeJS.Signals, () => void][] = [
      ["SIGINT", onCancel("SIGINT")],
      ["SIGTERM", onCancel("SIGTERM")],
      ["SIGUSR1", () => controller.pause()],
      ["SIGUSR2", () => controller.resume()],
    ];
    for (const [signal, handler] of handlers) process.on(signal, handler);
    let result: RunResult;
    try {
      result = await controller.result;
    } finally {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      progress.stop();
    }
    printSummary(output, result, path);
    const reportFile = optionValue(args, "report");
    // The report is written even for a failed or cancelled run: that is when it is read most.
    const reportWritten = reportFile === undefined ? true : await writeReport(result.runDir, reportFile, output, pipeline);
    if (json) {
      printEnvelope(output, "run", {
        ok: result.status === "completed",
        findings: [...pipeline.warnings, ...(result.error ? [makeFinding(result.errorCode ?? "RUN_FAILED", "error", result.error)] : [])],
        data: {
          status: result.status,
          workflow: path,
          run_id: result.runId,
          events: result.eventsPath,
          error: result.error ?? null,
          results: {
            succeeded: result.counts.succeeded,
            skipped: result.counts.skipped,
            failed: result.counts.failed,
            non_required_failed: result.counts.non_required_failed,
            blocked: result.counts.blocked + result.counts.not_started,
          },
        },
      });
    }
    if (result.status === "cancelled") return signalled === "SIGTERM" ? 143 : signalled === "SIGINT" ? 130 : 1;
    return result.status === "completed" && reportWritten ? 0 : 1;
  },
};

/** Writes the run's report; a report that cannot be written is said on stderr and fails the command, never the run. */
async function writeReport(runDir: string, file: string, output: Output, pipeline: Pipeline): Promise<boolean> {
  try {
    const written = await writeRunReport(runDir, file, output, { pipeline });
    if (written.path) output.err(`  report: ${displayPath(output, written.path)}`);
    return true;
  } catch (error) {
    output.err(`${paint(output, "red", "✗")} the report was not written: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function printSummary(output: Output, result: RunResult, path: string): void {
  const c = result.counts;
  const parts = [`${c.succeeded} succeeded`, `${c.skipped + c.blocked + c.not_started} skipped`, `${c.failed} failed`];
  if (c.non_required_failed > 0) parts.push(`${c.non_required_failed} non-required failed`);
  if (result.error) output.err(`${paint(output, "red", "✗")} ${result.error}`);
  const mark = result.status === "completed" ? paint(output, "green", "Done:") : result.status === "cancelled" ? paint(output, "yellow", "Cancelled:") : paint(output, "red", "Failed:");
  output.err(`${mark} ${parts.join(", ")} (${(result.durationMs / 1000).toFixed(1)}s)`);
  output.err(`  events: ${displayPath(output, result.eventsPath)}  ·  logs: ${displayPath(output, result.runDir)}/jobs/  ·  workflow: ${displayPath(output, path)}`);
  if (result.status === "failed" && c.failed > 0) output.err(`  retry only what failed: strand run ${relative(output.cwd, path) || "."} --retry-failed`);
}

/** Hides values of `--arg KEY=VALUE` and `KEY=VALUE` whose key looks secret. */
function maskArgv(argv: string[]): string[] {
  return argv.map((item) => item.replace(/^((?:--arg=)?[A-Za-z0-9_]*(?:secret|password|token|key)[A-Za-z0-9_]*=).+$/i, "$1***"));
}
