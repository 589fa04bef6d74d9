/**
 * Grid Engine (SGE and its successors): job scripts with `#$` directives submitted with `qsub -terse`, jobs
 * followed with `qstat` while queued or running and `qacct` once finished, cancelled with `qdel`.
 *
 * Tested against a real Grid Engine (Debian's Son of Grid Engine 8.1.9, scripts/gridengine-local.sh): what
 * it does where the documentation leaves room is said next to the code that depends on it.
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

/**
 * The directive lines for the job's name, shell, threads, memory, GPUs, walltime and queue.
 *
 * `-S /bin/bash`: Grid Engine's default (and Debian's) queue has `shell_start_mode posix_compliant`, which
 * runs a job script with the queue's `shell` (/bin/sh) whatever its `#!` line says; real GE 8.1.9 ran a
 * strand job script under dash, where a bash command fails (`Syntax error: "(" unexpected`, exit 2).
 */
function sgeDirectives(values: DirectiveValues, time: string | undefined): string[] {
  const lines = [`#$ -N ${values.jobName}`, "#$ -S /bin/bash", `#$ -pe smp ${values.threads}`];
  if (values.memory) lines.push(`#$ -l h_vmem=${values.memory}`);
  if (values.gpus !== undefined) lines.push(`#$ -l gpu=${values.gpus}`);
  if (time) lines.push(`#$ -l h_rt=${time}`);
  if (values.partition) lines.push(`#$ -q ${values.partition}`);
  return lines;
}

// ── Job states ────────────────────────────────────────────────────────────────────────────────────────

/** Maps an SGE `qstat` state word (`qw`, `r`, `Eqw`, `dr`) of a job still in the queue onto a JobStatus. */
export function sgeQueueStatus(native: string): JobStatus {
  if (native.includes("E")) return { state: "failed", exitCode: null, native };
  // q(ueued), w(aiting), h(old) and R(estarted) qualify the state; any remaining letter means it has started
  if (/[rtsSTd]/.test(native.replace(/[qwhR]/g, ""))) return { state: "running", exitCode: null, native };
  return { state: "pending", exitCode: null, native };
}

/** Parses plain `qstat` output (`-s prsz` too: a finished job's state word is `z`) into job id → state word. */
export function parseSgeQstat(stdout: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const columns = line.trim().split(/\s+/);
    // job-ID prior name user state …; the header and the dashed rule are skipped by the numeric id test
    if (columns.length >= 5 && /^\d+$/.test(columns[0]!)) states.set(columns[0]!, columns[4]!);
  }
  return states;
}

/**
 * Parses `qacct -j ID` (the last record wins when an id was reused) into a JobStatus. `failed` is Grid
 * Engine's own reason when it is not 0, which real GE 8.1.9 writes after the number (`37  : qmaster enforced
 * h_rt, h_cpu, or h_vmem limit`, `100 : assumedly after job` for a job qdel killed); it goes into the state
 * word for messages.
 */
export function parseQacct(stdout: string): JobStatus | undefined {
  const failed = [...stdout.matchAll(/^failed\s+(\d+)(.*)$/gm)].pop();
  const exit = [...stdout.matchAll(/^exit_status\s+(\d+)/gm)].pop();
  if (!failed && !exit) return undefined;
  const exitCode = exit ? Number(exit[1]) : null;
  const failure = failed ? Number(failed[1]) : 0;
  const reason = failed?.[2]?.replace(/^\s*:?\s*/, "").trim();
  const native = `failed=${failure}${failure !== 0 && reason ? ` (${reason})` : ""} exit_status=${exitCode ?? "?"}`;
  if (failure === 0 && exitCode === 0) return { state: "succeeded", exitCode: 0, native };
  return { state: "failed", exitCode: exitCode === 0 ? null : exitCode, native };
}

/** Job names in `qstat -s z -xml` (finished jobs qmaster still lists; plain qstat cuts names to 10 characters). */
export function parseSgeZombieNames(xml: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const block of xml.split("<job_list").slice(1)) {
    const id = /<JB_job_number>(\d+)<\/JB_job_number>/.exec(block)?.[1];
    const name = /<JB_name>([^<]*)<\/JB_name>/.exec(block)?.[1];
    if (id !== undefined && name !== undefined) names.set(id, name);
  }
  return names;
}

/** The job id in `qsub -terse` output (`123`, `123.1-10:1`) or in "Your job 123 (…) has been submitted". */
export function parseSgeQsubId(stdout: string): string | undefined {
  const text = stdout.trim();
  const terse = /^(\d+)(?:\.\S+)?$/m.exec(text);
  if (terse) return terse[1];
  return /Your job(?:-array)? (\d+)/.exec(text)?.[1];
}

/**
 * qacct's answers (on stderr, exit 1) that mean "no record of this job": `error: job id 12 not found`, and,
 * before qmaster has written the first record of a new cluster, `/var/lib/gridengine/default/common/accounting:
 * No such file or directory` (real GE 8.1.9, which says "no jobs running since startup" on stdout). The first
 * job a fresh cluster ran failed with "qacct -j 4 failed" before this.
 */
const QACCT_NO_RECORD = /not found|accounting: no such file or directory/i;

/**
 * How long a finished job may wait for its accounting record before it counts as unknown. qmaster writes the
 * accounting file every `flush_time` of `reporting_params` (15 s by default): on real GE 8.1.9 a job had left
 * `qstat` 10 to 13 s before `qacct` knew it. Until then it is listed by `qstat -s z` (the last
 * `finished_jobs`, 100 by default, of the cluster), as is a job deleted before it started, which never gets a
 * record: so the wait is bounded.
 */
export const SGE_ACCOUNTING_WAIT_MS = 120_000;

class SgeBackend implements SchedulerBackend {
  readonly name = SGE.name;
  readonly submitProgram = SGE.submitProgram;
  readonly cancelAnswers = /does not exist|has already been deleted/i;
  /** Jobs this executor asked qdel to delete: one that ended without a record was deleted before it ran. */
  private readonly deleted = new Set<string>();
  /** When a finished job (`z`) was first seen without an accounting record. */
  private readonly unaccountedSince = new Map<string, number>();

  /** SGE's qsub reads the script, `#$` directives included, from stdin when no file is named. */
  submitCommand(script: string, cwd: string): CommandLine {
    return { file: this.submitProgram, args: ["-terse"], stdin: script, cwd };
  }

  parseJobId(stdout: string): string | undefined {
    return parseSgeQsubId(stdout);
  }

  cancelCommand(ids: string[]): CommandLine {
    for (const id of ids) this.deleted.add(id);
    return { file: "qdel", args: ids };
  }

  /**
   * `qstat -j` while the job is queued or running (plain qstat cuts names short), else the finished jobs
   * qmaster still lists (before their accounting record is written), else `qacct -j`.
   */
  async jobName(id: string, run: RunSchedulerCommand): Promise<string | undefined> {
    const queued = await run({ file: "qstat", args: ["-j", id] }, { answers: /do not exist|does not exist/i });
    const name = /^job_name:\s*(\S+)/m.exec(queued.stdout)?.[1];
    if (name !== undefined) return name;
    const finished = await run({ file: "qstat", args: ["-s", "z", "-xml"] }, { answers: /do not exist|does not exist/i });
    const zombie = parseSgeZombieNames(finished.stdout).get(id);
    if (zombie !== undefined) return zombie;
    const accounted = await run({ file: "qacct", args: ["-j", id] }, { answers: QACCT_NO_RECORD });
    return [...accounted.stdout.matchAll(/^jobname\s+(\S+)/gm)].pop()?.[1];
  }

  /**
   * `qstat -s prsz` lists the user's queued, running and finished (`z`) jobs in one call; finished ones, and
   * those no longer listed, are asked of `qacct`, one by one. A finished job whose record is not written yet
   * is still running as far as the engine is concerned (see SGE_ACCOUNTING_WAIT_MS), unless qdel deleted it.
   */
  async queryStatus(ids: string[], run: RunSchedulerCommand): Promise<Map<string, JobStatus>> {
    const result = new Map<string, JobStatus>();
    if (ids.length === 0) return result;
    const listed = parseSgeQstat((await run({ file: "qstat", args: ["-s", "prsz"] })).stdout);
    for (const id of ids) {
      const native = listed.get(id);
      if (native !== undefined && native !== "z") result.set(id, sgeQueueStatus(native));
    }
    for (const id of ids.filter((candidate) => !result.has(candidate))) {
      const accounted = await run({ file: "qacct", args: ["-j", id] }, { answers: QACCT_NO_RECORD });
      const status = parseQacct(accounted.stdout);
      if (status) {
        result.set(id, status);
        this.unaccountedSince.delete(id);
      } else if (listed.get(id) === "z") {
        const unaccounted = this.unaccounted(id);
        if (unaccounted) result.set(id, unaccounted);
      }
      // else: unknown to Grid Engine (the executor gives up on it after a few polls)
    }
    return result;
  }

  /** The state of a finished job without an accounting record yet; undefined once it has waited too long. */
  private unaccounted(id: string): JobStatus | undefined {
    if (this.deleted.has(id)) return { state: "cancelled", exitCode: null, native: "z (deleted)" };
    const now = Date.now();
    const since = this.unaccountedSince.get(id) ?? now;
    this.unaccountedSince.set(id, since);
    // Past the wait, the job stays unknown (its first sighting is kept, so it does not start waiting again).
    return now - since <= SGE_ACCOUNTING_WAIT_MS ? { state: "running", exitCode: null, native: "z (ended; not yet accounted)" } : undefined;
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
