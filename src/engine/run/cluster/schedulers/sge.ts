/**
 * Grid Engine (SGE and its successors): job scripts with `#$` directives submitted with `qsub -terse`, jobs
 * followed with `qstat` while queued or running and `qacct` once finished, cancelled with `qdel`.
 *
 * Everything strand knows about this scheduler is here (scheduler-backend.ts says what that is);
 * scheduler-registry.ts lists it. It imports no other scheduler's module.
 */
import { walltimeHours } from "../../durations.js";
import { SCHEDULER_NAME } from "../../../format/scheduler-values.js";
import { REFUSED_BECAUSE, PRIORITY, YES_NO, resourceList, type AllowedOption, type DirectiveValues } from "../directive-values.js";
import type { JobStatus, SchedulerBackend, SchedulerDefinition } from "../scheduler-backend.js";
import type { CommandLine, RunSchedulerCommand } from "../scheduler-commands.js";

const { ENVIRONMENT, FILES, WORKING_FOLDER, MAIL, SHELL, FIELDS, TRACKING, PREFIX } = REFUSED_BECAUSE;

// ── Job scripts ───────────────────────────────────────────────────────────────────────────────────────

/** The `extra_args` options a shared service passes on, each with the form of its value. */
const ALLOWED: Record<string, AllowedOption> = {
  "-l": { form: "RESOURCE=VALUE[,…]", check: resourceList(undefined, /^[A-Za-z0-9_.:+*-]{1,128}$/) },
  "-pe": { form: "ENVIRONMENT SLOTS", value: /^[A-Za-z0-9_.-]{1,64} \d{1,6}(?:-\d{1,6})?$/ },
  "-P": { form: "PROJECT", value: SCHEDULER_NAME },
  "-p": { form: "PRIORITY", value: PRIORITY },
  "-R": { form: "y|n", value: YES_NO },
};

/** Known options a shared service refuses in `extra_args`, with what each could do. */
const REFUSED: Record<string, string> = {
  "-S": SHELL,
  "-shell": SHELL,
  "-v": ENVIRONMENT,
  "-V": ENVIRONMENT,
  "-o": FILES,
  "-e": FILES,
  "-j": FILES,
  "-i": FILES,
  "-wd": WORKING_FOLDER,
  "-cwd": WORKING_FOLDER,
  "-m": MAIL,
  "-M": MAIL,
  "-C": PREFIX,
  "-@": "reads more options from a file",
  "-b": "runs a program instead of the job script, outside the sandbox",
  "-q": FIELDS,
  "-A": FIELDS,
  "-N": FIELDS,
  "-t": TRACKING,
  "-hold_jid": TRACKING,
  "-sync": TRACKING,
  "-h": TRACKING,
};

/** The directive lines for the job's name, threads, memory, GPUs, walltime and queue. */
function sgeDirectives(values: DirectiveValues, time: string | undefined): string[] {
  const lines = [`#$ -N ${values.jobName}`, `#$ -pe smp ${values.threads}`];
  if (values.memory) lines.push(`#$ -l h_vmem=${values.memory}`);
  if (values.gpus !== undefined) lines.push(`#$ -l gpu=${values.gpus}`);
  if (time) lines.push(`#$ -l h_rt=${time}`);
  if (values.partition) lines.push(`#$ -q ${values.partition}`);
  return lines;
}

// ── Job states ────────────────────────────────────────────────────────────────────────────────────────

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
  readonly name = SGE.name;
  readonly submitProgram = SGE.submitProgram;
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

/** SGE, as the scheduler registry lists it. */
export const SGE: SchedulerDefinition<"sge"> = {
  name: "sge",
  submitProgram: "qsub",
  controllerPrograms: ["qsub", "qdel", "qstat", "qalter", "qhold", "qrls", "qmod", "qrsh", "qlogin"],
  createBackend: () => new SgeBackend(),
  directivePrefix: "#$",
  resourceDirectives: sgeDirectives,
  walltime: (text, milliseconds) => (/^\s*\d+:\d{2}:\d{2}\s*$/.test(text) ? text.trim() : walltimeHours(milliseconds())),
  logDirectives: (values) => [`#$ -o ${values.stdoutPath}`, `#$ -e ${values.stderrPath}`],
  jobVariablePrefixes: ["SGE_"],
  // SGE passes the submitter's environment only when asked (-V, refused in extra_args).
  sandboxDirectives: [],
  extraArgs: { allowed: ALLOWED, refused: REFUSED, longOptions: false },
  submitFunction: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=(-hold_jid "$(IFS=,; echo "$*")"); fi',
    "  local out",
    '  out=$(qsub -terse "${after[@]}" "$script")',
    '  ids[$name]=${out%%.*}   # array jobs answer "123.1-10:1"',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  submitByHand: (script) => `qsub ${script}`,
};
