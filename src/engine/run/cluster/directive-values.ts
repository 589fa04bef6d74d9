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
import { controlCharacterProblem, schedulerNameProblem, shownValue } from "../../format/scheduler-values.js";

/** The name a job carries at the scheduler (`strand-<run id>-<n>`, `<rule>-<n>`). */
const JOB_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
/** A memory size as pipelines write it (`16G`, `512M`, `1.5G`, `8 GB`). */
const MEMORY = /^\s*\d{1,12}(?:\.\d{1,6})?\s*[KMGTP]?B?\s*$/i;

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

/** The values directives are written with, each checked by the job script before any scheduler sees it. */
export interface DirectiveValues {
  jobName: string;
  threads: number;
  memory?: string;
  partition?: string;
  account?: string;
  gpuModel?: string;
  gpus?: number;
  gpuMemoryGb?: number;
  /** The log files the scheduler opens: /dev/null for a sandboxed job, whose logs are opened in the sandbox. */
  stdoutPath: string;
  stderrPath: string;
}

// ── extra_args in a shared service ───────────────────────────────────────────────────────────────────────

/** An option a shared service passes on: the form of its value (none for a flag) and how it is checked. */
export interface AllowedOption {
  /** The value's form in messages (`NAME`); absent for a flag, which takes no value. */
  form?: string;
  value?: RegExp;
  /** A check beyond the pattern (PBS's resource names): the problem, or undefined. */
  check?: (value: string) => string | undefined;
  /** Written `-R "value"` (LSF's resource requirement, which holds spaces). */
  quoted?: boolean;
}

/** What a shared service does with one scheduler's `extra_args` (each scheduler's module fills it in). */
export interface ExtraArgsPolicy {
  /** The options that pass, each with the form of its value. */
  allowed: Record<string, AllowedOption>;
  /** Known options that are refused, with what each could do, for messages that say so. */
  refused: Record<string, string>;
  /** Whether options are GNU long options written `--option=value` (SLURM), rather than `-option value`. */
  longOptions: boolean;
}

/** A priority (`-p -10`), as PBS and SGE take it. */
export const PRIORITY = /^-?\d{1,4}$/;
/** A yes or no (`-r y`), as PBS and SGE take it. */
export const YES_NO = /^[yn]$/;

/** A check of `RESOURCE=VALUE[,…]` lists (`-l`), with the resource names a shared service allows (undefined: any). */
export function resourceList(allowed: Set<string> | undefined, valuePattern: RegExp): (value: string) => string | undefined {
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

/** Why known options are refused, shared by the schedulers' tables of refused options. */
export const REFUSED_BECAUSE = {
  ENVIRONMENT: "decides the environment the job script starts with, outside the sandbox (BASH_ENV or LD_PRELOAD there run code before the sandbox starts)",
  FILES: "names a file the scheduler opens itself, outside the sandbox, as the service's account (a link planted there is followed)",
  WORKING_FOLDER: "sets where the scheduler starts the job script, outside the sandbox",
  ACCOUNT: "runs the job as another account",
  MAIL: "sends mail as the service's account",
  SHELL: "chooses the shell that runs the job script outside the sandbox",
  FIELDS: "is set from the pipeline's own fields (partition, account, threads, memory, time_limit or walltime; the job's name by strand)",
  TRACKING: "the engine submits, tracks and cancels each job on its own",
  INTERACTIVE: "asks for an interactive job, which the engine cannot wait for",
  PREFIX: "changes the directive prefix, so the lines after it are read differently",
} as const;

/** The allowed options as messages list them (`--qos=NAME`, `-l RESOURCE=VALUE[,…]`). */
function allowedList(policy: ExtraArgsPolicy): string {
  return Object.entries(policy.allowed)
    .map(([option, allowed]) => (allowed.form === undefined ? option : policy.longOptions ? `${option}=${allowed.form}` : `${option} ${allowed.form}`))
    .join(", ");
}

/** An extra_args entry split into its option and value (`--qos=high`, `--qos high`, `-l a=1`, `-R "x y"`). */
function splitEntry(policy: ExtraArgsPolicy, entry: string): { option: string; value: string | undefined } {
  const text = entry.trim();
  const long = policy.longOptions ? /^(--[A-Za-z0-9][A-Za-z0-9-]*)(?:=(.*)|\s+(.*))?$/s.exec(text) : null;
  if (long) return { option: long[1]!, value: long[2] ?? long[3] };
  const short = /^(-[A-Za-z0-9_@][A-Za-z0-9_-]*)(?:\s+(.*))?$/s.exec(text);
  if (short) return { option: short[1]!, value: short[2] };
  return { option: text.split(/\s+/)[0] ?? text, value: undefined };
}

/**
 * An extra_args entry of a shared service's job as its directive writes it (`--qos=high`, `-pe smp 4`), or
 * the job's refusal naming the option and what it could do.
 */
export function sharedExtraArg(policy: ExtraArgsPolicy, subject: DirectiveSubject, entry: string): string {
  const refuse = (why: string) => directiveError(subject, `extra_args entry ${shownValue(entry)} is refused: ${why}; a shared service passes on only ${allowedList(policy)} in extra_args`);
  if (controlCharacterProblem(entry)) throw refuse(controlCharacterProblem(entry)!);
  const { option, value } = splitEntry(policy, entry);
  const allowed = policy.allowed[option];
  if (!allowed) throw refuse(`${option} ${policy.refused[option] ?? "is not one of the options a shared service passes to the scheduler"}`);
  if (allowed.form === undefined) {
    if (value !== undefined && value.trim() !== "") throw refuse(`${option} takes no value`);
    return option;
  }
  let text = (value ?? "").trim();
  if (allowed.quoted && /^".*"$/s.test(text)) text = text.slice(1, -1);
  else text = text.replace(/\s+/g, " ");
  const problem = allowed.value && !allowed.value.test(text) ? `value ${shownValue(text)} is not ${allowed.form}` : allowed.check?.(text);
  if (text === "" || problem) throw refuse(`${option}: ${problem ?? `needs a value (${allowed.form})`}`);
  if (policy.longOptions) return `${option}=${text}`;
  return allowed.quoted ? `${option} "${text}"` : `${option} ${text}`;
}
