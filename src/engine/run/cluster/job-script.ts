/**
 * Job scripts for HPC schedulers (§5.10): `#!/bin/bash`, the scheduler's directives, `set -e`, the log
 * folders, then the command in the job's folder. Directive order and spelling follow the format's
 * description; where that description produces text a scheduler refuses, the valid form is written
 * instead (SLURM `--gres` has no memory field; LSF `-gpu` takes `num=N`; PBS and SGE have no day field).
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
import { isColonWalltime, lsfRunLimit, parseWalltime, walltime, walltimeHours } from "../durations.js";
import type { BackendName } from "./backends.js";
import { checkedCount, checkedJobName, checkedLine, checkedMemory, checkedName, sharedExtraArg, type DirectiveSubject } from "./directive-values.js";
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

/** The directive prefix each scheduler reads. */
export const DIRECTIVE_PREFIX: Record<BackendName, string> = { slurm: "#SBATCH", pbs: "#PBS", sge: "#$", lsf: "#BSUB" };

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
  if (backend === "slurm") return isColonWalltime(text) ? text.trim() : walltime(walltimeMs(text, job, warnings));
  if (backend === "lsf") return lsfRunLimit(walltimeMs(text, job, warnings));
  return /^\s*\d+:\d{2}:\d{2}\s*$/.test(text) ? text.trim() : walltimeHours(walltimeMs(text, job, warnings));
}

/** The number of GPUs a job asks for: the gpu_spec count, else `gpu`, else one when a gpu_spec exists. */
function gpuCount(cluster: ClusterDirectives | undefined): number | undefined {
  if (cluster?.gpu_spec) return cluster.gpu_spec.count ?? cluster.gpu ?? 1;
  return cluster?.gpu !== undefined && cluster.gpu > 0 ? cluster.gpu : undefined;
}

/** The values directives are written with: each checked, the job refused when one fails. */
interface CheckedValues {
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

/** The request's directive values, checked (throws the job's refusal, naming the rule and the field). */
function checkedValues(request: JobScriptRequest): CheckedValues {
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

function slurmDirectives(values: CheckedValues, time: string | undefined): string[] {
  const lines = [`--job-name=${values.jobName}`, `--cpus-per-task=${values.threads}`];
  if (values.memory) lines.push(`--mem=${values.memory}`);
  if (values.gpus !== undefined) lines.push(`--gres=gpu:${values.gpuModel ? `${values.gpuModel}:` : ""}${values.gpus}`);
  if (values.gpuMemoryGb !== undefined) lines.push(`--mem-per-gpu=${values.gpuMemoryGb}G`);
  if (time) lines.push(`--time=${time}`);
  if (values.partition) lines.push(`--partition=${values.partition}`);
  if (values.account) lines.push(`--account=${values.account}`);
  return lines.map((line) => `#SBATCH ${line}`);
}

function pbsDirectives(values: CheckedValues, time: string | undefined): string[] {
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

function sgeDirectives(values: CheckedValues, time: string | undefined): string[] {
  const lines = [`#$ -N ${values.jobName}`, `#$ -pe smp ${values.threads}`];
  if (values.memory) lines.push(`#$ -l h_vmem=${values.memory}`);
  if (values.gpus !== undefined) lines.push(`#$ -l gpu=${values.gpus}`);
  if (time) lines.push(`#$ -l h_rt=${time}`);
  if (values.partition) lines.push(`#$ -q ${values.partition}`);
  return lines;
}

function lsfDirectives(values: CheckedValues, time: string | undefined): string[] {
  const lines = [`#BSUB -J ${values.jobName}`, `#BSUB -n ${values.threads}`];
  if (values.memory) lines.push(`#BSUB -M ${values.memory}`);
  if (values.gpus !== undefined) lines.push(`#BSUB -gpu "num=${values.gpus}"`);
  if (time) lines.push(`#BSUB -W ${time}`);
  if (values.partition) lines.push(`#BSUB -q ${values.partition}`);
  return lines;
}

/** The directives that name the scheduler's own output files (`--output=…`, `-o …`). */
function logDirectives(backend: BackendName, values: CheckedValues): string[] {
  if (backend === "slurm") return [`#SBATCH --output=${values.stdoutPath}`, `#SBATCH --error=${values.stderrPath}`];
  return [`${DIRECTIVE_PREFIX[backend]} -o ${values.stdoutPath}`, `${DIRECTIVE_PREFIX[backend]} -e ${values.stderrPath}`];
}

/**
 * The directive lines of a job for a backend. On one's own machine `extra_args` come last, verbatim; for a
 * shared service's job they pass the allow-list, and its own lines (output to /dev/null, no environment of
 * the submitter's) come last, so no earlier line can undo them.
 */
export function jobDirectives(backend: BackendName, request: JobScriptRequest, warnings: string[] = []): string[] {
  const values = checkedValues(request);
  const time = request.cluster?.walltime !== undefined ? renderWalltime(backend, request.cluster.walltime, request.name, warnings) : undefined;
  const lines =
    backend === "slurm"
      ? slurmDirectives(values, time)
      : backend === "pbs"
        ? pbsDirectives(values, time)
        : backend === "sge"
          ? sgeDirectives(values, time)
          : lsfDirectives(values, time);
  const subject: DirectiveSubject = { rule: request.rule, name: request.name };
  const extras = request.cluster?.extra_args ?? [];
  if (request.sandbox === undefined) {
    lines.push(...logDirectives(backend, values));
    for (const extra of extras) lines.push(`${DIRECTIVE_PREFIX[backend]} ${checkedLine(subject, "extra_args entry", extra)}`);
    return lines;
  }
  for (const extra of extras) lines.push(`${DIRECTIVE_PREFIX[backend]} ${sharedExtraArg(backend, subject, extra)}`);
  lines.push(...logDirectives(backend, values));
  // PBS and SGE pass the submitter's environment only when asked (-V, refused above); LSF passes it, and it
  // is the engine's, which no job can change.
  if (backend === "slurm") lines.push("#SBATCH --export=NONE");
  return lines;
}

/**
 * Variables a sandboxed job's script does not export: what changes how a shell or the dynamic loader
 * starts, what the scheduler sets on the node itself (its job variables, the GPUs it gave the job), and the
 * scheduler's and daemons' locations, which a job has no use for.
 */
const NOT_EXPORTED = /^(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|IFS|CDPATH|GLOBIGNORE|PS4|PROMPT_COMMAND|BASH_XTRACEFD|POSIXLY_CORRECT|PWD|OLDPWD|SHLVL|_|HOSTNAME|LD_\w*|SLURM_\w*|SBATCH_\w*|SALLOC_\w*|SRUN_\w*|PBS_\w*|SGE_\w*|LSB_\w*|LSF_\w*|MUNGE_SOCKET|DOCKER_HOST|CONTAINER_HOST|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|ZE_AFFINITY_MASK)$/;

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
