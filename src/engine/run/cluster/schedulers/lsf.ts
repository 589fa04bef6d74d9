/**
 * IBM Spectrum LSF: job scripts with `#BSUB` directives submitted on stdin to `bsub`, jobs followed with
 * `bjobs`, cancelled with `bkill`.
 *
 * Everything strand knows about this scheduler is here (scheduler-backend.ts says what that is);
 * scheduler-registry.ts lists it. It imports no other scheduler's module.
 */
import { lsfRunLimit } from "../../durations.js";
import { SCHEDULER_NAME } from "../../../format/scheduler-values.js";
import { REFUSED_BECAUSE, type AllowedOption, type DirectiveValues } from "../directive-values.js";
import type { JobStatus, SchedulerBackend, SchedulerDefinition } from "../scheduler-backend.js";
import { firstLine, type CommandLine, type RunSchedulerCommand } from "../scheduler-commands.js";

const { ENVIRONMENT, FILES, WORKING_FOLDER, MAIL, FIELDS, TRACKING, INTERACTIVE } = REFUSED_BECAUSE;

// ── Job scripts ───────────────────────────────────────────────────────────────────────────────────────

/** The `extra_args` options a shared service passes on, each with the form of its value. */
const ALLOWED: Record<string, AllowedOption> = {
  "-R": { form: '"REQUIREMENTS"', value: /^[A-Za-z0-9_.:=<>!&|,()[\] +*-]{1,512}$/, quoted: true },
  "-P": { form: "PROJECT", value: SCHEDULER_NAME },
  "-x": {},
  "-sp": { form: "PRIORITY", value: /^\d{1,4}$/ },
};

/** Known options a shared service refuses in `extra_args`, with what each could do. */
const REFUSED: Record<string, string> = {
  "-E": "runs a command before or after the job, outside the sandbox, as the service's account",
  "-Ep": "runs a command before or after the job, outside the sandbox, as the service's account",
  "-f": "copies files between the submitting host and the node as the service's account",
  "-i": FILES,
  "-is": FILES,
  "-o": FILES,
  "-oo": FILES,
  "-e": FILES,
  "-eo": FILES,
  "-cwd": WORKING_FOLDER,
  "-outdir": WORKING_FOLDER,
  "-L": "starts the job script in a login shell, which reads the account's start-up files outside the sandbox",
  "-env": ENVIRONMENT,
  "-u": MAIL,
  "-N": MAIL,
  "-B": MAIL,
  "-a": "runs a site's application scripts (esub) for the job",
  "-Zs": "has the scheduler spool the job's command file",
  "-I": INTERACTIVE,
  "-Ip": INTERACTIVE,
  "-Is": INTERACTIVE,
  "-K": INTERACTIVE,
  "-q": FIELDS,
  "-J": FIELDS,
  "-n": FIELDS,
  "-M": FIELDS,
  "-W": FIELDS,
  "-w": TRACKING,
};

/** The directive lines for the job's name, threads, memory, GPUs, walltime and queue. */
function lsfDirectives(values: DirectiveValues, time: string | undefined): string[] {
  const lines = [`#BSUB -J ${values.jobName}`, `#BSUB -n ${values.threads}`];
  if (values.memory) lines.push(`#BSUB -M ${values.memory}`);
  if (values.gpus !== undefined) lines.push(`#BSUB -gpu "num=${values.gpus}"`);
  if (time) lines.push(`#BSUB -W ${time}`);
  if (values.partition) lines.push(`#BSUB -q ${values.partition}`);
  return lines;
}

// ── Job states ────────────────────────────────────────────────────────────────────────────────────────

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
  readonly name = LSF.name;
  readonly submitProgram = LSF.submitProgram;
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

/** LSF, as the scheduler registry lists it. */
export const LSF: SchedulerDefinition<"lsf"> = {
  name: "lsf",
  submitProgram: "bsub",
  controllerPrograms: ["bsub", "bjobs", "bkill", "bmod", "bqueues", "bhosts", "bstop", "bresume"],
  createBackend: () => new LsfBackend(),
  directivePrefix: "#BSUB",
  resourceDirectives: lsfDirectives,
  walltime: (_text, milliseconds) => lsfRunLimit(milliseconds()),
  logDirectives: (values) => [`#BSUB -o ${values.stdoutPath}`, `#BSUB -e ${values.stderrPath}`],
  jobVariablePrefixes: ["LSB_", "LSF_"],
  // LSF passes the submitter's environment, and it is the engine's, which no job can change.
  sandboxDirectives: [],
  extraArgs: { allowed: ALLOWED, refused: REFUSED, longOptions: false },
  submitFunction: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=() condition=() id",
    '  for id in "$@"; do condition+=("done($id)"); done',
    '  if [ $# -gt 0 ]; then after=(-w "$(printf "%s && " "${condition[@]}" | sed "s/ && $//")"); fi',
    "  local out",
    '  out=$(bsub "${after[@]}" < "$script")   # bsub reads #BSUB lines only from stdin',
    '  ids[$name]=$(echo "$out" | sed -n "s/^Job <\\([0-9]*\\)> is submitted.*/\\1/p")',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  submitByHand: (script) => `bsub < ${script}`,
};
