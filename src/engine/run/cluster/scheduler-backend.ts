/**
 * What one HPC scheduler is to strand, as its module in `schedulers/` describes it: its command set (submit a
 * job script and read its id, ask for the state of many jobs in one call, cancel), the directive lines of
 * its job scripts, what a shared service passes on of `extra_args`, and how `submit.sh` and a person submit
 * a script. `scheduler-registry.ts` lists the modules; every scheduler name and program derives from there.
 */
import type { DirectiveValues, ExtraArgsPolicy } from "./directive-values.js";
import type { CommandLine, RunSchedulerCommand } from "./scheduler-commands.js";

export type SchedulerJobState = "pending" | "running" | "succeeded" | "failed" | "cancelled" | "timed-out";

/** A job's state as the scheduler reports it, mapped onto the engine's states. */
export interface JobStatus {
  state: SchedulerJobState;
  /** Exit code of a finished job (124 for a time-out, 128+N for signal N); null while running or when unknown. */
  exitCode: number | null;
  /** The scheduler's own word for the state (`FAILED`, `F`, `qw`, `EXIT`), for messages. */
  native: string;
}

export type FinishedState = Exclude<SchedulerJobState, "pending" | "running">;

/** Whether a state is final. */
export function isFinished(state: SchedulerJobState): state is FinishedState {
  return state !== "pending" && state !== "running";
}

/** A scheduler's command set. Parsing is pure and exported by each module for tests; the calls go through a retrying command runner. */
export interface SchedulerBackend {
  /** The scheduler's name (`slurm`), as the registry lists it. */
  readonly name: string;
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

/** Everything strand knows about one scheduler: one module in `schedulers/` exports one of these. */
export interface SchedulerDefinition<Name extends string = string> {
  /** The name a profile's `[cluster] backend`, `--executor` and `-b` use (`slurm`). */
  readonly name: Name;
  /** The program that submits job scripts (`sbatch`): what must be on PATH to use the scheduler. */
  readonly submitProgram: string;
  /** The scheduler's programs that talk to its controller: a shared service's jobs never get them. */
  readonly controllerPrograms: readonly string[];
  /** A new command set (SLURM's remembers whether accounting is available, so make one per executor). */
  createBackend(): SchedulerBackend;
  /** The prefix of its directive lines (`#SBATCH`). */
  readonly directivePrefix: string;
  /** The directive lines for the job's name, threads, memory, GPUs, walltime, partition and account. */
  resourceDirectives(values: DirectiveValues, walltime: string | undefined): string[];
  /** A walltime as the scheduler writes it; `milliseconds` reads the text (with a warning when it cannot). */
  walltime(text: string, milliseconds: () => number): string;
  /** The directives that name the scheduler's own output files (`--output=…`, `-o …`). */
  logDirectives(values: DirectiveValues): string[];
  /** The prefixes of the variables it sets on the node (`SLURM_`): a shared service's job script exports none of them. */
  readonly jobVariablePrefixes: readonly string[];
  /** The last directives of a shared service's job (what keeps the submitter's environment out of it). */
  readonly sandboxDirectives: readonly string[];
  /** What a shared service passes on of a job's `extra_args`. */
  readonly extraArgs: ExtraArgsPolicy;
  /**
   * The bash function `submit_job NAME SCRIPT [ID…]` of `submit.sh`: submits SCRIPT after the given job ids,
   * prints `NAME ID` and stores the id in `ids[NAME]`.
   */
  readonly submitFunction: readonly string[];
  /** How to submit one script by hand (`sbatch job.sh`). */
  submitByHand(script: string): string;
}
