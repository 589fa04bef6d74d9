/**
 * SLURM: job scripts with `#SBATCH` directives submitted with `sbatch --parsable`, jobs followed with
 * `squeue`, `sacct` (finished jobs and their exit codes) and `scontrol` (when accounting is off or lags),
 * cancelled with `scancel`.
 *
 * Everything strand knows about this scheduler is here (scheduler-backend.ts says what that is);
 * scheduler-registry.ts lists it. It imports no other scheduler's module.
 */
import { isColonWalltime, walltime } from "../../durations.js";
import { SCHEDULER_NAME } from "../../../format/scheduler-values.js";
import { REFUSED_BECAUSE, type AllowedOption, type DirectiveValues } from "../directive-values.js";
import { isFinished, type JobStatus, type SchedulerBackend, type SchedulerDefinition } from "../scheduler-backend.js";
import { firstLine, type CommandLine, type RunSchedulerCommand } from "../scheduler-commands.js";

const { ENVIRONMENT, FILES, WORKING_FOLDER, ACCOUNT, MAIL, FIELDS, TRACKING } = REFUSED_BECAUSE;

// ── Job scripts ───────────────────────────────────────────────────────────────────────────────────────

const COUNT = /^\d{1,6}$/;
const GPU_COUNT = /^(?:[A-Za-z0-9_.+-]{1,64}:)?\d{1,4}$/;

/** The `extra_args` options a shared service passes on, each with the form of its value. */
const ALLOWED: Record<string, AllowedOption> = {
  "--qos": { form: "NAME", value: SCHEDULER_NAME },
  "--constraint": { form: "FEATURES", value: /^[A-Za-z0-9_.:+&|,*()[\]-]{1,256}$/ },
  "--exclusive": {},
  "--gres": { form: "LIST", value: /^[A-Za-z0-9_.:,+-]{1,256}$/ },
  "--gpus": { form: "[TYPE:]N", value: GPU_COUNT },
  "--gpus-per-node": { form: "[TYPE:]N", value: GPU_COUNT },
  "--nodes": { form: "N[-M]", value: /^\d{1,5}(?:-\d{1,5})?$/ },
  "--ntasks": { form: "N", value: COUNT },
  "--ntasks-per-node": { form: "N", value: COUNT },
  "--tmp": { form: "SIZE", value: /^\d{1,12}[KMGT]?$/i },
  "--reservation": { form: "NAME", value: SCHEDULER_NAME },
  "--nice": { form: "N", value: /^\d{1,5}$/ },
};

/** Known options a shared service refuses in `extra_args`, with what each could do. */
const REFUSED: Record<string, string> = {
  "--export": ENVIRONMENT,
  "--export-file": ENVIRONMENT,
  "--get-user-env": "loads an account's login environment on the node, outside the sandbox",
  "--chdir": WORKING_FOLDER,
  "-D": WORKING_FOLDER,
  "--output": FILES,
  "-o": FILES,
  "--error": FILES,
  "-e": FILES,
  "--input": FILES,
  "-i": FILES,
  "--open-mode": "decides how the scheduler opens the job's log files itself, outside the sandbox",
  "--uid": ACCOUNT,
  "--gid": ACCOUNT,
  "--wrap": "replaces the job script with a command that runs outside the sandbox",
  "--mail-type": MAIL,
  "--mail-user": MAIL,
  "--container": "has the scheduler start a container itself, outside the sandbox",
  "--bb": "has the scheduler stage files itself, outside the sandbox",
  "--bbf": "has the scheduler stage files itself, outside the sandbox",
  "--partition": FIELDS,
  "-p": FIELDS,
  "--account": FIELDS,
  "-A": FIELDS,
  "--time": FIELDS,
  "-t": FIELDS,
  "--mem": FIELDS,
  "--cpus-per-task": FIELDS,
  "-c": FIELDS,
  "--job-name": FIELDS,
  "-J": FIELDS,
  "--array": TRACKING,
  "-a": TRACKING,
  "--dependency": TRACKING,
  "-d": TRACKING,
  "--hold": TRACKING,
  "-H": TRACKING,
};

/** The directive lines for the job's name, threads, memory, GPUs, walltime and queue. */
function slurmDirectives(values: DirectiveValues, time: string | undefined): string[] {
  const lines = [`--job-name=${values.jobName}`, `--cpus-per-task=${values.threads}`];
  if (values.memory) lines.push(`--mem=${values.memory}`);
  if (values.gpus !== undefined) lines.push(`--gres=gpu:${values.gpuModel ? `${values.gpuModel}:` : ""}${values.gpus}`);
  if (values.gpuMemoryGb !== undefined) lines.push(`--mem-per-gpu=${values.gpuMemoryGb}G`);
  if (time) lines.push(`--time=${time}`);
  if (values.partition) lines.push(`--partition=${values.partition}`);
  if (values.account) lines.push(`--account=${values.account}`);
  return lines.map((line) => `#SBATCH ${line}`);
}

// ── Job states ────────────────────────────────────────────────────────────────────────────────────────

const SLURM_PENDING = new Set(["PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD"]);
const SLURM_RUNNING = new Set(["RUNNING", "COMPLETING", "SUSPENDED", "STOPPED", "SIGNALING", "STAGE_OUT", "RESIZING"]);
const SLURM_FAILED = new Set(["FAILED", "NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE", "PREEMPTED", "SPECIAL_EXIT", "REVOKED"]);

/** Reads SLURM's `EXIT:SIGNAL` exit code (`3:0`, `0:15`): the exit status, else 128+signal. */
export function slurmExitCode(text: string | undefined): number | null {
  const match = /^(\d+):(\d+)$/.exec(text?.trim() ?? "");
  if (!match) return null;
  const [exit, signal] = [Number(match[1]), Number(match[2])];
  return exit !== 0 || signal === 0 ? exit : 128 + signal;
}

/** Maps a SLURM state word (`FAILED`, `CANCELLED by 0`, `RUNNING`) and exit code onto a JobStatus. */
export function slurmStatus(native: string, exitCodeText?: string): JobStatus {
  const word = native.trim().split(/\s+/)[0]!.replace(/\+$/, "").toUpperCase();
  const exitCode = slurmExitCode(exitCodeText);
  if (SLURM_PENDING.has(word)) return { state: "pending", exitCode: null, native: word };
  if (SLURM_RUNNING.has(word)) return { state: "running", exitCode: null, native: word };
  if (word === "COMPLETED") return { state: "succeeded", exitCode: exitCode ?? 0, native: word };
  if (word === "CANCELLED") return { state: "cancelled", exitCode: exitCode === 0 ? null : exitCode, native: word };
  if (word === "TIMEOUT") return { state: "timed-out", exitCode: 124, native: word };
  if (SLURM_FAILED.has(word)) return { state: "failed", exitCode: exitCode === 0 ? null : exitCode, native: word };
  // Unknown words come from newer SLURM versions; treating them as running keeps polling until a known state.
  return { state: "running", exitCode: null, native: word };
}

/** Parses `squeue -h -o '%i %T'` lines into id → native state. */
export function parseSqueue(stdout: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const [id, state] = line.trim().split(/\s+/);
    if (id && state) states.set(id, state);
  }
  return states;
}

/** Parses `sacct -n -P -X -o JobID,State,ExitCode` lines. */
export function parseSacct(stdout: string): Map<string, JobStatus> {
  const statuses = new Map<string, JobStatus>();
  for (const line of stdout.split("\n")) {
    const [id, state, exitCode] = line.trim().split("|");
    if (id && state) statuses.set(id, slurmStatus(state, exitCode));
  }
  return statuses;
}

/** Parses `scontrol -o show job` (one job per line, `Key=Value` words). */
export function parseScontrol(stdout: string): Map<string, JobStatus> {
  const statuses = new Map<string, JobStatus>();
  for (const line of stdout.split("\n")) {
    const id = /(?:^|\s)JobId=(\S+)/.exec(line)?.[1];
    const state = /(?:^|\s)JobState=(\S+)/.exec(line)?.[1];
    if (id && state) statuses.set(id, slurmStatus(state, /(?:^|\s)ExitCode=(\S+)/.exec(line)?.[1]));
  }
  return statuses;
}

/** The job id in `sbatch --parsable` output (`123` or `123;cluster`), or in its plain "Submitted batch job 123". */
export function parseSbatchId(stdout: string): string | undefined {
  const text = stdout.trim();
  const parsable = /^(\d+(?:_\d+)?)(?:;\S*)?$/m.exec(text);
  if (parsable) return parsable[1];
  return /Submitted batch job (\d+)/.exec(text)?.[1];
}

class SlurmBackend implements SchedulerBackend {
  readonly name = SLURM.name;
  readonly submitProgram = SLURM.submitProgram;
  readonly cancelAnswers = /invalid job id|already completing or completed|job has already finished/i;
  /** Set once sacct says accounting is disabled, so later polls go straight to scontrol. */
  private accountingDisabled = false;

  /** sbatch reads the script from stdin when no file is named. */
  submitCommand(script: string, cwd: string): CommandLine {
    return { file: this.submitProgram, args: ["--parsable"], stdin: script, cwd };
  }

  parseJobId(stdout: string): string | undefined {
    return parseSbatchId(stdout);
  }

  cancelCommand(ids: string[]): CommandLine {
    return { file: "scancel", args: ids };
  }

  /** squeue while the controller remembers the job, else sacct. */
  async jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined> {
    const queue = await run({ file: "squeue", args: ["-h", "-t", "all", "-o", "%j", "-j", id] }, { answers: /invalid job id/i });
    const queued = firstLine(queue.stdout);
    if (queued !== undefined || this.accountingDisabled) return queued;
    try {
      const accounted = await run({ file: "sacct", args: ["-n", "-P", "-X", "-o", "JobName", "-j", id] }, { answers: /accounting storage is disabled|invalid job id/i });
      return firstLine(accounted.stdout);
    } catch {
      return undefined;
    }
  }

  /** squeue for live jobs; sacct for finished ones (exit codes); scontrol when accounting is off or lags. */
  async queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>> {
    const result = new Map<string, JobStatus>();
    if (ids.length === 0) return result;
    const list = ids.join(",");
    // -t all: finished jobs the controller still remembers are listed too, so "finished" and "unknown" differ.
    const queue = await run({ file: "squeue", args: ["-h", "-o", "%i %T", "-t", "all", "-j", list] }, { answers: /invalid job id/i });
    const seen = parseSqueue(queue.stdout);
    const finished: string[] = [];
    for (const id of ids) {
      const native = seen.get(id);
      const status = native !== undefined ? slurmStatus(native) : undefined;
      if (status && !isFinished(status.state)) result.set(id, status);
      else finished.push(id);
    }
    if (finished.length === 0) return result;

    let remaining = finished;
    if (!this.accountingDisabled) {
      let sacct: Awaited<ReturnType<RunSchedulerCommand>> | undefined;
      try {
        sacct = await run(
          { file: "sacct", args: ["-n", "-P", "-X", "-o", "JobID,State,ExitCode", "-j", remaining.join(",")] },
          { answers: /accounting storage is disabled|invalid job id/i },
        );
      } catch {
        // slurmdbd or its database is down: the controller still remembers recent jobs, so ask it instead.
        sacct = undefined;
      }
      if (sacct === undefined) {
        // fall through to scontrol for every remaining job
      } else if (/accounting storage is disabled/i.test(sacct.stderr)) this.accountingDisabled = true;
      else {
        const accounted = parseSacct(sacct.stdout);
        // slurmdbd learns of a job's end a moment after the controller: only final states count here.
        for (const id of remaining) {
          const status = accounted.get(id);
          if (status && isFinished(status.state)) result.set(id, status);
        }
        remaining = remaining.filter((id) => !result.has(id));
      }
    }
    if (remaining.length > 0) {
      // One call for every job the controller remembers (`scontrol show job` takes a single id at a time).
      const scontrol = await run({ file: "scontrol", args: ["-o", "show", "job"] }, { answers: /no jobs in the system|invalid job id/i });
      const known = parseScontrol(scontrol.stdout);
      for (const id of remaining) {
        const status = known.get(id) ?? (seen.has(id) ? slurmStatus(seen.get(id)!) : undefined);
        if (status) result.set(id, status);
      }
    }
    return result;
  }
}

/** SLURM, as the scheduler registry lists it. */
export const SLURM: SchedulerDefinition<"slurm"> = {
  name: "slurm",
  submitProgram: "sbatch",
  controllerPrograms: ["sbatch", "srun", "salloc", "sattach", "sbcast", "scancel", "scontrol", "scrontab", "sacct", "sacctmgr", "sdiag", "sinfo", "sprio", "squeue", "sreport", "sshare", "sstat", "strigger"],
  createBackend: () => new SlurmBackend(),
  directivePrefix: "#SBATCH",
  resourceDirectives: slurmDirectives,
  walltime: (text, milliseconds) => (isColonWalltime(text) ? text.trim() : walltime(milliseconds())),
  logDirectives: (values) => [`#SBATCH --output=${values.stdoutPath}`, `#SBATCH --error=${values.stderrPath}`],
  jobVariablePrefixes: ["SLURM_", "SBATCH_", "SALLOC_", "SRUN_"],
  // No environment of the submitter's: the job script exports the engine's own once bash has started.
  sandboxDirectives: ["#SBATCH --export=NONE"],
  extraArgs: { allowed: ALLOWED, refused: REFUSED, longOptions: true },
  submitFunction: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=("--dependency=afterok:$(IFS=:; echo "$*")"); fi',
    "  local out",
    '  out=$(sbatch --parsable "${after[@]}" "$script")',
    '  ids[$name]=${out%%;*}   # "123;cluster" on federated clusters',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  submitByHand: (script) => `sbatch ${script}`,
};
