/**
 * The sandboxes of team and hpc modes, two of them, one inside the other, both bubblewrap (`bwrap`):
 *
 * - **The engine's sandbox.** A run's engine runs in it: the system read-only, its own /proc, /dev and /tmp,
 *   new user, pid, IPC, UTS and cgroup namespaces and no capabilities (so nothing of the service is visible
 *   — /proc/<service pid>/environ cannot be read — and no mount can be undone), the run's workspace the
 *   one writable place, the declared data folders (`SERVICE_DATA_ROOTS`) and the owner's files folder
 *   (uploads) readable, and empty folders over the service's data folder (the database, every user's runs),
 *   its configuration folder, the service account's home and /run (where daemons keep their sockets:
 *   container engines, databases, D-Bus). It shares the host's network (the engine fetches URL includes and
 *   modules) and, for a scheduler target only, sees the MUNGE socket (the engine submits with sbatch).
 * - **The job sandbox**, inside it, for every command the pipeline controls: each job and hook, each
 *   reference build, each environment set-up, and each scheduler job on its node (whose script starts its
 *   command in this sandbox there). It adds: no MUNGE and no scheduler programs (a `/dev/null` is bound over
 *   them), no container-daemon or database sockets, its own pid namespace (the engine is not there to be
 *   traced), no further user namespaces, and by default its own empty network (`SERVICE_JOB_NETWORK=none`:
 *   not the service's API, nothing on the host's loopback, nothing else; `host` shares the host's network).
 *   Environment set-up always gets the host's network (it downloads packages). Each job also gets limits
 *   (see job-sandbox.ts in the engine): its declared memory, a process cap, the largest file it may write
 *   (its owner's workspace quota), and CPUs pinned to its declared threads.
 *
 * The sandboxes need user namespaces (bwrap nests only with them); a service started as root (which team and
 * hpc modes refuse unless `SERVICE_ALLOW_ROOT=1`) runs them under an unprivileged account
 * (`SERVICE_SANDBOX_USER`, default `nobody`), so no job ever runs as root. `SERVICE_SANDBOX` chooses: `auto`
 * (bwrap in team and hpc modes, none in personal mode), `bwrap` or `off`; team and hpc modes refuse to start
 * without a working sandbox unless it is `off`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, fchmodSync, fchownSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { findExecutable } from "../../engine/run/environments/environment-wrap.js";
import { CONTROLLER_PROGRAMS } from "../../engine/run/cluster/scheduler-registry.js";
import { openFolderInWorkspace } from "./workspace-reader.js";

/** `SERVICE_SANDBOX`: `auto` (bwrap in team and hpc modes, none in personal mode), `bwrap` or `off`. */
export type SandboxSetting = "auto" | "bwrap" | "off";

/** The setting's allowed values, in the order messages list them. */
export const SANDBOX_SETTINGS: readonly SandboxSetting[] = ["auto", "bwrap", "off"];

/** `SERVICE_JOB_NETWORK`: jobs get their own empty network (`none`, the default) or the host's (`host`). */
export type JobNetwork = "none" | "host";

/** The setting's allowed values. */
export const JOB_NETWORKS: readonly JobNetwork[] = ["none", "host"];

/** An account the sandboxes run under when the service runs as root. */
export interface SandboxAccount {
  name: string;
  uid: number;
  gid: number;
}

/** What each job is held to. */
export interface JobLimitSettings {
  /** Processes and threads of one job at once (`SERVICE_JOB_MAX_PROCESSES`). */
  processes: number;
  /** Each user's workspace quota in bytes (`SERVICE_USER_WORKSPACE_MB`), 0 for none. */
  workspaceQuotaBytes: number;
}

/** How runs are sandboxed: the bwrap program, the folders it hides and shows, and what jobs may reach. */
export interface SandboxPolicy {
  kind: "bwrap";
  /** The bwrap program's absolute path. */
  program: string;
  /** Folders made empty inside (the service's data and configuration folders, its account's home, /tmp). */
  hidden: string[];
  /** Folders readable inside even when they lie in a hidden one: the declared data folders. */
  dataRoots: string[];
  /** The engine's own folders (node's installation and this package), readable inside. */
  engineFolders: string[];
  /** The account both sandboxes run under (a service running as root); undefined: the service's own. */
  account?: SandboxAccount;
  /** The setpriv program that switches to `account`. */
  setpriv?: string;
  /** Jobs' network. */
  jobNetwork: JobNetwork;
  /** Sockets outside /run that jobs must not reach (container daemons, a database, a MUNGE elsewhere); the engine keeps MUNGE's. */
  sockets: { munge?: string; hidden: string[] };
  /** Scheduler and MUNGE programs, hidden from jobs. */
  schedulerPrograms: string[];
  /** What each job is held to. */
  limits: JobLimitSettings;
  /** How the limits are enforced here: control groups (v2, delegated) or resource limits. */
  limitMechanism: "cgroup-v2" | "rlimits";
}

/** What decides the sandbox: the mode, the settings and the folders of the service. */
export interface SandboxInputs {
  mode: "personal" | "team" | "hpc";
  setting: SandboxSetting;
  /** `SERVICE_DATA_DIR` (the SQLite database and every user's runs). */
  dataDir: string;
  /** `SERVICE_CONFIG_DIR` (default ~/.config/strand). */
  configDir: string;
  /** `SERVICE_DATA_ROOTS`: folders users' pipelines may read. */
  dataRoots: string[];
  /** `SERVICE_JOB_NETWORK` (default none). */
  jobNetwork?: JobNetwork;
  /** `SERVICE_SANDBOX_USER`: the account the sandboxes run under when the service runs as root (default nobody). */
  sandboxUser?: string;
  /** Per-job limits (`SERVICE_JOB_MAX_PROCESSES`, `SERVICE_USER_WORKSPACE_MB`). */
  limits?: Partial<JobLimitSettings>;
  /** `SERVICE_DATABASE_URL`: a PostgreSQL socket folder it names is hidden from jobs. */
  databaseUrl?: string;
  /** The environment programs and sockets are looked up in (PATH, MUNGE_SOCKET, DOCKER_HOST, …). */
  env?: NodeJS.ProcessEnv;
  /** The service's user id (default: the process's). */
  uid?: number;
}

/** The service cannot start with the sandbox it was asked for; `suggestion` says how to fix it. */
export class SandboxUnavailableError extends Error {
  constructor(
    readonly problem: string,
    readonly suggestion: string,
  ) {
    super(`${problem}; ${suggestion}`);
  }
}

/** The package's root folder (three levels above this module, in src/ and in dist/ alike). */
const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Default per-job process cap. */
export const DEFAULT_JOB_PROCESSES = 1024;

/** Programs that talk to a scheduler (each scheduler's module in the engine lists its own) or MUNGE: jobs never get them. */
const SCHEDULER_PROGRAMS = [...CONTROLLER_PROGRAMS, "munge", "unmunge", "remunge"];

/** The path of a `unix://` socket address, or undefined. */
function unixSocketOf(address: string | undefined): string | undefined {
  if (!address?.startsWith("unix://")) return undefined;
  const path = address.slice("unix://".length);
  return path.startsWith("/") ? path : undefined;
}

/** A database URL's socket folder (`postgres://…?host=/run/pg`, `postgres://%2Frun%2Fpg/db`), or undefined. */
function databaseSocketFolder(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    const host = parsed.searchParams.get("host") ?? decodeURIComponent(parsed.hostname);
    return host.startsWith("/") ? host : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a path lies under /run (or /var/run, which points there): the sandboxes empty it anyway. */
function underRun(path: string): boolean {
  return path === "/run" || path.startsWith("/run/") || path.startsWith("/var/run/");
}

/** The first existing folder above `path` that other accounts may not pass through (no o+x), or undefined. */
function closedAncestor(path: string): string | undefined {
  let current = dirname(resolve(path));
  for (;;) {
    try {
      if ((statSync(current).mode & 0o001) === 0) return current;
    } catch {
      // not there yet: the service makes it
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The account named `name`, from the password database (`id`), or undefined. */
function lookupAccount(name: string): SandboxAccount | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * The sandbox runs get, or undefined for none; throws SandboxUnavailableError when team or hpc mode (or
 * `SERVICE_SANDBOX=bwrap`) needs bwrap and it is missing, or cannot make the nested sandboxes here.
 */
export function resolveSandbox(inputs: SandboxInputs): SandboxPolicy | undefined {
  if (inputs.setting === "off") return undefined;
  if (inputs.setting === "auto" && inputs.mode === "personal") return undefined;
  const env = inputs.env ?? process.env;
  const why = inputs.setting === "bwrap" ? "SERVICE_SANDBOX=bwrap asks for it" : `${inputs.mode} mode runs other people's pipelines`;
  const program = findExecutable("bwrap", env);
  if (!program) {
    throw new SandboxUnavailableError(
      `no job sandbox is available: bwrap (bubblewrap) is not on PATH, and ${why} (without a sandbox every job could read the database, the configuration and other users' runs)`,
      "install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), or set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk",
    );
  }
  const asRoot = (inputs.uid ?? process.getuid?.() ?? -1) === 0;
  let account: SandboxAccount | undefined;
  let setpriv: string | undefined;
  if (asRoot) {
    const name = inputs.sandboxUser || "nobody";
    account = lookupAccount(name);
    setpriv = findExecutable("setpriv", env);
    if (!account || account.uid === 0) {
      throw new SandboxUnavailableError(
        `the service runs as root, so its sandboxes run under an unprivileged account, and SERVICE_SANDBOX_USER names ${account ? "root" : `'${name}', which does not exist`}`,
        "name an unprivileged account in SERVICE_SANDBOX_USER (default nobody), or better, run the service under an account of its own",
      );
    }
    if (!setpriv) throw new SandboxUnavailableError("the service runs as root and needs setpriv (util-linux) to start its sandboxes as an unprivileged account", "install util-linux, or run the service under an account of its own");
    const closed = closedAncestor(inputs.dataDir);
    if (closed) {
      throw new SandboxUnavailableError(
        `the service runs as root, so its sandboxes run as ${account.name}, who cannot pass through ${closed} to reach the run workspaces in ${inputs.dataDir}`,
        `put SERVICE_DATA_DIR where every folder above it may be passed through (mode o+x, e.g. /var/lib/strand), or run the service under an account of its own`,
      );
    }
  }
  const home = new Set([homedir(), safeHome()].filter((path): path is string => Boolean(path) && path !== "/"));
  const hidden = uniqueFolders(["/tmp", inputs.dataDir, inputs.configDir, ...home]);
  const node = dirname(dirname(realpathSync(process.execPath)));
  const munge = env.MUNGE_SOCKET && env.MUNGE_SOCKET.startsWith("/") ? env.MUNGE_SOCKET : undefined;
  const sockets = [unixSocketOf(env.DOCKER_HOST), unixSocketOf(env.CONTAINER_HOST), databaseSocketFolder(inputs.databaseUrl)].filter((path): path is string => path !== undefined && !underRun(path));
  const schedulerPrograms = [...new Set(SCHEDULER_PROGRAMS.map((name) => findExecutable(name, env)).filter((path): path is string => path !== undefined).map(realOrSelf))];
  const policy: SandboxPolicy = {
    kind: "bwrap",
    program,
    hidden,
    dataRoots: uniqueFolders(inputs.dataRoots),
    engineFolders: uniqueFolders([node, PACKAGE_ROOT]),
    account,
    setpriv,
    jobNetwork: inputs.jobNetwork ?? "none",
    sockets: { munge: munge && !underRun(munge) ? munge : undefined, hidden: sockets },
    schedulerPrograms,
    limits: { processes: inputs.limits?.processes ?? DEFAULT_JOB_PROCESSES, workspaceQuotaBytes: inputs.limits?.workspaceQuotaBytes ?? 0 },
    limitMechanism: "rlimits",
  };
  const problem = trialProblem(policy);
  if (problem) {
    throw new SandboxUnavailableError(
      `no job sandbox is available: ${program} cannot make the nested sandboxes jobs run in here (${problem}), and ${why}`,
      "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or user.max_user_namespaces > 0), or run the service where bwrap works (a container needs CAP_SYS_ADMIN or an unconfined seccomp profile), or set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk",
    );
  }
  return policy;
}

/** Why a job sandbox inside an engine sandbox cannot run here (bwrap's error), or undefined when it works. */
function trialProblem(policy: SandboxPolicy): string | undefined {
  const workspace = "/";
  const inner = jobSandboxPrefix(policy, workspace, { network: policy.jobNetwork, forTrial: true });
  const outer = engineSandboxCommand(policy, workspace, [...inner, "true"], { scheduler: false, forTrial: true });
  const trial = spawnSync(outer[0]!, outer.slice(1), { encoding: "utf8", timeout: 10_000 });
  if (trial.status === 0) return undefined;
  return (trial.stderr || trial.error?.message || `exit code ${String(trial.status)}`).trim().split("\n")[0];
}

/** The mounts both sandboxes share: the system read-only, private /proc, /dev and /tmp, the service's folders hidden, the readable folders shown, /run emptied. */
function commonMounts(policy: SandboxPolicy, workspace: string, options: { forTrial?: boolean; network: JobNetwork | "host" }): string[] {
  const args = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"];
  const hidden = policy.hidden.filter(isFolder);
  for (const folder of hidden) args.push("--tmpfs", folder);
  const readable = uniqueFolders([...policy.engineFolders, ...policy.dataRoots]).filter(isFolder);
  for (const folder of readable) args.push("--ro-bind", folder, folder);
  for (const folder of hidden) if (readable.some((shown) => inside(folder, shown))) args.push("--tmpfs", folder);
  // /run holds daemons' sockets (container engines, databases, MUNGE, D-Bus): emptied. Name lookups keep working.
  args.push("--tmpfs", "/run");
  if (isDirectoryNotLink("/var/run")) args.push("--tmpfs", "/var/run");
  if (options.network === "host" && isFolder("/run/systemd/resolve")) args.push("--ro-bind", "/run/systemd/resolve", "/run/systemd/resolve");
  if (options.forTrial) return args;
  // The run's owner's files folder (their uploads), read-only: beside the workspace's parent folder.
  const ownFiles = ownerFilesOf(workspace);
  if (ownFiles && isFolder(ownFiles)) args.push("--ro-bind", ownFiles, ownFiles);
  return args;
}

/** The namespaces every sandbox gets. */
const NAMESPACES = ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"];

/** The program that starts a sandbox: bwrap, under the unprivileged account when the service runs as root. */
function launcher(policy: SandboxPolicy): string[] {
  if (!policy.account) return [policy.program];
  const { uid, gid } = policy.account;
  return [policy.setpriv!, `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--", policy.program];
}

/**
 * The command that runs `command` (the engine) for a run in `workspace` inside the engine's sandbox: hides
 * first (parents before children), then the readable folders, then hides again whatever hidden folder a
 * readable one contains (a data root of `/` must not show the database), then the workspace, writable,
 * where the command starts. A scheduler target sees the MUNGE socket (the engine submits); other sockets
 * stay hidden.
 */
export function engineSandboxCommand(policy: SandboxPolicy, workspace: string, command: string[], options: { scheduler: boolean; forTrial?: boolean }): string[] {
  const args = [...NAMESPACES, ...commonMounts(policy, workspace, { forTrial: options.forTrial, network: "host" })];
  if (options.scheduler) {
    if (isFolder("/run/munge")) args.push("--ro-bind", "/run/munge", "/run/munge");
  } else if (policy.sockets.munge && existsSync(policy.sockets.munge)) args.push("--ro-bind", "/dev/null", policy.sockets.munge);
  for (const socket of policy.sockets.hidden) if (existsSync(socket)) args.push(isFolder(socket) ? "--tmpfs" : "--ro-bind", ...(isFolder(socket) ? [socket] : ["/dev/null", socket]));
  if (!options.forTrial) args.push("--bind", workspace, workspace, "--chdir", workspace);
  return [...launcher(policy), ...args, "--", ...command];
}

/**
 * The prefix (ending with `--`) that runs a command of the pipeline in the job sandbox, inside the engine's
 * sandbox or on a scheduler's node. `network: "host"` is for environment set-up, which downloads.
 */
export function jobSandboxPrefix(policy: SandboxPolicy, workspace: string, options: { network: JobNetwork; forTrial?: boolean }): string[] {
  const args = [policy.program, ...NAMESPACES, "--disable-userns", ...commonMounts(policy, workspace, options)];
  if (options.network === "none") args.push("--unshare-net");
  for (const program of policy.schedulerPrograms) args.push("--ro-bind", "/dev/null", program);
  for (const socket of [policy.sockets.munge, ...policy.sockets.hidden]) {
    if (socket === undefined || !existsSync(socket)) continue;
    args.push(...(isFolder(socket) ? ["--tmpfs", socket] : ["--ro-bind", "/dev/null", socket]));
  }
  for (const name of ["MUNGE_SOCKET", "DOCKER_HOST", "CONTAINER_HOST"]) args.push("--unsetenv", name);
  if (!options.forTrial) args.push("--bind", workspace, workspace);
  return [...args, "--"];
}

/**
 * The files folder of the user whose workspace this is: workspaces are `<data>/users/<owner>/pipelines/<id>/`
 * or `<data>/users/<owner>/runs/<id>/`, the uploads `<data>/users/<owner>/files/`. Undefined for a workspace
 * of another shape (runs made before that layout).
 */
export function ownerFilesOf(workspace: string): string | undefined {
  const kind = dirname(workspace);
  const owner = dirname(kind);
  if (!["pipelines", "runs"].includes(basename(kind)) || basename(dirname(owner)) !== "users") return undefined;
  return join(owner, "files");
}

/**
 * A root service's sandboxes run under an unprivileged account: it must reach a run's workspace and own
 * what the engine writes there. The folders above the workspace (the data folder, `users`, the owner's,
 * `runs` or `pipelines`, all the service's) become passable but not listable (0711), the owner's files
 * folder readable by the account's group, and the workspace and `folders` (the service-made ones the engine
 * writes in, relative to it) the account's, each changed through a descriptor of the folder that was
 * checked (a job of an earlier run cannot swap a link in between). Nothing to do for a service that is not
 * root. (The files folder is the service's alone — jobs see it read-only — so it is walked by path.)
 */
export function handOverWorkspace(policy: SandboxPolicy | undefined, workspace: string, folders: string[]): void {
  const account = policy?.account;
  if (!account) return;
  const kind = dirname(workspace);
  const owner = dirname(kind);
  const users = dirname(owner);
  if (basename(users) === "users" && ["runs", "pipelines"].includes(basename(kind))) {
    for (const folder of [dirname(users), users, owner, kind]) {
      const mode = statSync(folder).mode & 0o777;
      if ((mode & 0o001) === 0) chmodSync(folder, mode | 0o111);
    }
    const files = ownerFilesOf(workspace);
    if (files && isFolder(files)) shareWithGroup(files, account.gid);
  }
  for (const folder of ["", ...folders]) {
    const opened = openFolderInWorkspace(workspace, folder);
    if (!opened) throw new Error(`the workspace folder ${folder || "."} is not a plain folder (a link?), so it is not handed to the sandbox account`);
    try {
      fchownSync(opened.fd, account.uid, account.gid);
      if (folder === "") fchmodSync(opened.fd, 0o700);
    } finally {
      opened.close();
    }
  }
}

/** The most entries of an owner's files folder given to the sandbox account's group at a run's start. */
const SHARED_FILES_MAX = 100_000;

/**
 * Gives the owner's files folder (their uploads, written by the service alone: folders 700, files 600) to
 * the sandbox account's group, read-only (folders 750, files 640), so their jobs can read it. Links are
 * left alone (uploads make none); at most SHARED_FILES_MAX entries.
 */
function shareWithGroup(root: string, gid: number): void {
  const stack = [root];
  let seen = 0;
  while (stack.length > 0 && seen < SHARED_FILES_MAX) {
    const path = stack.pop()!;
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    seen++;
    if (stat.isSymbolicLink()) continue;
    if (stat.gid !== gid) chownSync(path, stat.uid, gid);
    const wanted = stat.isDirectory() ? (stat.mode & 0o777) | 0o050 : (stat.mode & 0o777) | 0o040;
    if ((stat.mode & 0o777) !== wanted) chmodSync(path, wanted);
    if (stat.isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
  }
}

/** The sandbox as `/api/system` and `/api/health` show it (its folders to administrators only: they are server paths). */
export interface SandboxDescription {
  kind: "bwrap" | "none";
  hidden: string[];
  data_roots: string[];
  /** Jobs' capabilities: none (their own user namespace, all dropped), or the service's. */
  capabilities: "none" | "the service's";
  /** Whose user id jobs run under: the service's account, or the unprivileged one a root service switches to. */
  runs_as: "the service's account" | "an unprivileged account";
  /** Jobs' network: their own empty one, or the host's. */
  network: JobNetwork;
  /** What enforces each job's memory, CPU and process limits. */
  limits: "cgroup-v2" | "rlimits" | "none";
  processes_per_job: number | null;
  workspace_quota_mb: number | null;
}

/** The folders the sandbox shows and hides, and what it enforces, for `/api/system` and `/api/health`. */
export function describeSandbox(policy: SandboxPolicy | undefined): SandboxDescription {
  if (!policy) return { kind: "none", hidden: [], data_roots: [], capabilities: "the service's", runs_as: "the service's account", network: "host", limits: "none", processes_per_job: null, workspace_quota_mb: null };
  return {
    kind: "bwrap",
    hidden: policy.hidden,
    data_roots: policy.dataRoots,
    capabilities: "none",
    runs_as: policy.account ? "an unprivileged account" : "the service's account",
    network: policy.jobNetwork,
    limits: policy.limitMechanism,
    processes_per_job: policy.limits.processes,
    workspace_quota_mb: policy.limits.workspaceQuotaBytes > 0 ? Math.round(policy.limits.workspaceQuotaBytes / 1024 / 1024) : null,
  };
}

/** `SERVICE_DATA_ROOTS`: absolute folders, separated by colons or commas. */
export function parseDataRoots(value: string | undefined): string[] {
  const roots = (value ?? "").split(/[:,]/).map((entry) => entry.trim()).filter(Boolean);
  for (const root of roots) if (!root.startsWith("/")) throw new Error(`SERVICE_DATA_ROOTS must list absolute folders (separated by : or ,), got '${root}'`);
  return roots.map((root) => resolve(root));
}

/** The account's home folder from the password database (HOME may have been changed). */
function safeHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** Absolute, without duplicates, parents before children (so a child's mount is not covered by its parent's). */
function uniqueFolders(folders: string[]): string[] {
  const resolved = [...new Set(folders.filter(Boolean).map((folder) => resolve(folder)))];
  return resolved.sort((a, b) => a.split(sep).length - b.split(sep).length || a.localeCompare(b));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isDirectoryNotLink(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `folder` or lies inside it. */
function inside(path: string, folder: string): boolean {
  return folder === "/" || path === folder || path.startsWith(`${folder}/`);
}

/** Whether bwrap is installed here (for tests and `/api/system`). */
export function bwrapInstalled(env: NodeJS.ProcessEnv = process.env): boolean {
  return findExecutable("bwrap", env) !== undefined && existsSync("/proc/self");
}
