/**
 * A remote run's engine as a job of the cluster's scheduler, for sites that allow no long-running processes
 * on their login nodes (a cluster registered with `engine_placement = "job"`). The service submits, watches
 * and cancels that job with the scheduler's own commands on the login node, over SSH — through the same
 * scheduler modules the engine submits pipeline jobs with (`src/engine/run/cluster/schedulers/`), so each
 * scheduler's submit answer, states and "already gone" answers are read in one place.
 *
 * The job's script is the wrapper (JOB_WRAPPER_SCRIPT) in the remote workspace: it passes on the signals
 * the service leaves as files beside the event log (cancel, pause, resume), and a cancel that is not heard
 * ends with the scheduler's own cancel of the job.
 */
import { posix } from "node:path";
import type { Client } from "ssh2";
import type { JobStatus, SchedulerBackend, SchedulerDefinition } from "../../../engine/run/cluster/scheduler-backend.js";
import type { CommandOutcome, RunSchedulerCommand } from "../../../engine/run/cluster/scheduler-commands.js";
import { isBackendName, schedulerNamed } from "../../../engine/run/cluster/scheduler-registry.js";
import { runRemote, type RemoteFiles } from "../../outbound/ssh.js";
import type { RemoteEngineJob } from "../../store/runs/contract.js";
import { commandLine, engineJobScript, submitEngineJobCommand, type RemoteRunFiles } from "./remote-commands.js";
import { shellQuote } from "../../../engine/expand/shell-quote.js";

/** Why the engine's job could not be submitted (the run ends failed with this message). */
export class EngineJobError extends Error {}

/** The most submission records looked at, and the most of one read. */
const RECORDS_MAX = 10_000;
const RECORD_MAX_BYTES = 64 * 1024;

/** A scheduler job id as the schedulers write them (`4242`, `4242.server`, `4242[1]`). */
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._[\]-]{0,63}$/;

/**
 * The scheduler ids of a run's jobs the remote engine still has records of (`<workspace>/.strand/cluster/`,
 * see submission-records.ts: a record is removed when its job ends), so jobs an engine that was killed left
 * behind can be cancelled. Only records named for this run (`strand-<run id>-<n>`) with an id of a job id's
 * form count; links and other entries are skipped.
 */
export async function recordedJobIds(files: RemoteFiles, workspace: string, runId: string): Promise<string[]> {
  const folder = posix.join(workspace, ".strand", "cluster");
  const entries = (await files.lstat(folder))?.kind === "folder" ? await files.list(folder) : [];
  const ids: string[] = [];
  for (const entry of entries.slice(0, RECORDS_MAX)) {
    if (entry.kind !== "file" || !entry.name.endsWith(".json") || entry.size > RECORD_MAX_BYTES) continue;
    try {
      const record = JSON.parse((await files.read(posix.join(folder, entry.name), 0, RECORD_MAX_BYTES)).toString("utf8")) as { id?: unknown; name?: unknown };
      if (typeof record.id === "string" && JOB_ID.test(record.id) && typeof record.name === "string" && record.name.startsWith(`strand-${runId}-`)) ids.push(record.id);
    } catch {
      // not a record
    }
  }
  return [...new Set(ids)];
}

/** Paths a directive line may hold as they are (the remote folder's own characters); others leave the scheduler's default. */
const DIRECTIVE_PATH = /^\/[A-Za-z0-9._/+@~-]+$/;

/** A scheduler command run on the login node over `client`: `answers` are non-zero exits that are answers, anything else fails. */
export function remoteSchedulerCommands(client: () => Client | undefined): RunSchedulerCommand {
  return async (command, options = {}): Promise<CommandOutcome> => {
    const link = client();
    if (!link) throw new Error("the connection to the login node is down");
    const line = `${command.cwd ? `cd ${shellQuote(command.cwd)} && ` : ""}${commandLine([command.file, ...command.args])}`;
    const result = await runRemote(link, line, { timeoutMs: 60_000, ...(command.stdin !== undefined ? { stdin: command.stdin } : {}) });
    const outcome = { stdout: result.stdout, stderr: result.stderr, exitCode: result.code ?? -1 };
    if (outcome.exitCode === 0 || (result.code !== null && options.answers?.test(result.stderr))) return outcome;
    throw new Error(`${command.file} on the login node ended with ${result.code ?? "no exit status"}: ${(result.stderr || result.stdout).trim().slice(0, 500)}`);
  };
}

/** One run's engine job on one scheduler. */
export class EngineJob {
  private readonly definition: SchedulerDefinition;
  private readonly backend: SchedulerBackend;

  constructor(
    scheduler: string,
    private readonly runId: string,
    private readonly files: RemoteRunFiles,
    private readonly run: RunSchedulerCommand,
  ) {
    if (!isBackendName(scheduler)) throw new EngineJobError(`the engine can run as a job only under a scheduler (slurm, pbs, sge or lsf), and this cluster has ${scheduler}`);
    this.definition = schedulerNamed(scheduler);
    this.backend = this.definition.createBackend();
  }

  /** The job's name at the scheduler (others on the cluster see it: the run id only). */
  get name(): string {
    return `strand-${this.runId}-engine`;
  }

  /** The job script: one core, the job's name and output file, the login node's PATH, the wrapper. */
  script(path: string, engine: readonly string[], env: Record<string, string>): string {
    const output = this.files.engineJobOutput;
    const values = { jobName: this.name, threads: 1, stdoutPath: output, stderrPath: output };
    const directives = [...this.definition.resourceDirectives(values, undefined), ...(DIRECTIVE_PATH.test(output) ? this.definition.logDirectives(values) : [])];
    return engineJobScript(this.files, directives, path, engine, env);
  }

  /**
   * Submits the script with the cluster's extra options (each one word, before the scheduler's own
   * arguments) and returns the job id; the answer is kept in the run's folder (see recoverId).
   */
  async submit(client: Client, script: string, options: readonly string[]): Promise<string> {
    const submit = this.backend.submitCommand(script, this.files.workspace);
    const answer = await runRemote(client, submitEngineJobCommand(this.files, [submit.file, ...options, ...submit.args]), { timeoutMs: 120_000, stdin: script });
    const id = answer.code === 0 ? this.backend.parseJobId(answer.stdout) : undefined;
    if (id === undefined) {
      const said = (answer.stdout || answer.stderr).trim().slice(0, 500) || "no answer";
      throw new EngineJobError(`${this.definition.submitProgram} refused the engine's job${answer.code === null || answer.code === 0 ? "" : ` (exit ${answer.code})`}: ${said}`);
    }
    return id;
  }

  /** The id in the submit answer kept in the run's folder (a submit whose answer was lost with the connection). */
  recoverId(answer: string): string | undefined {
    return this.backend.parseJobId(answer);
  }

  /** The job's state: queued, running, or ended (finished, or unknown to the scheduler). */
  async state(id: string): Promise<{ state: RemoteEngineJob["state"]; native: string }> {
    const status: JobStatus | undefined = (await this.backend.queryStatus([id], this.run)).get(id);
    if (!status) return { state: "ended", native: "unknown to the scheduler" };
    if (status.state === "pending") return { state: "queued", native: status.native };
    if (status.state === "running") return { state: "running", native: status.native };
    return { state: "ended", native: status.native };
  }

  /** Cancels jobs at the scheduler (their processes end with them); a job already gone is not an error. */
  async cancel(...ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.run(this.backend.cancelCommand(ids), { answers: this.backend.cancelAnswers });
  }
}
