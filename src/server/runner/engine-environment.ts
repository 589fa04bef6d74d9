/**
 * The environment a run's engine (and so every job it starts) gets: built from an allow-list, never from
 * the service's own environment as a whole, so no job can read the service's secrets. Allowed: PATH, the
 * locale (LANG, LANGUAGE, LC_*), TZ, TERM, USER and LOGNAME, HOME and TMPDIR pointing inside the run, the
 * engine's own settings (STRAND_*), what schedulers, environment managers, container runtimes and common
 * tools need to be found and reached (SLURM_CONF, PBS, SGE and LSF locations, MODULEPATH, CONDA_EXE,
 * JAVA_HOME, …), and proxies. Whatever the allow-list says, a name that looks like a secret or the
 * service's own setting is dropped: `SERVICE_*`, `*_API_KEY`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`,
 * `*PASSWD*`, `*CREDENTIAL*`, `DATABASE_URL` and `PG*` (PostgreSQL's client reads its password and server
 * from those). What a pipeline declares for its jobs (a rule's `envvars`) is exported by the job's own
 * text, not taken from the service.
 */

/** Names passed on as they are (when the service has them). */
const ALLOWED_NAMES = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "USER",
  "LOGNAME",
  // Schedulers: where their configuration and servers are (the engine submits with sbatch, qsub, bsub).
  "SLURM_CONF",
  "MUNGE_SOCKET",
  "PBS_CONF_FILE",
  "PBS_SERVER",
  "PBS_HOME",
  "PBS_EXEC",
  "SGE_ROOT",
  "SGE_CELL",
  "SGE_CLUSTER_NAME",
  "SGE_QMASTER_PORT",
  "SGE_EXECD_PORT",
  "LSF_ENVDIR",
  "LSF_SERVERDIR",
  "LSF_BINDIR",
  "LSF_LIBDIR",
  // Environment modules and Lmod: how `module load` finds its modules.
  "MODULEPATH",
  "MODULESHOME",
  "LMOD_CMD",
  "LMOD_DIR",
  "LMOD_PKG",
  // Container runtimes: which daemon to talk to (rootless podman finds its socket in XDG_RUNTIME_DIR).
  "DOCKER_HOST",
  "CONTAINER_HOST",
  "XDG_RUNTIME_DIR",
  // Where common tools are: conda and mamba, Java, and the GPUs a job may use.
  "CONDA_EXE",
  "MAMBA_EXE",
  "MAMBA_ROOT_PREFIX",
  "JAVA_HOME",
  "CUDA_VISIBLE_DEVICES",
  // Proxies for downloads (conda, pip, git, image pulls); one carrying a password is dropped below.
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
]);

/** Name prefixes passed on (the locale categories, and the engine's own settings). */
const ALLOWED_PREFIXES = ["LC_", "STRAND_", "SBATCH_", "SALLOC_", "SQUEUE_", "SACCT_", "APPTAINER_", "SINGULARITY_"];

/** Names never passed on, whatever the allow-list says: the service's settings and anything that looks like a secret. */
const SECRET_PATTERNS = [/^SERVICE_/i, /API_?KEY/i, /SECRET/i, /TOKEN/i, /PASSWORD/i, /PASSWD/i, /CREDENTIAL/i, /PRIVATE_?KEY/i, /^(SERVICE_)?DATABASE_URL$/i, /^PG/];

/** Whether a variable name looks like a secret or a setting of the service (never given to a run). */
export function isSecretName(name: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(name));
}

/** Whether a variable of the service's environment may be passed on to a run's engine. */
export function isAllowedName(name: string): boolean {
  if (isSecretName(name)) return false;
  return ALLOWED_NAMES.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Where a run's engine keeps its home and temporary files (folders inside the run). */
export interface RunPrivateFolders {
  home: string;
  tmp: string;
}

/**
 * The environment of a run's engine: the allowed part of `source` (the service's environment), HOME and
 * TMPDIR inside the run, then `overrides` (what the service's operator set for engines, and the run's own
 * settings such as the container runtime), of which secret-looking names are dropped too.
 */
export function engineEnvironment(source: NodeJS.ProcessEnv, folders: RunPrivateFolders, overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || !isAllowedName(name)) continue;
    // A proxy URL with a user name and password in it is a secret of the service's account.
    if (/proxy$/i.test(name) && /\/\/[^/@]*:[^/@]*@/.test(value)) continue;
    env[name] = value;
  }
  env.HOME = folders.home;
  env.TMPDIR = folders.tmp;
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  for (const [name, value] of Object.entries(overrides)) if (!isSecretName(name)) env[name] = value;
  return env;
}
