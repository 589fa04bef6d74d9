/**
 * Pinned include modules (`repo` + `ref`): cloned once with git into a cache folder and reused. A clone is
 * made in a temporary folder and renamed into place, so concurrent loads never see a half-made copy.
 */
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { EngineError } from "../findings.js";

/** The cache folder for pinned modules: `STRAND_CACHE_DIR`, else `$XDG_CACHE_HOME/strand`, else `~/.cache/strand`. */
export function defaultCacheDir(): string {
  if (process.env.STRAND_CACHE_DIR) return process.env.STRAND_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "strand");
}

/** A folder name for a repository and ref that is safe on every filesystem. */
export function moduleFolderName(repo: string, ref: string): string {
  const clean = (text: string): string => text.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "");
  return `${clean(repo)}@${clean(ref)}`;
}

/** How git runs for a module. */
export interface CheckoutOptions {
  /**
   * A shared service's engine (`STRAND_REMOTE_SOURCES=public`): its home and cache are in the run's
   * workspace, which jobs write, so git reads no global configuration (a `.gitconfig` there could name hooks,
   * filters, an ssh command or URL rewrites), speaks only https, http and local paths, and follows no redirect.
   */
  confined?: boolean;
  /** `curl --resolve` entries holding git to the addresses vetted for the repository's host. */
  pin?: { resolve: string[] };
}

/** Settings given on git's command line for every module clone: no hooks, no file-system monitor, ever. */
const ALWAYS = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];

/** Settings for a confined clone (see CheckoutOptions). */
const CONFINED = [
  "-c", "protocol.allow=never",
  "-c", "protocol.https.allow=always",
  "-c", "protocol.http.allow=always",
  "-c", "protocol.file.allow=always",
  "-c", "http.followRedirects=false",
  "-c", "credential.helper=",
];

/** The git command line and environment for a module clone. */
function gitInvocation(args: string[], options: CheckoutOptions): { args: string[]; env: Record<string, string> } {
  const settings = [...ALWAYS, ...(options.confined ? CONFINED : []), ...(options.pin?.resolve ?? []).flatMap((entry) => ["-c", `http.curloptResolve=${entry}`])];
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: "0" };
  // The global configuration (~/.gitconfig, $XDG_CONFIG_HOME/git/config) is the job-writable home's; the operator's system one stays.
  if (options.confined) Object.assign(env, { GIT_CONFIG_GLOBAL: "/dev/null", GIT_NO_REPLACE_OBJECTS: "1", GIT_ASKPASS: "", SSH_ASKPASS: "" });
  return { args: [...settings, ...args], env };
}

/** Returns the local checkout of `repo` at `ref`, cloning it into the cache the first time. */
export async function checkoutModule(repo: string, ref: string, cacheDir: string, options: CheckoutOptions = {}): Promise<string> {
  const target = join(cacheDir, "modules", moduleFolderName(repo, ref));
  if (await isDirectory(target)) return target;
  await mkdir(join(cacheDir, "modules"), { recursive: true });
  const temporary = `${target}.partial-${process.pid}-${Date.now()}`;
  try {
    // --template= : no sample hooks or other files from the system's template folder.
    await git(["clone", "--quiet", "--no-checkout", "--template=", repo, temporary], repo, ref, options);
    await git(["-C", temporary, "checkout", "--quiet", "--detach", ref], repo, ref, options);
    try {
      await rename(temporary, target);
    } catch (error) {
      // Another process finished the same clone first; its copy is as good as ours.
      if (!(await isDirectory(target))) throw error;
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return target;
}

async function git(args: string[], repo: string, ref: string, options: CheckoutOptions): Promise<void> {
  // Loaded on first use: only pinned modules need git, and execa adds noticeably to start-up.
  const { execa } = await import("execa");
  try {
    const invocation = gitInvocation(args, options);
    await execa("git", invocation.args, { stdin: "ignore", timeout: 300_000, env: invocation.env });
  } catch (error) {
    const detail = (error as { stderr?: string; shortMessage?: string }).stderr?.trim() || (error as Error).message;
    const missingGit = (error as { code?: string }).code === "ENOENT";
    throw new EngineError("INCLUDE_ERROR", missingGit ? "git is needed for repo includes but is not installed" : `cannot fetch module ${repo} at ${ref}: ${detail.split("\n").slice(-1)[0]}`, {
      suggestion: missingGit ? "install git, or copy the module next to the workflow and include it by path" : "check that the repository address is reachable and that ref names a tag, branch or commit in it",
    });
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
