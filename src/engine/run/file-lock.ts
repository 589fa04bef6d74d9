/**
 * Cross-process locks as files. Node has no flock, so a lock is a file created atomically (link) that holds
 * the owner's pid, host and start time; a lock whose owner process is gone on this host is stale and is
 * taken over. Used for the workdir lock and for environment set-up.
 */
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";

export interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
  /** What holds it, e.g. "strand run (run 2026-11-21T10-00-00-ab12)". */
  purpose: string;
  /**
   * The owner's pid namespace (`pid:[4026531836]`), when /proc shows it: an engine in a job sandbox has a
   * namespace of its own, where its pid means nothing to processes outside.
   */
  pid_namespace?: string;
}

export interface HeldLock {
  path: string;
  release(): void;
}

/** A lock file is a line of JSON; anything bigger is not one. */
const MAX_LOCK_BYTES = 4096;

/**
 * The owner recorded in a lock file, or undefined when the file is missing or unreadable. Jobs can write
 * where locks live, so the file is opened without following a link and without waiting on a FIFO, and read
 * only when it is a small regular file: anything else is unreadable (and a stale lock is taken over).
 */
export function lockOwner(path: string): LockOwner | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_LOCK_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const length = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
    const owner = JSON.parse(buffer.subarray(0, length).toString("utf8")) as LockOwner;
    return typeof owner?.pid === "number" ? owner : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** True while a process with this pid exists on this machine (one we may not signal counts too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a lock's owner still runs, as far as this process can tell: an owner on another host is assumed
 * alive; an owner in another pid namespace (a sandboxed engine) is alive while a process visible here
 * still lives in that namespace — every sandbox has its own, which ends with its last process, and a
 * sandbox sees none of the others' (the service that starts sandboxed engines sees them all, and lets one
 * engine at a time work in a workspace).
 */
export function lockHolderAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // cannot tell for another host: assume it is held
  const own = pidNamespace("self");
  if (owner.pid_namespace !== undefined && own !== undefined && owner.pid_namespace !== own) return namespaceInUse(owner.pid_namespace);
  return processAlive(owner.pid);
}

/** The pid namespace of a process (`pid:[…]`), or undefined where /proc does not show it. */
function pidNamespace(pid: number | "self"): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Whether any process visible here lives in this pid namespace (a scan of /proc, done only for a foreign lock). */
function namespaceInUse(namespace: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  return entries.some((entry) => /^\d+$/.test(entry) && pidNamespace(Number(entry)) === namespace && !finished(Number(entry)));
}

/** Whether a process has ended and only waits to be reaped (a zombie keeps its namespace link for a while). */
function finished(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

/** Takes the lock now, or returns the live owner that holds it. Stale locks are taken over. */
export function tryLock(path: string, purpose: string): HeldLock | { heldBy: LockOwner } {
  mkdirSync(dirname(path), { recursive: true });
  for (let round = 0; round < 3; round++) {
    // The owner is written to a private file first and linked into place: the lock never exists half-written.
    const namespace = pidNamespace("self");
    const owner: LockOwner = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), purpose, ...(namespace === undefined ? {} : { pid_namespace: namespace }) };
    const pending = `${path}.${process.pid}.${round}.tmp`;
    writeFileSync(pending, JSON.stringify(owner));
    try {
      linkSync(pending, path);
      rmSync(pending, { force: true });
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (lockOwner(path)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      rmSync(pending, { force: true });
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = lockOwner(path);
      if (holder && lockHolderAlive(holder)) return { heldBy: holder };
      // Stale (owner gone) or unreadable: remove and try again.
      rmSync(path, { force: true });
    }
  }
  const owner = lockOwner(path);
  return { heldBy: owner ?? { pid: -1, host: hostname(), started_at: "", purpose: "unknown" } };
}

/** Waits for the lock, polling, until `timeoutMs` passes; throws an Error naming the holder on time-out. */
export async function waitForLock(path: string, purpose: string, timeoutMs: number, pollMs = 200): Promise<HeldLock> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = tryLock(path, purpose);
    if ("release" in result) return result;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${path}, held by pid ${result.heldBy.pid} (${result.heldBy.purpose})`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
