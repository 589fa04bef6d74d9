/**
 * Environment wrapping: the bash text that runs a prepared job command inside its environment, and the
 * facts that text depends on — which program serves a backend on this machine and what an environment is
 * called (conda environment name, local file of a pulled image).
 *
 * Every backend receives the whole command as one single-quoted argument and hands it to a fresh shell
 * inside the environment, so a multi-line command runs entirely inside it (oxo-flow prefixed only the first
 * line for pixi, venv and modules) and a `set -e` style prelude applies to all of it.
 */
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { basename, delimiter, isAbsolute, join, resolve } from "node:path";
import { shellQuote, shellWord } from "../../expand/shell-quote.js";
import { EngineError } from "../../findings.js";
import type { Environment } from "../../format/model.js";
import { environmentKind } from "../../format/rule-settings.js";
import { requireUsableImage } from "../../format/image-reference.js";

/** The programs that run `docker` environments, in the order they are preferred. */
export const CONTAINER_PROGRAMS = ["docker", "podman"] as const;

/** The programs that run `singularity` environments, in the order they are preferred. */
export const SINGULARITY_PROGRAMS = ["apptainer", "singularity"] as const;

export type ContainerProgram = (typeof CONTAINER_PROGRAMS)[number];
export type SingularityProgram = (typeof SINGULARITY_PROGRAMS)[number];

/** The programs chosen for the backends that have more than one implementation. */
export interface BackendBinaries {
  mamba: "mamba" | "micromamba";
  container: ContainerProgram;
  singularity: SingularityProgram;
}

/** Whether a value names a program that runs `docker` environments. */
export function isContainerProgram(value: unknown): value is ContainerProgram {
  return (CONTAINER_PROGRAMS as readonly unknown[]).includes(value);
}

/** Forces the program that runs `docker` environments: `docker` or `podman`. */
export const CONTAINER_RUNTIME_VARIABLE = "STRAND_CONTAINER_RUNTIME";

/**
 * Scripts that define the `module` shell function, tried in this order. `$MODULESHOME` comes first because
 * a site that sets it says where its module system lives; the others are the Environment Modules and Lmod
 * defaults of the common distributions.
 */
export const MODULE_INIT_SCRIPTS = [
  "${MODULESHOME}/init/bash",
  "/etc/profile.d/modules.sh",
  "/usr/share/lmod/lmod/init/bash",
  "/usr/share/Modules/init/bash",
] as const;

/** Where pulled `*://` singularity images are kept, relative to the workdir. */
export const PULLED_IMAGES_DIR = ".strand/env-cache/images";

export interface WrapOptions {
  /** Absolute workdir: the job's current directory, mounted into containers at the same path. */
  workdir: string;
  /** The job's declared memory in MB; containers get it as their limit. */
  memoryMb?: number;
  /** This machine's memory in MB; a container limit never exceeds it. */
  machineMemoryMb: number;
  /** Programs to use; the ones not given are chosen from what is on PATH (see `resolveBackendBinaries`). */
  binaries?: Partial<BackendBinaries>;
  /** For error messages. */
  ruleName?: string;
  /** Where PATH and STRAND_CONTAINER_RUNTIME are read from (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

// ---------------------------------------------------------------------------------------------------------
// Which program serves a backend.

/** The absolute path of an executable named `name` on `PATH`, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    // An empty PATH entry means the current directory; a job's current directory is not a place to find tools.
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** The program for `docker` environments: forced by STRAND_CONTAINER_RUNTIME, else docker, else podman if only it is installed. */
export function containerRuntime(env: NodeJS.ProcessEnv = process.env): ContainerProgram {
  const forced = env[CONTAINER_RUNTIME_VARIABLE]?.trim();
  if (forced) {
    if (isContainerProgram(forced)) return forced;
    throw new EngineError("ENV_ERROR", `${CONTAINER_RUNTIME_VARIABLE} is '${forced}'; it must be docker or podman`, {
      suggestion: `unset ${CONTAINER_RUNTIME_VARIABLE}, or set it to docker or podman`,
    });
  }
  if (!findExecutable("docker", env) && findExecutable("podman", env)) return "podman";
  return "docker";
}

/** The program for `mamba` environments: mamba, else micromamba if only it is installed. */
export function mambaProgram(env: NodeJS.ProcessEnv = process.env): "mamba" | "micromamba" {
  return !findExecutable("mamba", env) && findExecutable("micromamba", env) ? "micromamba" : "mamba";
}

/** The program for `singularity` environments: apptainer, else singularity if only it is installed. */
export function singularityProgram(env: NodeJS.ProcessEnv = process.env): SingularityProgram {
  return !findExecutable("apptainer", env) && findExecutable("singularity", env) ? "singularity" : "apptainer";
}

/** The programs this machine would use for the backends that have more than one implementation. */
export function resolveBackendBinaries(env: NodeJS.ProcessEnv = process.env): BackendBinaries {
  return { mamba: mambaProgram(env), container: containerRuntime(env), singularity: singularityProgram(env) };
}

// ---------------------------------------------------------------------------------------------------------
// What an environment is called.

/** A path as written in the pipeline (relative to the workdir, or `~/…`), made absolute. */
export function resolveInWorkdir(path: string, workdir: string): string {
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : resolve(workdir, path);
}

/** A relative path made absolute against the workdir (jobs may run elsewhere, e.g. scratch); `~/…` kept for the shell. */
function anchoredPath(path: string, workdir: string): string {
  return path === "~" || path.startsWith("~/") || isAbsolute(path) ? path : resolve(workdir, path);
}

/** True for a conda spec that names an environment file rather than an environment. */
export function isEnvironmentFile(spec: string): boolean {
  return /\.ya?ml$/i.test(spec);
}

const CONDA_NAME = /^[A-Za-z0-9_-]+$/;

/** The `name:` at the top level of a conda environment file, or undefined. */
function yamlEnvironmentName(text: string): string | undefined {
  const match = /^name:[ \t]*(.*)$/m.exec(text);
  if (!match) return undefined;
  // Drop a trailing comment and surrounding quotes; a valid name contains neither.
  const value = (match[1] ?? "").replace(/\s+#.*$/, "").trim().replace(/^(["'])(.*)\1$/, "$2");
  return value === "" ? undefined : value;
}

/**
 * The conda/mamba environment name a spec stands for: the environment file's `name:`, else its file stem
 * (also when the file is missing), else the spec itself. Names outside `[A-Za-z0-9_-]+` are an ENV_ERROR.
 */
export function condaEnvironmentName(spec: string, workdir: string, ruleName?: string): string {
  let name = spec;
  if (isEnvironmentFile(spec)) {
    let text: string | undefined;
    try {
      text = readFileSync(resolveInWorkdir(spec, workdir), "utf8");
    } catch {
      text = undefined; // a missing file still names its environment by its stem
    }
    name = (text !== undefined ? yamlEnvironmentName(text) : undefined) ?? basename(spec).replace(/\.ya?ml$/i, "");
  }
  if (!CONDA_NAME.test(name)) {
    throw new EngineError("ENV_ERROR", `conda environment name '${name}' (from '${spec}') may only contain letters, digits, '_' and '-'`, {
      rule: ruleName ?? null,
      suggestion: isEnvironmentFile(spec)
        ? "add a `name:` line with such a name to the environment file, or rename the file"
        : "use an environment name made of letters, digits, '_' and '-', or the path of an environment .yml file",
    });
  }
  return name;
}

/** True for a singularity spec that is a remote image (`docker://…`, `library://…`), pulled to a local file. */
export function isImageUri(spec: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(spec);
}

/** The absolute path of the local `.sif` a remote image URI is pulled to (readable name plus a short digest against clashes). */
export function pulledImagePath(uri: string, workdir: string): string {
  const readable = uri.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 100);
  const digest = createHash("sha256").update(uri).digest("hex").slice(0, 8);
  return resolve(workdir, PULLED_IMAGES_DIR, `${readable}-${digest}.sif`);
}

// ---------------------------------------------------------------------------------------------------------
// The wrapping text.

/** Quotes a path, image or module name only when it needs it; a leading `~/` still expands to $HOME. */
export function homeWord(text: string): string {
  return text.startsWith("~/") ? `"$HOME"/${shellWord(text.slice(2))}` : shellWord(text);
}

/**
 * Runs `$1` with bash when the image has it, else with sh: slim images often lack bash, and `sh -c` keeps
 * the command intact as one argument either way.
 */
const CONTAINER_SHIM = 'if command -v bash >/dev/null 2>&1; then exec bash -c "$1"; else exec sh -c "$1"; fi';

/** `sh -c '<shim>' sh 'CMD'`: the command as `$1` of the shim. */
function containerShell(command: string): string {
  return `sh -c ${shellQuote(CONTAINER_SHIM)} sh ${shellQuote(command)}`;
}

/** Defines `module` unless the calling shell already has it (an exported function, or a login shell's). */
function moduleInit(): string {
  const scripts = MODULE_INIT_SCRIPTS.map((script) => (script.startsWith("${") ? `"${script.replace("${MODULESHOME}", "${MODULESHOME:-/nonexistent}")}"` : script));
  return `type module >/dev/null 2>&1 || for strand_module_init in ${scripts.join(" ")}; do if [ -f "$strand_module_init" ]; then . "$strand_module_init"; break; fi; done`;
}

/** The container limit: the declared memory, never more than the machine has, in whole MB. */
function containerMemoryFlag(memoryMb: number | undefined, machineMemoryMb: number): string {
  if (memoryMb === undefined || !Number.isFinite(memoryMb) || memoryMb <= 0) return "";
  const limit = Math.max(1, Math.floor(Math.min(memoryMb, machineMemoryMb)));
  return ` --memory ${limit}m`;
}

/**
 * The bash text that runs `command` inside `environment`, with the whole command quoted for every backend
 * (docs/reference/pipeline-format.md §3.7).
 */
export function wrapCommand(environment: Environment, command: string, options: WrapOptions): string {
  const kind = environmentKind(environment);
  const { workdir, binaries = {} } = options;
  switch (kind) {
    case "system":
      return command;
    case "conda": {
      const target = environment.conda_prefix
        ? `-p ${homeWord(anchoredPath(environment.conda_prefix, workdir))}`
        : `-n ${condaEnvironmentName(environment.conda!, workdir, options.ruleName)}`;
      // conda run can leave the base environment's bin first on PATH; the export puts the environment's own tools first.
      return `conda run --no-capture-output ${target} bash -c ${shellQuote(`export PATH="$CONDA_PREFIX/bin:$PATH"; ${command}`)}`;
    }
    case "mamba": {
      const target = environment.mamba_prefix
        ? `-p ${homeWord(anchoredPath(environment.mamba_prefix, workdir))}`
        : `-n ${condaEnvironmentName(environment.mamba!, workdir, options.ruleName)}`;
      return `${binaries.mamba ?? mambaProgram(options.env)} run ${target} bash -c ${shellQuote(command)}`;
    }
    case "pixi":
      return `pixi run --manifest-path ${homeWord(anchoredPath(environment.pixi!, workdir))} bash -c ${shellQuote(command)}`;
    case "docker": {
      const runtime = binaries.container ?? containerRuntime(options.env);
      // Rootless podman maps a numeric --user to a sub-uid on the host; keep-id keeps files owned by the caller.
      const user = runtime === "podman" ? "--userns=keep-id" : "--user $(id -u):$(id -g)";
      const memory = containerMemoryFlag(options.memoryMb, options.machineMemoryMb);
      const mount = homeWord(`${workdir}:${workdir}`);
      requireUsableImage("docker", environment.docker!, options.ruleName);
      return `${runtime} run --rm ${user}${memory} -v ${mount} -w ${homeWord(workdir)} ${homeWord(environment.docker!)} ${containerShell(command)}`;
    }
    case "singularity": {
      const spec = environment.singularity!;
      const image = isImageUri(spec) ? pulledImagePath(spec, workdir) : anchoredPath(spec, workdir);
      const program = binaries.singularity ?? singularityProgram(options.env);
      return `${program} exec --bind ${homeWord(`${workdir}:${workdir}`)} ${homeWord(image)} ${containerShell(command)}`;
    }
    case "venv":
      // Absolute, so a job running in its own scratch folder finds the environment too.
      return `source ${homeWord(`${anchoredPath(environment.venv!.replace(/\/+$/, ""), workdir)}/bin/activate`)} && bash -c ${shellQuote(command)}`;
    case "modules": {
      const names = (environment.modules ?? []).map(shellWord).join(" ");
      return `${moduleInit()}; module load ${names} && bash -c ${shellQuote(command)}`;
    }
  }
}
