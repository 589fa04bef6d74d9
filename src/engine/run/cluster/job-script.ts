/**
 * Job scripts for HPC schedulers (§5.10): `#!/bin/bash`, the scheduler's directives, `set -e`, the log
 * folders, then the command in the job's folder. Directive order and spelling follow the format's
 * description; where that description produces text a scheduler refuses, the valid form is written
 * instead (SLURM `--gres` has no memory field; LSF `-gpu` takes `num=N`; PBS and SGE have no day field).
 */
import { dirname } from "node:path";
import type { ClusterDirectives, JobSpec } from "../executor.js";
import { isColonWalltime, lsfRunLimit, parseWalltime, walltime, walltimeHours } from "../durations.js";
import type { BackendName } from "./backends.js";
import { shellQuote } from "../../expand/shell-quote.js";

/** What a job script needs from a job. */
export type JobScriptRequest = Pick<JobSpec, "name" | "threads" | "memory" | "cwd" | "command" | "stdoutPath" | "stderrPath"> & {
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

function slurmDirectives(request: JobScriptRequest, time: string | undefined): string[] {
  const { cluster } = request;
  const lines = [`--job-name=${request.jobName}`, `--cpus-per-task=${request.threads}`];
  if (request.memory) lines.push(`--mem=${request.memory}`);
  const gpus = gpuCount(cluster);
  const spec = cluster?.gpu_spec;
  if (gpus !== undefined) lines.push(`--gres=gpu:${spec?.model ? `${spec.model}:` : ""}${gpus}`);
  if (spec?.memory_gb !== undefined) lines.push(`--mem-per-gpu=${spec.memory_gb}G`);
  if (time) lines.push(`--time=${time}`);
  if (cluster?.partition) lines.push(`--partition=${cluster.partition}`);
  if (cluster?.account) lines.push(`--account=${cluster.account}`);
  lines.push(`--output=${request.stdoutPath}`, `--error=${request.stderrPath}`);
  return lines.map((line) => `#SBATCH ${line}`);
}

function pbsDirectives(request: JobScriptRequest, time: string | undefined): string[] {
  const { cluster } = request;
  const resources = [`nodes=1:ppn=${request.threads}`];
  if (request.memory) resources.push(`mem=${request.memory}`);
  const gpus = gpuCount(cluster);
  if (gpus !== undefined) resources.push(`gpu=${gpus}`);
  if (time) resources.push(`walltime=${time}`);
  const lines = [`#PBS -N ${request.jobName}`, `#PBS -l ${resources.join(",")}`];
  // PBS has no portable way to ask for a GPU model; the comment keeps the request visible to the reader.
  if (cluster?.gpu_spec?.model) lines.push(`# GPU model requested: ${cluster.gpu_spec.model}`);
  if (cluster?.partition) lines.push(`#PBS -q ${cluster.partition}`);
  if (cluster?.account) lines.push(`#PBS -A ${cluster.account}`);
  lines.push(`#PBS -o ${request.stdoutPath}`, `#PBS -e ${request.stderrPath}`);
  return lines;
}

function sgeDirectives(request: JobScriptRequest, time: string | undefined): string[] {
  const { cluster } = request;
  const lines = [`#$ -N ${request.jobName}`, `#$ -pe smp ${request.threads}`];
  if (request.memory) lines.push(`#$ -l h_vmem=${request.memory}`);
  const gpus = gpuCount(cluster);
  if (gpus !== undefined) lines.push(`#$ -l gpu=${gpus}`);
  if (time) lines.push(`#$ -l h_rt=${time}`);
  if (cluster?.partition) lines.push(`#$ -q ${cluster.partition}`);
  lines.push(`#$ -o ${request.stdoutPath}`, `#$ -e ${request.stderrPath}`);
  return lines;
}

function lsfDirectives(request: JobScriptRequest, time: string | undefined): string[] {
  const { cluster } = request;
  const lines = [`#BSUB -J ${request.jobName}`, `#BSUB -n ${request.threads}`];
  if (request.memory) lines.push(`#BSUB -M ${request.memory}`);
  const gpus = gpuCount(cluster);
  if (gpus !== undefined) lines.push(`#BSUB -gpu "num=${gpus}"`);
  if (time) lines.push(`#BSUB -W ${time}`);
  if (cluster?.partition) lines.push(`#BSUB -q ${cluster.partition}`);
  lines.push(`#BSUB -o ${request.stdoutPath}`, `#BSUB -e ${request.stderrPath}`);
  return lines;
}

/** The directive lines of a job for a backend, with `extra_args` last, verbatim. */
export function jobDirectives(backend: BackendName, request: JobScriptRequest, warnings: string[] = []): string[] {
  const time = request.cluster?.walltime !== undefined ? renderWalltime(backend, request.cluster.walltime, request.name, warnings) : undefined;
  const lines =
    backend === "slurm"
      ? slurmDirectives(request, time)
      : backend === "pbs"
        ? pbsDirectives(request, time)
        : backend === "sge"
          ? sgeDirectives(request, time)
          : lsfDirectives(request, time);
  for (const extra of request.cluster?.extra_args ?? []) lines.push(`${DIRECTIVE_PREFIX[backend]} ${extra}`);
  return lines;
}

/** The script lines that run the command inside the sandbox on the node, or say clearly that it is missing there. */
function sandboxedBody(sandbox: readonly string[], cwd: string, command: string, limits: readonly string[]): string[] {
  const program = sandbox[0]!;
  // The limits are set inside the sandbox, in the job's own user namespace, where its process count is its own.
  const inner = [...limits, "set -e", `cd ${shellQuote(cwd)}`, command].join("\n");
  return [
    `if [ ! -x ${shellQuote(program)} ]; then echo "strand: this service runs jobs in bubblewrap (${program}), which is missing on $(hostname): install it on the nodes" >&2; exit 127; fi`,
    `exec ${sandbox.map(shellQuote).join(" ")} /bin/bash -c ${shellQuote(inner)}`,
  ];
}

/** The complete job script for a backend. */
export function renderJobScript(backend: BackendName, request: JobScriptRequest): JobScript {
  const warnings: string[] = [];
  const directives = jobDirectives(backend, request, warnings);
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
    ...(request.sandbox ? sandboxedBody(request.sandbox, request.cwd, request.command, request.limits ?? []) : [`cd ${shellQuote(request.cwd)}`, request.command]),
    "",
  ].join("\n");
  return { text, warnings };
}
