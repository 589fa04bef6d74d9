/**
 * The four HPC schedulers as command sets: how to submit a job script and read its id, how to ask for the
 * state of many jobs in one call, and how to cancel. Parsing is pure and exported for tests; the calls go
 * through a retrying command runner.
 */
import type { CommandLine, RunSchedulerCommand } from "./scheduler-commands.js";

/** The supported schedulers, in the order help texts list them. */
export const BACKEND_NAMES = ["slurm", "pbs", "sge", "lsf"] as const;

export type BackendName = (typeof BACKEND_NAMES)[number];

/** The program each scheduler submits job scripts with: what must be on PATH to use it. */
export const SUBMIT_PROGRAMS: Readonly<Record<BackendName, string>> = { slurm: "sbatch", pbs: "qsub", sge: "qsub", lsf: "bsub" };

/** Whether a text names a supported scheduler. */
export function isBackendName(text: string | undefined): text is BackendName {
  return text !== undefined && (BACKEND_NAMES as readonly string[]).includes(text);
}

export type JobState = "pending" | "running" | "succeeded" | "failed" | "cancelled" | "timed-out";

/** A job's state as the scheduler reports it, mapped onto the engine's states. */
export interface JobStatus {
  state: JobState;
  /** Exit code of a finished job (124 for a time-out, 128+N for signal N); null while running or when unknown. */
  exitCode: number | null;
  /** The scheduler's own word for the state (`FAILED`, `F`, `qw`, `EXIT`), for messages. */
  native: string;
}

export type FinishedState = Exclude<JobState, "pending" | "running">;

/** Whether a state is final. */
export function isFinished(state: JobState): state is FinishedState {
  return state !== "pending" && state !== "running";
}

export interface SchedulerBackend {
  readonly name: BackendName;
  /** The program that submits (`sbatch`), for messages. */
  readonly submitProgram: string;
  /** The command that submits a job script, given as its text on stdin (see CommandLine.stdin). */
  submitCommand(script: string, cwd: string): CommandLine;
  /** The job id in the submit command's output; undefined when it has none. */
  parseJobId(stdout: string): string | undefined;
  cancelCommand(ids: string[]): CommandLine;
  /** Non-zero exits of the cancel command that mean "already gone". */
  readonly cancelAnswers: RegExp;
  /** States of the given jobs; ids the scheduler does not know are absent from the map. */
  queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>>;
  /** The name the scheduler has for a job (to tell a run's own jobs from others'), or undefined when it does not know the job. */
  jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined>;
}

/** The first non-empty line of a command's output. */
function firstLine(text: string): string | undefined {
  return text.split("\n").map((line) => line.trim()).find((line) => line !== "");
}

/** A new backend object (SLURM's remembers whether accounting is available, so make one per executor). */
export function createBackend(name: BackendName): SchedulerBackend {
  switch (name) {
    case "slurm":
      return new SlurmBackend();
    case "pbs":
      return new PbsBackend();
    case "sge":
      return new SgeBackend();
    case "lsf":
      return new LsfBackend();
  }
}

// ── SLURM ────────────────────────────────────────────────────────────────────────────────────────────────

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
  readonly name = "slurm";
  readonly submitProgram = SUBMIT_PROGRAMS.slurm;
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

// ── PBS Pro / OpenPBS / Torque ───────────────────────────────────────────────────────────────────────────

/** Parses `qstat -x -f` output into job id → attributes (keys lower-cased; wrapped values joined). */
export function parseQstatFull(stdout: string): Map<string, Record<string, string>> {
  const jobs = new Map<string, Record<string, string>>();
  let attributes: Record<string, string> | undefined;
  let lastKey: string | undefined;
  for (const line of stdout.split("\n")) {
    const header = /^Job Id:\s*(\S+)/.exec(line);
    if (header) {
      attributes = {};
      jobs.set(header[1]!, attributes);
      lastKey = undefined;
      continue;
    }
    if (!attributes) continue;
    const attribute = /^\s+([\w.]+) = (.*)$/.exec(line);
    if (attribute) {
      lastKey = attribute[1]!.toLowerCase();
      attributes[lastKey] = attribute[2]!;
    } else if (lastKey && /^\t/.test(line)) {
      attributes[lastKey] += line.trim(); // PBS wraps long values onto tab-indented lines
    }
  }
  return jobs;
}

/** Maps PBS attributes (`job_state`, `Exit_status`, `comment`) onto a JobStatus. */
export function pbsStatus(attributes: Record<string, string>): JobStatus {
  const native = (attributes.job_state ?? "?").trim();
  const exitText = attributes.exit_status?.trim();
  if (["Q", "H", "W", "T", "M"].includes(native)) return { state: "pending", exitCode: null, native };
  if (native !== "F" && native !== "C") return { state: "running", exitCode: null, native }; // R, E, B, S, U, X
  const exit = exitText !== undefined && /^-?\d+$/.test(exitText) ? Number(exitText) : null;
  if (exit === -29 || /walltime \d+ exceeded limit/i.test(attributes.comment ?? "")) return { state: "timed-out", exitCode: 124, native };
  if (exit === 0) return { state: "succeeded", exitCode: 0, native };
  // PBS reports a signal as 256+N (Pro) or 128+N (Torque); negative values are PBS's own launch failures.
  const exitCode = exit === null || exit < 0 ? null : exit > 256 ? 128 + (exit - 256) : exit;
  return { state: "failed", exitCode, native };
}

/** The job id in `qsub` output (`123.server`). */
export function parseQsubId(stdout: string): string | undefined {
  const line = stdout.trim().split("\n").pop()?.trim();
  return line && /^\d+(\[\])?(\.\S+)?$/.test(line) ? line : undefined;
}

/** The numeric part of a PBS id, so `123.server` matches `123.server.example.org`. */
function pbsNumber(id: string): string {
  return id.split(".")[0]!;
}

class PbsBackend implements SchedulerBackend {
  readonly name = "pbs";
  readonly submitProgram = SUBMIT_PROGRAMS.pbs;
  readonly cancelAnswers = /unknown job id|job has finished|invalid state for job/i;

  /** qsub reads the script from stdin when no file is named (its `-N` directive names the job, not "STDIN"). */
  submitCommand(script: string, cwd: string): CommandLine {
    return { file: this.submitProgram, args: [], stdin: script, cwd };
  }

  parseJobId(stdout: string): string | undefined {
    return parseQsubId(stdout);
  }

  cancelCommand(ids: string[]): CommandLine {
    return { file: "qdel", args: ids };
  }

  async jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined> {
    const qstat = await run({ file: "qstat", args: ["-x", "-f", id] }, { answers: /unknown job id|job has finished/i });
    const [attributes] = [...parseQstatFull(qstat.stdout).values()];
    return attributes?.job_name?.trim() || undefined;
  }

  async queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>> {
    const result = new Map<string, JobStatus>();
    if (ids.length === 0) return result;
    // -x includes finished jobs (PBS Pro / OpenPBS), which carry Exit_status.
    const qstat = await run({ file: "qstat", args: ["-x", "-f", ...ids] }, { answers: /unknown job id|job has finished/i });
    const byNumber = new Map<string, Record<string, string>>();
    for (const [id, attributes] of parseQstatFull(qstat.stdout)) byNumber.set(pbsNumber(id), attributes);
    for (const id of ids) {
      const attributes = byNumber.get(pbsNumber(id));
      if (attributes) result.set(id, pbsStatus(attributes));
    }
    return result;
  }
}

// ── SGE ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Maps an SGE `qstat` state word (`qw`, `r`, `Eqw`, `dr`) onto a JobStatus. */
export function sgeQueueStatus(native: string): JobStatus {
  if (native.includes("E")) return { state: "failed", exitCode: null, native };
  // q(ueued), w(aiting), h(old) and R(estarted) qualify the state; any remaining letter means it has started
  if (/[rtsSTd]/.test(native.replace(/[qwhR]/g, ""))) return { state: "running", exitCode: null, native };
  return { state: "pending", exitCode: null, native };
}

/** Parses plain `qstat` output into job id → state word. */
export function parseSgeQstat(stdout: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const columns = line.trim().split(/\s+/);
    // job-ID prior name user state …; the header and the dashed rule are skipped by the numeric id test
    if (columns.length >= 5 && /^\d+$/.test(columns[0]!)) states.set(columns[0]!, columns[4]!);
  }
  return states;
}

/** Parses `qacct -j ID` (the last record wins when an id was reused) into a JobStatus. */
export function parseQacct(stdout: string): JobStatus | undefined {
  const failed = [...stdout.matchAll(/^failed\s+(\d+)(.*)$/gm)].pop();
  const exit = [...stdout.matchAll(/^exit_status\s+(\d+)/gm)].pop();
  if (!failed && !exit) return undefined;
  const exitCode = exit ? Number(exit[1]) : null;
  const failure = failed ? Number(failed[1]) : 0;
  const native = `failed=${failure} exit_status=${exitCode ?? "?"}`;
  if (failure === 0 && exitCode === 0) return { state: "succeeded", exitCode: 0, native };
  return { state: "failed", exitCode: exitCode === 0 ? null : exitCode, native };
}

/** The job id in `qsub -terse` output (`123`, `123.1-10:1`) or in "Your job 123 (…) has been submitted". */
export function parseSgeQsubId(stdout: string): string | undefined {
  const text = stdout.trim();
  const terse = /^(\d+)(?:\.\S+)?$/m.exec(text);
  if (terse) return terse[1];
  return /Your job(?:-array)? (\d+)/.exec(text)?.[1];
}

class SgeBackend implements SchedulerBackend {
  readonly name = "sge";
  readonly submitProgram = SUBMIT_PROGRAMS.sge;
  readonly cancelAnswers = /does not exist|has already been deleted/i;

  /** SGE's qsub reads the script, `#$` directives included, from stdin when no file is named. */
  submitCommand(script: string, cwd: string): CommandLine {
    return { file: this.submitProgram, args: ["-terse"], stdin: script, cwd };
  }

  parseJobId(stdout: string): string | undefined {
    return parseSgeQsubId(stdout);
  }

  cancelCommand(ids: string[]): CommandLine {
    return { file: "qdel", args: ids };
  }

  /** `qstat -j` while the job is queued or running (plain qstat cuts names short), else `qacct -j`. */
  async jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined> {
    const queued = await run({ file: "qstat", args: ["-j", id] }, { answers: /do not exist|does not exist/i });
    const name = /^job_name:\s*(\S+)/m.exec(queued.stdout)?.[1];
    if (name !== undefined) return name;
    const accounted = await run({ file: "qacct", args: ["-j", id] }, { answers: /not found/i });
    return [...accounted.stdout.matchAll(/^jobname\s+(\S+)/gm)].pop()?.[1];
  }

  /** `qstat` lists the user's queued and running jobs in one call; finished ones are asked of `qacct`, one by one. */
  async queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>> {
    const result = new Map<string, JobStatus>();
    if (ids.length === 0) return result;
    const queued = parseSgeQstat((await run({ file: "qstat", args: [] })).stdout);
    for (const id of ids) {
      const native = queued.get(id);
      if (native !== undefined) result.set(id, sgeQueueStatus(native));
    }
    for (const id of ids.filter((candidate) => !result.has(candidate))) {
      // qacct knows a job only once its accounting record is written: until then the job stays unknown.
      const accounted = await run({ file: "qacct", args: ["-j", id] }, { answers: /not found/i });
      const status = parseQacct(accounted.stdout);
      if (status) result.set(id, status);
    }
    return result;
  }
}

// ── LSF ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Maps an LSF `bjobs` state (`PEND`, `RUN`, `DONE`, `EXIT`) and exit code onto a JobStatus. */
export function lsfStatus(native: string, exitCodeText?: string): JobStatus {
  const exitCode = exitCodeText !== undefined && /^\d+$/.test(exitCodeText) ? Number(exitCodeText) : null;
  switch (native) {
    case "PEND":
    case "PSUSP":
      return { state: "pending", exitCode: null, native };
    case "DONE":
      return { state: "succeeded", exitCode: 0, native };
    case "EXIT":
      return { state: "failed", exitCode, native };
    case "ZOMBI":
      return { state: "failed", exitCode, native };
    default:
      return { state: "running", exitCode: null, native }; // RUN, USUSP, SSUSP, PROV, WAIT, UNKWN
  }
}

/** Parses `bjobs -noheader -o "jobid stat exit_code"` lines. */
export function parseBjobs(stdout: string): Map<string, JobStatus> {
  const statuses = new Map<string, JobStatus>();
  for (const line of stdout.split("\n")) {
    const [id, state, exitCode] = line.trim().split(/\s+/);
    if (id && state && /^\d+/.test(id)) statuses.set(id, lsfStatus(state, exitCode));
  }
  return statuses;
}

/** The job id in `bsub` output: "Job <123> is submitted to queue <normal>." */
export function parseBsubId(stdout: string): string | undefined {
  return /Job <(\d+)> is submitted/.exec(stdout)?.[1];
}

class LsfBackend implements SchedulerBackend {
  readonly name = "lsf";
  readonly submitProgram = SUBMIT_PROGRAMS.lsf;
  readonly cancelAnswers = /job has already finished|is not found|no matching job/i;

  /** bsub reads `#BSUB` lines only from a script given on stdin. */
  submitCommand(script: string, cwd: string): CommandLine {
    return { file: this.submitProgram, args: [], stdin: script, cwd };
  }

  parseJobId(stdout: string): string | undefined {
    return parseBsubId(stdout);
  }

  cancelCommand(ids: string[]): CommandLine {
    return { file: "bkill", args: ids };
  }

  async jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined> {
    const bjobs = await run({ file: "bjobs", args: ["-noheader", "-o", "job_name", id] }, { answers: /is not found/i });
    return firstLine(bjobs.stdout);
  }

  async queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>> {
    const result = new Map<string, JobStatus>();
    if (ids.length === 0) return result;
    const bjobs = await run({ file: "bjobs", args: ["-noheader", "-o", "jobid stat exit_code", ...ids] }, { answers: /is not found/i });
    const known = parseBjobs(bjobs.stdout);
    for (const id of ids) {
      const status = known.get(id);
      if (status) result.set(id, status);
    }
    return result;
  }
}
