/**
 * Environment set-up: creating a conda/mamba/pixi environment, pulling an image or building a venv once,
 * before the first job that uses it.
 *
 * Three layers keep it to once: an in-process memo (concurrent jobs of one engine share one promise), a
 * cross-process lock file per environment (two engines on one machine do not both build it), and a cache
 * file in the workdir (later runs skip it). The cache entry carries a digest of the environment's
 * definition file, so editing `env.yml` or `requirements.txt` sets the environment up again.
 *
 * Before any of that, the backend's program must be installed; a missing one fails with an install hint.
 */
import { confined, jobConfinementFromEnv } from "../job-sandbox.js";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { EngineError } from "../../findings.js";
import type { Environment } from "../../format/model.js";
import { shellQuote } from "../../expand/shell-quote.js";
import { environmentKind, environmentSpec, type EnvironmentKind } from "../../format/rule-settings.js";
import {
  condaEnvironmentName,
  CONTAINER_RUNTIME_VARIABLE,
  containerRuntime,
  findExecutable,
  isEnvironmentFile,
  isImageUri,
  mambaProgram,
  MODULE_INIT_SCRIPTS,
  pulledImagePath,
  homeWord,
  resolveInWorkdir,
  singularityProgram,
} from "./environment-wrap.js";
import { fileDigest } from "../checkpoint/fingerprint.js";
import { requireUsableImage } from "../../format/image-reference.js";
import { type HeldLock, waitForLock } from "../file-lock.js";

/** Where set-ups are recorded, relative to the workdir. */
export const ENVIRONMENT_CACHE_FILE = ".strand/env-cache/environment_cache.json";

/** Seconds to wait for another process's set-up of the same environment when STRAND_ENV_LOCK_TIMEOUT_SECS is unset. */
export const DEFAULT_ENV_LOCK_TIMEOUT_SECS = 7200;

export interface EnsureEnvironmentOptions {
  /** Absolute workdir: set-up commands run here and relative specs resolve against it. */
  workdir: string;
  /** Folder of the cross-process lock files (default: $STRAND_LOCK_DIR, else ~/.strand/locks). */
  lockDir?: string;
  /** The cache file (default: `<workdir>/.strand/env-cache/environment_cache.json`). */
  cacheFile?: string;
  /** `--skip-env-setup`: only check that the backend is installed. */
  skipSetup?: boolean;
  /** Receives one line when a set-up starts and when it ends. */
  log?: (message: string) => void;
  /** For error messages. */
  ruleName?: string;
  /** Environment variables for the set-up commands, PATH look-ups and the STRAND_* settings (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** One recorded set-up in the cache file. */
export interface EnvironmentCacheEntry {
  kind: EnvironmentKind;
  spec: string;
  /** sha256 of the definition file (environment file, manifest, requirements) at set-up time; "" when there is none. */
  fingerprint: string;
  set_up_at: string;
}

interface EnvironmentCache {
  version: 1;
  environments: Record<string, EnvironmentCacheEntry>;
}

/** What setting up one environment takes. */
interface SetupPlan {
  /** Bash text run in the workdir; undefined when there is nothing to run. */
  script?: string;
  fingerprint: string;
  /** False when what the set-up made is gone (a deleted venv or image), so a cache entry no longer holds. */
  stillPresent(): boolean;
}

/** Set-ups under way or finished in this process, by cache file and key, so concurrent jobs share one. */
const inFlight = new Map<string, Promise<void>>();

// ---------------------------------------------------------------------------------------------------------
// Is the backend installed?

/** True when a module system can be initialised: `module` is an exported function, or an init script exists. */
function moduleSystemAvailable(env: NodeJS.ProcessEnv): boolean {
  if (env["BASH_FUNC_module%%"] !== undefined || env["BASH_FUNC_module()"] !== undefined) return true;
  return MODULE_INIT_SCRIPTS.some((script) => {
    const path = script.replace("${MODULESHOME}", env.MODULESHOME ?? "");
    return path.startsWith("/") && existsSync(path);
  });
}

/** True when the program a backend needs is installed (for venv: python3, which creates the venv). */
export function backendAvailable(kind: EnvironmentKind, env: NodeJS.ProcessEnv = process.env): boolean {
  switch (kind) {
    case "system":
      return true;
    case "modules":
      return moduleSystemAvailable(env);
    case "mamba":
      return findExecutable("mamba", env) !== undefined || findExecutable("micromamba", env) !== undefined;
    case "singularity":
      return findExecutable("apptainer", env) !== undefined || findExecutable("singularity", env) !== undefined;
    case "docker":
      return findExecutable(containerRuntime(env), env) !== undefined;
    case "venv":
      return findExecutable("python3", env) !== undefined;
    default:
      return findExecutable(kind, env) !== undefined;
  }
}

/** How to install a backend, with the official installation page. */
export function missingBackendHint(kind: EnvironmentKind): string {
  switch (kind) {
    case "conda":
      return "install Miniforge (https://github.com/conda-forge/miniforge) and make sure `conda` is on PATH";
    case "mamba":
      return (
        "install Miniforge, which includes mamba (https://github.com/conda-forge/miniforge), or micromamba: " +
        '`"${SHELL}" <(curl -L micro.mamba.pm/install.sh)` (https://mamba.readthedocs.io/en/latest/installation/micromamba-installation.html)'
      );
    case "pixi":
      return "install pixi: `curl -fsSL https://pixi.sh/install.sh | sh` (https://pixi.sh)";
    case "docker":
      return (
        "install Docker (https://docs.docker.com/engine/install/) or Podman (https://podman.io/docs/installation); " +
        `with both installed, set ${CONTAINER_RUNTIME_VARIABLE}=podman to use Podman`
      );
    case "singularity":
      return (
        "install Apptainer (https://apptainer.org/docs/admin/main/installation.html) or SingularityCE " +
        "(https://docs.sylabs.io/guides/latest/admin-guide/installation.html)"
      );
    case "venv":
      return "install Python 3 with its venv module (https://www.python.org/downloads/; Debian/Ubuntu: `apt-get install python3-venv`)";
    case "modules":
      return (
        "no module system was found: install Lmod (https://lmod.readthedocs.io/en/latest/030_installing.html) or Environment " +
        "Modules (https://modules.readthedocs.io/en/latest/INSTALL.html), or set MODULESHOME to where it is installed"
      );
    case "system":
      return "";
  }
}

/** The program a message names when a backend is missing. */
function missingProgram(kind: EnvironmentKind, env: NodeJS.ProcessEnv): string {
  switch (kind) {
    case "mamba":
      return "mamba (or micromamba)";
    case "singularity":
      return "apptainer (or singularity)";
    case "docker":
      return containerRuntime(env);
    case "venv":
      return "python3";
    case "modules":
      return "a module system (Lmod or Environment Modules)";
    default:
      return kind;
  }
}

/** Throws ENV_ERROR with an install hint when the backend an environment selects is not installed. */
export function requireBackend(environment: Environment, options: { ruleName?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const kind = environmentKind(environment);
  const env = options.env ?? process.env;
  if (backendAvailable(kind, env)) return;
  const spec = environmentSpec(environment);
  const needed = options.ruleName ? `needed by rule ${options.ruleName} for environment ${spec}` : `needed for environment ${spec}`;
  throw new EngineError("ENV_ERROR", `${missingProgram(kind, env)} is not installed (${needed})`, {
    rule: options.ruleName ?? null,
    suggestion: missingBackendHint(kind),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Setting up, once.

/** The name an environment is set up and cached under, e.g. `conda:envs/qc.yml` or `conda:envs/qc.yml@/opt/envs/qc`. */
export function environmentKey(environment: Environment): string {
  const kind = environmentKind(environment);
  const key = `${kind}:${environmentSpec(environment)}`;
  const prefix = kind === "conda" ? environment.conda_prefix : kind === "mamba" ? environment.mamba_prefix : undefined;
  return prefix ? `${key}@${prefix}` : key;
}

/** The lock folder: $STRAND_LOCK_DIR, else ~/.strand/locks. */
export function defaultLockDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.STRAND_LOCK_DIR || join(homedir(), ".strand", "locks");
}

/** The lock file guarding one environment's set-up: `env-<first 16 hex of sha256(key)>.lock`. */
export function environmentLockPath(key: string, lockDir: string): string {
  return join(lockDir, `env-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.lock`);
}

/** How long to wait for another process's set-up: STRAND_ENV_LOCK_TIMEOUT_SECS, default 2 h. */
export function environmentLockTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.STRAND_ENV_LOCK_TIMEOUT_SECS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_ENV_LOCK_TIMEOUT_SECS) * 1000;
}

/** Makes sure an environment is set up (once per environment, across jobs and processes); checks the backend is installed. */
export async function ensureEnvironment(environment: Environment, options: EnsureEnvironmentOptions): Promise<void> {
  const kind = environmentKind(environment);
  if (kind === "system") return;
  const env = options.env ?? process.env;
  // An existing venv runs without python3 on PATH; only creating one needs it.
  if (!(kind === "venv" && existsSync(venvActivatePath(environment.venv!, options.workdir)))) {
    requireBackend(environment, { ruleName: options.ruleName, env });
  }
  if (options.skipSetup || kind === "modules") return;

  const cacheFile = options.cacheFile ?? join(options.workdir, ENVIRONMENT_CACHE_FILE);
  const key = environmentKey(environment);
  const memoKey = `${cacheFile}\n${key}`;
  let pending = inFlight.get(memoKey);
  if (!pending) {
    // A failed set-up is forgotten, so a later job (or `strand env create`) tries again after a fix.
    pending = setUp(environment, kind, key, cacheFile, options, env).catch((error: unknown) => {
      inFlight.delete(memoKey);
      throw error;
    });
    inFlight.set(memoKey, pending);
  }
  return pending;
}

async function setUp(
  environment: Environment,
  kind: EnvironmentKind,
  key: string,
  cacheFile: string,
  options: EnsureEnvironmentOptions,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const spec = environmentSpec(environment);
  const plan = setupPlan(environment, kind, options, env);
  if (isRecorded(cacheFile, key, plan)) return;

  const lockPath = environmentLockPath(key, options.lockDir ?? defaultLockDir(env));
  let lock: HeldLock;
  try {
    lock = await waitForLock(lockPath, `strand set-up of ${key} in ${options.workdir}`, environmentLockTimeoutMs(env));
  } catch (error) {
    throw new EngineError("ENV_ERROR", `setting up ${kind} environment ${spec}: ${(error as Error).message}`, {
      rule: options.ruleName ?? null,
      suggestion: `if no other strand process is setting it up, delete ${lockPath}; to wait longer, raise STRAND_ENV_LOCK_TIMEOUT_SECS`,
    });
  }
  try {
    // Another process may have finished it while this one waited for the lock.
    if (isRecorded(cacheFile, key, plan)) return;
    options.log?.(`setting up ${kind} environment ${spec}`);
    if (plan.script !== undefined) await runSetupScript(plan.script, kind, spec, options, env);
    recordSetUp(cacheFile, key, { kind, spec, fingerprint: plan.fingerprint, set_up_at: new Date().toISOString() });
    options.log?.(`${kind} environment ${spec} is ready`);
  } finally {
    lock.release();
  }
}

/** The bash text that would set an environment up (for previews such as the service's prepare), or undefined. */
export function setupScript(environment: Environment, workdir: string): string | undefined {
  const kind = environmentKind(environment);
  if (kind === "system") return undefined;
  try {
    return setupPlan(environment, kind, { workdir }, process.env).script;
  } catch {
    return undefined;
  }
}

function setupPlan(environment: Environment, kind: EnvironmentKind, options: EnsureEnvironmentOptions, env: NodeJS.ProcessEnv): SetupPlan {
  const { workdir } = options;
  const always = () => true;
  switch (kind) {
    case "conda":
    case "mamba": {
      const spec = (kind === "conda" ? environment.conda : environment.mamba)!;
      const prefix = kind === "conda" ? environment.conda_prefix : environment.mamba_prefix;
      const name = prefix ? prefix : condaEnvironmentName(spec, workdir, options.ruleName);
      const target = prefix ? `-p ${homeWord(prefix)}` : `-n ${name}`;
      const program = kind === "conda" ? "conda" : mambaProgram(env);
      const file = isEnvironmentFile(spec) && existsSync(resolveInWorkdir(spec, workdir)) ? homeWord(spec) : undefined;
      const steps: string[] = [];
      if (file !== undefined) steps.push(condaCreateOrUpdate(program, target, file));
      // Whatever the spec, the environment must exist and hold programs, or every job would fail obscurely.
      const missing = `the ${kind} environment ${name} does not exist or has no programs in its bin folder` + (isEnvironmentFile(spec) && file === undefined ? ` (and ${spec} was not found)` : "");
      steps.push(`{ ${program} run ${target} bash -c ${shellQuote('test -n "$(ls -A "$CONDA_PREFIX/bin" 2>/dev/null)"')} || { echo ${shellQuote(missing)} >&2; exit 1; }; }`);
      return { script: steps.join(" && "), fingerprint: file !== undefined ? fileDigest(resolveInWorkdir(spec, workdir)) : "", stillPresent: always };
    }
    case "pixi": {
      const manifest = environment.pixi!;
      return { script: `pixi install --manifest-path ${homeWord(manifest)}`, fingerprint: fileDigest(resolveInWorkdir(manifest, workdir)), stillPresent: always };
    }
    case "docker": {
      const runtime = containerRuntime(env);
      requireUsableImage("docker", environment.docker!, options.ruleName);
      const image = homeWord(environment.docker!);
      return { script: `${runtime} image inspect ${image} >/dev/null 2>&1 || ${runtime} pull ${image}`, fingerprint: "", stillPresent: always };
    }
    case "singularity":
      return singularityPlan(environment.singularity!, options, env);
    case "venv":
      return venvPlan(environment, options);
    default:
      return { fingerprint: "", stillPresent: always };
  }
}

/**
 * `conda env create || conda env update --prune` (create fails when the environment exists). micromamba has
 * no `env update` with `--prune` and `create -y` would replace the environment, so it installs into an
 * existing one instead.
 */
function condaCreateOrUpdate(program: string, target: string, file: string): string {
  if (program === "micromamba") {
    return `if micromamba run ${target} true >/dev/null 2>&1; then micromamba install -y ${target} -f ${file}; else micromamba create -y ${target} -f ${file}; fi`;
  }
  return `{ ${program} env create ${target} -f ${file} 2>/dev/null || ${program} env update ${target} -f ${file} --prune; }`;
}

function singularityPlan(spec: string, options: EnsureEnvironmentOptions, env: NodeJS.ProcessEnv): SetupPlan {
  requireUsableImage("singularity", spec, options.ruleName);
  if (!isImageUri(spec)) {
    const image = resolveInWorkdir(spec, options.workdir);
    if (!existsSync(image)) {
      throw new EngineError("ENV_ERROR", `singularity image ${spec} was not found`, {
        rule: options.ruleName ?? null,
        suggestion: "build or copy the .sif file to that path (relative paths are relative to the workdir), or use a docker:// or library:// URI to have it pulled",
      });
    }
    return { fingerprint: "", stillPresent: () => existsSync(image) };
  }
  const image = pulledImagePath(spec, options.workdir);
  // Pull to a side file and rename, so an interrupted pull never leaves a truncated image that looks ready.
  const partial = image.replace(/\.sif$/, ".partial.sif");
  const program = singularityProgram(env);
  const script =
    `[ -f ${homeWord(image)} ] || { mkdir -p ${homeWord(dirname(image))} && rm -f ${homeWord(partial)} && ` +
    `${program} pull ${homeWord(partial)} ${homeWord(spec)} && mv -f ${homeWord(partial)} ${homeWord(image)}; }`;
  return { script, fingerprint: "", stillPresent: () => existsSync(image) };
}

function venvActivatePath(spec: string, workdir: string): string {
  return join(resolveInWorkdir(spec, workdir), "bin", "activate");
}

function venvPlan(environment: Environment, options: EnsureEnvironmentOptions): SetupPlan {
  const spec = environment.venv!.replace(/\/+$/, "");
  const activate = venvActivatePath(spec, options.workdir);
  const declared = environment.venv_requirements;
  if (declared !== undefined && !existsSync(resolveInWorkdir(declared, options.workdir))) {
    throw new EngineError("ENV_ERROR", `requirements file ${declared} of venv ${spec} was not found`, {
      rule: options.ruleName ?? null,
      suggestion: "fix venv_requirements (relative paths are relative to the workdir) or remove it",
    });
  }
  const requirements = declared ?? (existsSync(join(options.workdir, "requirements.txt")) ? "requirements.txt" : undefined);
  const activateWord = homeWord(`${spec}/bin/activate`);
  const steps = [`{ [ -f ${activateWord} ] || python3 -m venv ${homeWord(spec)}; }`, `. ${activateWord}`];
  if (requirements !== undefined) steps.push(`python -m pip install --disable-pip-version-check -r ${homeWord(requirements)}`);
  return {
    script: steps.join(" && "),
    fingerprint: requirements !== undefined ? fileDigest(resolveInWorkdir(requirements, options.workdir)) : "",
    stillPresent: () => existsSync(activate),
  };
}

async function runSetupScript(script: string, kind: EnvironmentKind, spec: string, options: EnsureEnvironmentOptions, env: NodeJS.ProcessEnv): Promise<void> {
  // Loaded when first needed: most runs never call it, and loading it costs every start of strand.
  const { execa } = await import("execa");
  // A shared service's set-up runs in its set-up sandbox: a package's install scripts are the pipeline's code too.
  const argv = confined(jobConfinementFromEnv(process.env).setup, ["bash", "-c", script]);
  const result = await execa(argv[0]!, argv.slice(1), { cwd: options.workdir, env, extendEnv: false, stdin: "ignore", reject: false });
  if (!result.failed) return;
  const detail = lastLines(result.stderr || result.stdout || (result.message ?? `exit code ${result.exitCode}`), 10);
  throw new EngineError("ENV_ERROR", `setting up ${kind} environment ${spec} failed: ${detail}`, {
    rule: options.ruleName ?? null,
    suggestion: `run the set-up yourself in ${options.workdir} to see its whole output: ${script}`,
  });
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}


function readCache(cacheFile: string): EnvironmentCache {
  try {
    const parsed = JSON.parse(readFileSync(cacheFile, "utf8")) as Partial<EnvironmentCache>;
    if (parsed && typeof parsed.environments === "object" && parsed.environments !== null) return { version: 1, environments: parsed.environments };
  } catch {
    // missing or unreadable: nothing is recorded
  }
  return { version: 1, environments: {} };
}

function isRecorded(cacheFile: string, key: string, plan: SetupPlan): boolean {
  const entry = readCache(cacheFile).environments[key];
  return entry !== undefined && entry.fingerprint === plan.fingerprint && plan.stillPresent();
}

/** Adds one entry; a temporary file renamed over the cache means readers never see half a file. */
function recordSetUp(cacheFile: string, key: string, entry: EnvironmentCacheEntry): void {
  // Read and write in one synchronous stretch, so set-ups finishing together in this process do not lose entries.
  const cache = readCache(cacheFile);
  cache.environments[key] = entry;
  mkdirSync(dirname(cacheFile), { recursive: true });
  const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, JSON.stringify(cache, null, 2) + "\n");
  renameSync(temporary, cacheFile);
}

/** The recorded set-ups of a workdir's cache file (for `strand env` listings). */
export function recordedEnvironments(cacheFile: string): Record<string, EnvironmentCacheEntry> {
  return readCache(cacheFile).environments;
}
