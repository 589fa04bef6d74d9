/**
 * What may go into a scheduler directive line (issue 25, finding 3). The scheduler reads a job script's
 * directives, and every line before the sandbox starts runs on the node as the service's account, outside
 * the sandbox: a newline in a partition would give a pipeline's author directives and shell lines of their
 * own there, and a space options of their own. So each value from a pipeline is checked against the form of
 * its field, and a job with a value that fails is refused; no line is ever written with it.
 *
 * `extra_args` are the scheduler's own options. On a person's own machine they pass as written (only control
 * characters are refused): that person's jobs run as themselves anyway. In a shared service (a job sandbox is
 * set) only options that ask for resources or scheduling pass, each with its value checked; the others can
 * start programs or open files outside the sandbox, set the environment the job script starts with, act as
 * another account, or send mail as the service.
 */
import { EngineError } from "../../findings.js";
import type { BackendName } from "./backends.js";

/** A partition, queue, account, QOS or GPU model: what every scheduler takes, never starting like an option. */
const NAME = "[A-Za-z0-9_][A-Za-z0-9_.:+@-]{0,63}";
const SCHEDULER_NAME = new RegExp(`^${NAME}$`);
/** Partitions may be listed (`short,long`: SLURM tries each). */
const SCHEDULER_NAMES = new RegExp(`^${NAME}(?:,${NAME}){0,15}$`);
const NAME_RULE = "letters, digits and _ . : + @ -, at most 64, starting with a letter, a digit or _";

/** The name a job carries at the scheduler (`strand-<run id>-<n>`, `<rule>-<n>`). */
const JOB_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
/** A memory size as pipelines write it (`16G`, `512M`, `1.5G`, `8 GB`). */
const MEMORY = /^\s*\d{1,12}(?:\.\d{1,6})?\s*[KMGTP]?B?\s*$/i;
/** C0 controls, DEL, and the characters some tools take for line ends. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/** The value as messages show it: quoted, control characters visible, at most 100 characters. */
export function shownValue(value: string): string {
  const quoted = JSON.stringify(value);
  return quoted.length > 100 ? `${quoted.slice(0, 97)}…"` : quoted;
}

/** Why a text cannot be a scheduler name (a list of names with `list`), or undefined when it can. */
export function schedulerNameProblem(value: string, options: { list?: boolean } = {}): string | undefined {
  if ((options.list ? SCHEDULER_NAMES : SCHEDULER_NAME).test(value)) return undefined;
  return `is not a scheduler name (${NAME_RULE}${options.list ? "; several separated by commas" : ""})`;
}

/** Why a text cannot stand in a directive line as it is (a control character), or undefined. */
export function controlCharacterProblem(value: string): string | undefined {
  return CONTROL.test(value) ? "holds a control character (a new line would start a directive or a shell line of its own)" : undefined;
}

/** Who a refusal is about: the rule (the job's instance name holds sample names, so only when no rule is known). */
export interface DirectiveSubject {
  rule?: string;
  name: string;
}

/** The error that refuses a job whose value cannot go into its directives. */
export function directiveError(subject: DirectiveSubject, message: string): EngineError {
  const who = subject.rule !== undefined ? `rule '${subject.rule}'` : `job '${subject.name}'`;
  return new EngineError("CLUSTER_DIRECTIVE", `${who}: ${message}; strand writes no scheduler directive with it`, {
    rule: subject.rule ?? null,
    suggestion: "write the value as the scheduler's own tools would take it, on one line",
  });
}

/** A name field, checked (throws the job's refusal). */
export function checkedName(subject: DirectiveSubject, field: string, value: string, options: { list?: boolean } = {}): string {
  const problem = schedulerNameProblem(value, options);
  if (problem) throw directiveError(subject, `${field} ${shownValue(value)} ${problem}`);
  return value;
}

/** The job's scheduler name, checked. */
export function checkedJobName(subject: DirectiveSubject, value: string): string {
  if (!JOB_NAME.test(value)) throw directiveError(subject, `job name ${shownValue(value)} is not a scheduler job name (letters, digits and _ . -)`);
  return value;
}

/** A memory size, checked, and written without its spaces (`8 G` → `8G`). */
export function checkedMemory(subject: DirectiveSubject, value: string): string {
  if (!MEMORY.test(value)) throw directiveError(subject, `memory ${shownValue(value)} is not a size such as 16G or 512M`);
  return value.replace(/\s+/g, "");
}

/** A whole number of at least `min` (threads, GPUs), checked. */
export function checkedCount(subject: DirectiveSubject, field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > 1_000_000) throw directiveError(subject, `${field} ${value} is not a whole number of at least ${min}`);
  return value;
}

/** A text without control characters (a walltime, a log path, an extra_args entry on one's own machine), checked. */
export function checkedLine(subject: DirectiveSubject, field: string, value: string): string {
  const problem = controlCharacterProblem(value);
  if (problem) throw directiveError(subject, `${field} ${shownValue(value)} ${problem}`);
  return value;
}

// ── extra_args in a shared service ───────────────────────────────────────────────────────────────────────

/** An option a shared service passes on: the form of its value (none for a flag) and how it is checked. */
interface AllowedOption {
  /** The value's form in messages (`NAME`); absent for a flag, which takes no value. */
  form?: string;
  value?: RegExp;
  /** A check beyond the pattern (PBS's resource names): the problem, or undefined. */
  check?: (value: string) => string | undefined;
  /** Written `-R "value"` (LSF's resource requirement, which holds spaces). */
  quoted?: boolean;
}

const COUNT = /^\d{1,6}$/;
const PRIORITY = /^-?\d{1,4}$/;
const YES_NO = /^[yn]$/;
const GPU_COUNT = /^(?:[A-Za-z0-9_.+-]{1,64}:)?\d{1,4}$/;

/** PBS `-l` resources a job may ask for; not `prologue`/`epilogue` (Torque runs those as scripts). */
const PBS_RESOURCES = new Set(["select", "place", "ncpus", "ngpus", "nodes", "mem", "vmem", "pmem", "mpiprocs", "ompthreads", "gpus", "naccelerators", "accelerator_model", "scratch"]);

function resourceList(allowed: Set<string> | undefined, valuePattern: RegExp): (value: string) => string | undefined {
  return (value) => {
    for (const item of value.split(",")) {
      const [key = "", ...rest] = item.split("=");
      const resourceValue = rest.join("=");
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key) || rest.length === 0) return `${shownValue(item)} is not RESOURCE=VALUE`;
      if (allowed && !allowed.has(key)) return `resource ${shownValue(key)} is not one a shared service asks for (${[...allowed].join(", ")})`;
      if (!valuePattern.test(resourceValue)) return `the value of ${key} ${shownValue(resourceValue)} holds characters other than letters, digits and _ . : = + -`;
    }
    return undefined;
  };
}

const ALLOWED: Record<BackendName, Record<string, AllowedOption>> = {
  slurm: {
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
  },
  pbs: {
    "-l": { form: "RESOURCE=VALUE[,…]", check: resourceList(PBS_RESOURCES, /^[A-Za-z0-9_.:=+-]{1,256}$/) },
    "-P": { form: "PROJECT", value: SCHEDULER_NAME },
    "-p": { form: "PRIORITY", value: PRIORITY },
    "-r": { form: "y|n", value: YES_NO },
  },
  sge: {
    "-l": { form: "RESOURCE=VALUE[,…]", check: resourceList(undefined, /^[A-Za-z0-9_.:+*-]{1,128}$/) },
    "-pe": { form: "ENVIRONMENT SLOTS", value: /^[A-Za-z0-9_.-]{1,64} \d{1,6}(?:-\d{1,6})?$/ },
    "-P": { form: "PROJECT", value: SCHEDULER_NAME },
    "-p": { form: "PRIORITY", value: PRIORITY },
    "-R": { form: "y|n", value: YES_NO },
  },
  lsf: {
    "-R": { form: '"REQUIREMENTS"', value: /^[A-Za-z0-9_.:=<>!&|,()[\] +*-]{1,512}$/, quoted: true },
    "-P": { form: "PROJECT", value: SCHEDULER_NAME },
    "-x": {},
    "-sp": { form: "PRIORITY", value: /^\d{1,4}$/ },
  },
};

const ENVIRONMENT = "decides the environment the job script starts with, outside the sandbox (BASH_ENV or LD_PRELOAD there run code before the sandbox starts)";
const FILES = "names a file the scheduler opens itself, outside the sandbox, as the service's account (a link planted there is followed)";
const WORKING_FOLDER = "sets where the scheduler starts the job script, outside the sandbox";
const ACCOUNT = "runs the job as another account";
const MAIL = "sends mail as the service's account";
const SHELL = "chooses the shell that runs the job script outside the sandbox";
const FIELDS = "is set from the pipeline's own fields (partition, account, threads, memory, time_limit or walltime; the job's name by strand)";
const TRACKING = "the engine submits, tracks and cancels each job on its own";
const INTERACTIVE = "asks for an interactive job, which the engine cannot wait for";
const PREFIX = "changes the directive prefix, so the lines after it are read differently";

/** Why known options are refused, for messages that say what each could do. */
const REFUSED: Record<BackendName, Record<string, string>> = {
  slurm: {
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
  },
  pbs: {
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
  },
  sge: {
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
  },
  lsf: {
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
  },
};

/** The allowed options as messages list them (`--qos=NAME`, `-l RESOURCE=VALUE[,…]`). */
function allowedList(backend: BackendName): string {
  return Object.entries(ALLOWED[backend])
    .map(([option, allowed]) => (allowed.form === undefined ? option : backend === "slurm" ? `${option}=${allowed.form}` : `${option} ${allowed.form}`))
    .join(", ");
}

/** An extra_args entry split into its option and value (`--qos=high`, `--qos high`, `-l a=1`, `-R "x y"`). */
function splitEntry(backend: BackendName, entry: string): { option: string; value: string | undefined } {
  const text = entry.trim();
  const long = backend === "slurm" ? /^(--[A-Za-z0-9][A-Za-z0-9-]*)(?:=(.*)|\s+(.*))?$/s.exec(text) : null;
  if (long) return { option: long[1]!, value: long[2] ?? long[3] };
  const short = /^(-[A-Za-z0-9_@][A-Za-z0-9_-]*)(?:\s+(.*))?$/s.exec(text);
  if (short) return { option: short[1]!, value: short[2] };
  return { option: text.split(/\s+/)[0] ?? text, value: undefined };
}

/**
 * An extra_args entry of a shared service's job as its directive writes it (`--qos=high`, `-pe smp 4`), or
 * the job's refusal naming the option and what it could do.
 */
export function sharedExtraArg(backend: BackendName, subject: DirectiveSubject, entry: string): string {
  const refuse = (why: string) => directiveError(subject, `extra_args entry ${shownValue(entry)} is refused: ${why}; a shared service passes on only ${allowedList(backend)} in extra_args`);
  if (controlCharacterProblem(entry)) throw refuse(controlCharacterProblem(entry)!);
  const { option, value } = splitEntry(backend, entry);
  const allowed = ALLOWED[backend][option];
  if (!allowed) throw refuse(`${option} ${REFUSED[backend][option] ?? "is not one of the options a shared service passes to the scheduler"}`);
  if (allowed.form === undefined) {
    if (value !== undefined && value.trim() !== "") throw refuse(`${option} takes no value`);
    return option;
  }
  let text = (value ?? "").trim();
  if (allowed.quoted && /^".*"$/s.test(text)) text = text.slice(1, -1);
  else text = text.replace(/\s+/g, " ");
  const problem = allowed.value && !allowed.value.test(text) ? `value ${shownValue(text)} is not ${allowed.form}` : allowed.check?.(text);
  if (text === "" || problem) throw refuse(`${option}: ${problem ?? `needs a value (${allowed.form})`}`);
  if (backend === "slurm") return `${option}=${text}`;
  return allowed.quoted ? `${option} "${text}"` : `${option} ${text}`;
}
