/**
 * The job sandbox: where bubblewrap (`bwrap`) is installed, a run's whole engine — and so every job, every
 * environment set-up and every reference build it starts — runs inside it. The system is visible read-only,
 * /proc, /dev and /tmp are the sandbox's own, the pid, IPC, UTS and cgroup namespaces are new (no process
 * of the service is visible, so /proc/<service pid>/environ cannot be read), the network is shared (jobs
 * download references and reach schedulers), the run's workspace is the one writable place, the declared
 * data folders (`SERVICE_DATA_ROOTS`) and the run's owner's files folder (uploads) are readable, and the service's data folder (the database and every
 * user's runs), its configuration folder and the home folder of the service's account are empty folders.
 * The engine's own files (node and this package) stay readable. `SERVICE_SANDBOX` chooses: `auto` (the
 * default: bwrap in team and hpc modes, none in personal mode), `bwrap` or `off`; team and hpc modes refuse
 * to start without a sandbox unless it is `off`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { findExecutable } from "../../engine/run/environment-wrap.js";

/** `SERVICE_SANDBOX`: `auto` (bwrap in team and hpc modes, none in personal mode), `bwrap` or `off`. */
export type SandboxSetting = "auto" | "bwrap" | "off";

/** The setting's allowed values, in the order messages list them. */
export const SANDBOX_SETTINGS: readonly SandboxSetting[] = ["auto", "bwrap", "off"];

/** How runs are sandboxed: the bwrap program and the folders it hides and shows. */
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
}

/** What decides the sandbox: the mode, the setting and the folders of the service. */
export interface SandboxInputs {
  mode: "personal" | "team" | "hpc";
  setting: SandboxSetting;
  /** `SERVICE_DATA_DIR` (the SQLite database and every user's runs). */
  dataDir: string;
  /** `SERVICE_CONFIG_DIR` (default ~/.config/strand). */
  configDir: string;
  /** `SERVICE_DATA_ROOTS`: folders users' pipelines may read. */
  dataRoots: string[];
  /** The environment the bwrap program is looked up in (its PATH). */
  env?: NodeJS.ProcessEnv;
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

/**
 * The sandbox runs get, or undefined for none; throws SandboxUnavailableError when team or hpc mode (or
 * `SERVICE_SANDBOX=bwrap`) needs bwrap and it is missing or cannot make namespaces here.
 */
export function resolveSandbox(inputs: SandboxInputs): SandboxPolicy | undefined {
  if (inputs.setting === "off") return undefined;
  if (inputs.setting === "auto" && inputs.mode === "personal") return undefined;
  const why = inputs.setting === "bwrap" ? "SERVICE_SANDBOX=bwrap asks for it" : `${inputs.mode} mode runs other people's pipelines`;
  const program = findExecutable("bwrap", inputs.env ?? process.env);
  if (!program) {
    throw new SandboxUnavailableError(
      `no job sandbox is available: bwrap (bubblewrap) is not on PATH, and ${why} (without a sandbox every job could read the database, the configuration and other users' runs)`,
      "install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), or set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk",
    );
  }
  const problem = bwrapProblem(program);
  if (problem) {
    throw new SandboxUnavailableError(
      `no job sandbox is available: ${program} cannot create its namespaces here (${problem}), and ${why}`,
      "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or run the service where bwrap works (a container needs CAP_SYS_ADMIN), or set SERVICE_SANDBOX=off to run jobs unsandboxed and accept that risk",
    );
  }
  const home = new Set([homedir(), safeHome()].filter((path): path is string => Boolean(path) && path !== "/"));
  const hidden = uniqueFolders(["/tmp", inputs.dataDir, inputs.configDir, ...home]);
  const node = dirname(dirname(realpathSync(process.execPath)));
  return { kind: "bwrap", program, hidden, dataRoots: uniqueFolders(inputs.dataRoots), engineFolders: uniqueFolders([node, PACKAGE_ROOT]) };
}

/** Why bwrap cannot run here (its error), or undefined when a trial sandbox works. */
function bwrapProblem(program: string): string | undefined {
  const trial = spawnSync(program, ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "true"], { encoding: "utf8", timeout: 10_000 });
  if (trial.status === 0) return undefined;
  return (trial.stderr || trial.error?.message || `exit code ${String(trial.status)}`).trim().split("\n")[0];
}

/**
 * The bwrap argument list that runs `command` for a run in `workspace`: hides first (parents before
 * children), then the readable folders, then hides again whatever hidden folder a readable one contains
 * (a data root of `/` must not show the database), then the workspace, writable, where the command starts.
 */
export function sandboxedCommand(policy: SandboxPolicy, workspace: string, command: string[]): string[] {
  const args = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  const hidden = policy.hidden.filter(isFolder);
  for (const folder of hidden) args.push("--tmpfs", folder);
  const readable = uniqueFolders([...policy.engineFolders, ...policy.dataRoots]).filter(isFolder);
  for (const folder of readable) args.push("--ro-bind", folder, folder);
  for (const folder of hidden) if (readable.some((shown) => inside(folder, shown))) args.push("--tmpfs", folder);
  // The run's owner's files folder (their uploads), read-only: beside the workspace's parent folder.
  const ownFiles = ownerFilesOf(workspace);
  if (ownFiles && isFolder(ownFiles)) args.push("--ro-bind", ownFiles, ownFiles);
  args.push("--bind", workspace, workspace, "--chdir", workspace, "--", ...command);
  return [policy.program, ...args];
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

/** The sandbox as `/api/system` shows it (its folders to administrators only: they are server paths). */
export interface SandboxDescription {
  kind: "bwrap" | "none";
  hidden: string[];
  data_roots: string[];
}

/** The folders the sandbox shows and hides, for `/api/system`. */
export function describeSandbox(policy: SandboxPolicy | undefined): SandboxDescription {
  return policy ? { kind: "bwrap", hidden: policy.hidden, data_roots: policy.dataRoots } : { kind: "none", hidden: [], data_roots: [] };
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

/** Whether `path` is `folder` or lies inside it. */
function inside(path: string, folder: string): boolean {
  return folder === "/" || path === folder || path.startsWith(`${folder}/`);
}

/** Whether bwrap is installed here (for tests and `/api/system`). */
export function bwrapInstalled(env: NodeJS.ProcessEnv = process.env): boolean {
  return findExecutable("bwrap", env) !== undefined && existsSync("/proc/self");
}
