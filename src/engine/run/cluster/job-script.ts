/**
 * Job scripts for HPC schedulers (docs/reference/pipeline-format.md §5.10): `#!/bin/bash`, the scheduler's
 * directives, `set -e`, the log folders, then the command in the job's folder. Directive order and spelling
 * follow the format's description; where that description produces text a scheduler refuses, the valid form is
 * written instead (SLURM `--gres` has no memory field; LSF `-gpu` takes `num=N`; PBS and SGE have no day
 * field).
 *
 * Each scheduler's own directives come from its module in schedulers/ (through scheduler-registry.ts).
 *
 * Every value from the pipeline is checked before it goes into a directive (directive-values.ts). A shared
 * service's job (a sandbox is set) runs its command in the sandbox on the node, and nothing of the job's
 * reaches what runs outside it there: the scheduler's own output goes to /dev/null (it opens those files
 * itself, as the service's account, following any link a job planted), the job's log folders are made and
 * its logs opened inside the sandbox, and the script starts with none of the submitter's environment
 * (SLURM `--export=NONE`) and exports the engine's own after bash has started.
 */
import { dirname } from "node:path";
import type { ClusterDirectives, JobSpec } from "../executor.js";
import { parseWalltime } from "../durations.js";
import { checkedCount, checkedJobName, checkedLine, checkedMemory, checkedName, sharedExtraArg, type DirectiveSubject, type DirectiveValues } from "./directive-values.js";
import { SCHEDULERS, schedulerNamed, type BackendName } from "./scheduler-registry.js";
import { shellQuote } from "../../expand/shell-quote.js";

/** What a job script needs from a job. */
export type JobScriptRequest = Pick<JobSpec, "name" | "threads" | "memory" | "cwd" | "command" | "stdoutPath" | "stderrPath"> & {
  /** The rule as written, for messages that refuse a value (the instance name holds sample names). */
  rule?: string;
  /** The name the scheduler shows everyone (`schedulerJobName`); never the instance name, which holds sample names. */
  jobName: string;
  cluster?: ClusterDirectives;
  /**
   * A sandbox to start the command in on the node (`STRAND_JOB_SANDBOX`: a shared service's bubblewrap
   * prefix, ending with `--`); the job then sees what a local job of that service sees, not the service's data.
   */
  sandbox?: readonly string[];
  /** Shell lines that set the job's limits inside the sandbox, before its command (`limitLines`). */
  limits?: readonly string[];
  /**
   * The engine's environment, which a sandboxed job's script exports once bash has started (the scheduler
   * starts it with none of the submitter's); ignored without a sandbox, where the scheduler passes it on.
   */
  environment?: Readonly<Record<string, string | undefined>>;
};

/** The sandbox prefix of a shared service's jobs (re-exported where scheduler scripts are made). */
export { jobSandboxFromEnv } from "../job-sandbox.js";

export interface JobScript {
  text: string;
  /** Problems worth telling the user (an unreadable walltime replaced by one hour). */
  warnings: string[];
}

const ONE_HOUR_MS = 3_600_000;


/** The walltime in milliseconds, or one hour with a warning when the text cannot be read. */
function walltimeMs(text: string, job: string, warnings: string[]): number {
  const ms = parseWalltime(text);
  if (ms !== undefined) return ms;
  warnings.push(`job ${job}: walltime '${text}' is neither a duration (30m, 4h, 2d) nor HH:MM:SS; using 1 hour`);
  return ONE_HOUR_MS;
}

/** The walltime as the backend writes it; colon forms the backend understands pass through unchanged. */
function renderWalltime(backend: BackendName, text: string, job: string, warnings: string[]): string {
  return schedulerNamed(backend).walltime(text, () => walltimeMs(text, job, warnings));
}

/** The number of GPUs a job asks for: the gpu_spec count, else `gpu`, else one when a gpu_spec exists. */
function gpuCount(cluster: ClusterDirectives | undefined): number | undefined {
  if (cluster?.gpu_spec) return cluster.gpu_spec.count ?? cluster.gpu ?? 1;
  return cluster?.gpu !== undefined && cluster.gpu > 0 ? cluster.gpu : undefined;
}

/** The request's directive values, checked (throws the job's refusal, naming the rule and the field). */
function checkedValues(request: JobScriptRequest): DirectiveValues {
  const subject: DirectiveSubject = { rule: request.rule, name: request.name };
  const { cluster } = request;
  const gpuSpec = cluster?.gpu_spec;
  if (cluster?.gpu !== undefined) checkedCount(subject, "gpu", cluster.gpu, 0);
  if (gpuSpec?.count !== undefined) checkedCount(subject, "gpu_spec.count", gpuSpec.count, 0);
  if (gpuSpec?.memory_gb !== undefined && !(Number.isFinite(gpuSpec.memory_gb) && gpuSpec.memory_gb > 0)) checkedCount(subject, "gpu_spec.memory_gb", gpuSpec.memory_gb, 1);
  if (cluster?.walltime !== undefined) checkedLine(subject, "walltime", cluster.walltime);
  const sandboxed = request.sandbox !== undefined;
  return {
    jobName: checkedJobName(subject, request.jobName),
    threads: checkedCount(subject, "threads", request.threads, 1),
    memory: request.memory ? checkedMemory(subject, request.memory) : undefined,
    partition: cluster?.partition ? checkedName(subject, "partition", cluster.partition, { list: true }) : undefined,
    account: cluster?.account ? checkedName(subject, "account", cluster.account) : undefined,
    gpuModel: gpuSpec?.model ? checkedName(subject, "gpu_spec.model", gpuSpec.model) : undefined,
    gpus: gpuCount(cluster),
    gpuMemoryGb: gpuSpec?.memory_gb,
    stdoutPath: sandboxed ? "/dev/null" : checkedLine(subject, "stdout log path", request.stdoutPath),
    stderrPath: sandboxed ? "/dev/null" : checkedLine(subject, "stderr log path", request.stderrPath),
  };
}

/**
 * The directive lines of a job for a backend. On one's own machine `extra_args` come last, verbatim; for a
 * shared service's job they pass the allow-list, and its own lines (output to /dev/null, no environment of
 * the submitter's) come last, so no earlier line can undo them.
 */
export function jobDirectives(backend: BackendName, request: JobScriptRequest, warnings: string[] = []): string[] {
  const scheduler = schedulerNamed(backend);
  const values = checkedValues(request);
  const time = request.cluster?.walltime !== undefined ? renderWalltime(backend, request.cluster.walltime, request.name, warnings) : undefined;
  const lines = scheduler.resourceDirectives(values, time);
  const subject: DirectiveSubject = { rule: request.rule, name: request.name };
  const extras = request.cluster?.extra_args ?? [];
  if (request.sandbox === undefined) {
    lines.push(...scheduler.logDirectives(values));
    for (const extra of extras) lines.push(`${scheduler.directivePrefix} ${checkedLine(subject, "extra_args entry", extra)}`);
    return lines;
  }
  for (const extra of extras) lines.push(`${scheduler.directivePrefix} ${sharedExtraArg(scheduler.extraArgs, subject, extra)}`);
  lines.push(...scheduler.logDirectives(values));
  // What keeps the submitter's environment out of the job, where the scheduler would pass it (SLURM).
  lines.push(...scheduler.sandboxDirectives);
  return lines;
}

/**
 * Variables a sandboxed job's script does not export: what changes how a shell or the dynamic loader
 * starts, what the scheduler sets on the node itself (its job variables, the GPUs it gave the job), and the
 * scheduler's and daemons' locations, which a job has no use for. Each scheduler's module names the prefixes
 * of its own variables.
 */
const NOT_EXPORTED = new RegExp(
  `^(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|IFS|CDPATH|GLOBIGNORE|PS4|PROMPT_COMMAND|BASH_XTRACEFD|POSIXLY_CORRECT|PWD|OLDPWD|SHLVL|_|HOSTNAME|LD_\\w*|${SCHEDULERS.flatMap((scheduler) => scheduler.jobVariablePrefixes.map((prefix) => `${prefix}\\w*`)).join("|")}|MUNGE_SOCKET|DOCKER_HOST|CONTAINER_HOST|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|ZE_AFFINITY_MASK)$`,
);

/** `export NAME='value'` for each variable of the engine's environment a sandboxed job gets, sorted by name. */
function exportLines(environment: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(environment)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(entry[0]) && !NOT_EXPORTED.test(entry[0]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `export ${name}=${shellQuote(value)}`);
}

/**
 * The script lines that run the command inside the sandbox on the node, or say that it is missing there.
 * The log folders are made and the logs opened in there, where a link a job planted leads only to what the
 * job may write anyway; appended to, as a local job's are (pre_exec wrote there first).
 */
function sandboxedBody(sandbox: readonly string[], request: JobScriptRequest): string[] {
  const program = sandbox[0]!;
  const { stdoutPath, stderrPath } = request;
  const folders = [...new Set([dirname(stdoutPath), dirname(stderrPath)])].map(shellQuote).join(" ");
  const redirect = stdoutPath === stderrPath ? `exec >>${shellQuote(stdoutPath)} 2>&1` : `exec >>${shellQuote(stdoutPath)} 2>>${shellQuote(stderrPath)}`;
  // The limits are set inside the sandbox, in the job's own user namespace, where its process count is its own.
  // The logs are opened before `cd`, so a job folder that is missing is reported in the job's own stderr.
  const inner = [...(request.limits ?? []), "set -e", `mkdir -p ${folders}`, redirect, `cd ${shellQuote(request.cwd)}`, request.command].join("\n");
  return [
    `if [ ! -x ${shellQuote(program)} ]; then echo "strand: this service runs jobs in bubblewrap (${program}), which is missing on $(hostname): install it on the nodes" >&2; exit 127; fi`,
    `exec ${sandbox.map(shellQuote).join(" ")} /bin/bash -c ${shellQuote(inner)}`,
  ];
}

/** The complete job script for a backend; throws (EngineError CLUSTER_DIRECTIVE) when a value cannot go into a directive. */
export function renderJobScript(backend: BackendName, request: JobScriptRequest): JobScript {
  const warnings: string[] = [];
  const directives = jobDirectives(backend, request, warnings);
  if (request.sandbox) {
    const exports = exportLines(request.environment ?? {});
    const text = ["#!/bin/bash", ...directives, "", ...(exports.length > 0 ? [...exports, ""] : []), "set -e", "", ...sandboxedBody(request.sandbox, request), ""].join("\n");
    return { text, warnings };
  }
  const logFolders = [...new Set([dirname(request.stdoutPath), dirname(request.stderrPath)])].map(shellQuote).join(" ");
  const text = [
    "#!/bin/bash",
    ...directives,
    "",
    "set -e",
    "",
    `mkdir -p ${logFolders}`,
    // `cd` on a line of its own: under `set -e` a failed cd stops the job, while `cd … && cmd` would only
    // skip the first line of a multi-line command and run the rest in the wrong folder.
    `cd ${shellQuote(request.cwd)}`,
    request.command,
    "",
  ].join("\n");
  return { text, warnings };
}
