/**
 * PBS Pro, OpenPBS and Torque: job scripts with `#PBS` directives submitted with `qsub`, jobs followed
 * with `qstat -x -f` (finished jobs too, with their exit status), cancelled with `qdel`.
 *
 * Everything strand knows about this scheduler is here (scheduler-backend.ts says what that is);
 * scheduler-registry.ts lists it. It imports no other scheduler's module.
 */
import { walltimeHours } from "../../durations.js";
import { SCHEDULER_NAME } from "../../../format/scheduler-values.js";
import { REFUSED_BECAUSE, PRIORITY, YES_NO, resourceList, type AllowedOption, type DirectiveValues } from "../directive-values.js";
import type { JobStatus, SchedulerBackend, SchedulerDefinition } from "../scheduler-backend.js";
import type { CommandLine, RunSchedulerCommand } from "../scheduler-commands.js";

const { ENVIRONMENT, FILES, WORKING_FOLDER, ACCOUNT, MAIL, SHELL, FIELDS, TRACKING, INTERACTIVE, PREFIX } = REFUSED_BECAUSE;

// ── Job scripts ───────────────────────────────────────────────────────────────────────────────────────

/** PBS `-l` resources a job may ask for; not `prologue`/`epilogue` (Torque runs those as scripts). */
const PBS_RESOURCES = new Set(["select", "place", "ncpus", "ngpus", "nodes", "mem", "vmem", "pmem", "mpiprocs", "ompthreads", "gpus", "naccelerators", "accelerator_model", "scratch"]);

/** The `extra_args` options a shared service passes on, each with the form of its value. */
const ALLOWED: Record<string, AllowedOption> = {
  "-l": { form: "RESOURCE=VALUE[,…]", check: resourceList(PBS_RESOURCES, /^[A-Za-z0-9_.:=+-]{1,256}$/) },
  "-P": { form: "PROJECT", value: SCHEDULER_NAME },
  "-p": { form: "PRIORITY", value: PRIORITY },
  "-r": { form: "y|n", value: YES_NO },
};

/** Known options a shared service refuses in `extra_args`, with what each could do. */
const REFUSED: Record<string, string> = {
  "-S": SHELL,
  "-v": ENVIRONMENT,
  "-V": ENVIRONMENT,
  "-o": FILES,
  "-e": FILES,
  "-j": FILES,
  "-k": FILES,
  "-d": WORKING_FOLDER,
  "-w": WORKING_FOLDER,
  "-W": "sets job attributes, among them file staging (stagein, stageout) done as the service's account outside the sandbox",
  "-m": MAIL,
  "-M": MAIL,
  "-u": ACCOUNT,
  "-C": PREFIX,
  "-I": INTERACTIVE,
  "-X": INTERACTIVE,
  "-q": FIELDS,
  "-A": FIELDS,
  "-N": FIELDS,
  "-J": TRACKING,
  "-h": TRACKING,
};

/** The directive lines for the job's name, threads, memory, GPUs, walltime and queue. */
function pbsDirectives(values: DirectiveValues, time: string | undefined): string[] {
  const resources = [`nodes=1:ppn=${values.threads}`];
  if (values.memory) resources.push(`mem=${values.memory}`);
  if (values.gpus !== undefined) resources.push(`gpu=${values.gpus}`);
  if (time) resources.push(`walltime=${time}`);
  const lines = [`#PBS -N ${values.jobName}`, `#PBS -l ${resources.join(",")}`];
  // PBS has no portable way to ask for a GPU model; the comment keeps the request visible to the reader.
  if (values.gpuModel) lines.push(`# GPU model requested: ${values.gpuModel}`);
  if (values.partition) lines.push(`#PBS -q ${values.partition}`);
  if (values.account) lines.push(`#PBS -A ${values.account}`);
  return lines;
}

// ── Job states ────────────────────────────────────────────────────────────────────────────────────────

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
  readonly name = PBS.name;
  readonly submitProgram = PBS.submitProgram;
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

/** PBS Pro / OpenPBS / Torque, as the scheduler registry lists it. */
export const PBS: SchedulerDefinition<"pbs"> = {
  name: "pbs",
  submitProgram: "qsub",
  controllerPrograms: ["qsub", "qdel", "qstat", "qalter", "qhold", "qrls"],
  createBackend: () => new PbsBackend(),
  directivePrefix: "#PBS",
  resourceDirectives: pbsDirectives,
  walltime: (text, milliseconds) => (/^\s*\d+:\d{2}:\d{2}\s*$/.test(text) ? text.trim() : walltimeHours(milliseconds())),
  logDirectives: (values) => [`#PBS -o ${values.stdoutPath}`, `#PBS -e ${values.stderrPath}`],
  jobVariablePrefixes: ["PBS_"],
  // PBS passes the submitter's environment only when asked (-V, refused in extra_args).
  sandboxDirectives: [],
  extraArgs: { allowed: ALLOWED, refused: REFUSED, longOptions: false },
  submitFunction: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=(-W "depend=afterok:$(IFS=:; echo "$*")"); fi',
    '  ids[$name]=$(qsub "${after[@]}" "$script")',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  submitByHand: (script) => `qsub ${script}`,
};
