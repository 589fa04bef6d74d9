/**
 * The workdir's run lock (`.strand/lock`) seen from outside a run: who holds it, and clearing it once its
 * owner is gone (`strand unlock`). A lock whose owner was on another machine cannot be checked from here,
 * so it is cleared only when asked with force; a live owner on this machine is never cleared.
 */
import { rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { EngineError } from "../findings.js";
import { lockHolderAlive, lockOwner, type LockOwner } from "./file-lock.js";

/** The run lock's path in a workdir. */
export function runLockPath(workdir: string): string {
  return join(workdir, ".strand", "lock");
}

/** What `unlockRun` did. */
export interface UnlockResult {
  path: string;
  /** The owner the lock named (null when there was no lock, or it was unreadable). */
  owner: LockOwner | null;
  removed: boolean;
  /** Why it was (or was not) removed, in words. */
  reason: string;
}

/** Clears the run lock when its owner is gone; throws LOCKED when the owner is alive, or on another host without force. */
export function unlockRun(workdir: string, options: { force?: boolean } = {}): UnlockResult {
  const path = runLockPath(workdir);
  const owner = lockOwner(path) ?? null;
  if (owner === null) {
    let existed = true;
    try {
      rmSync(path);
    } catch {
      existed = false;
    }
    return { path, owner, removed: existed, reason: existed ? "the lock file was unreadable" : "there was no lock" };
  }
  const here = hostname();
  if (owner.host === here) {
    if (lockHolderAlive(owner)) {
      throw new EngineError("LOCKED", `the lock is held by a running process: pid ${owner.pid} on this host (${owner.purpose}, since ${owner.started_at})`, {
        suggestion: `stop that run first (kill ${owner.pid}, or Ctrl-C in its terminal); strand unlock never clears a lock whose owner is alive`,
      });
    }
  } else if (!options.force) {
    throw new EngineError("LOCKED", `the lock was taken on another host: pid ${owner.pid} on ${owner.host} (${owner.purpose}, since ${owner.started_at}); it cannot be checked from ${here}`, {
      suggestion: `check that pid ${owner.pid} no longer runs on ${owner.host}, then: strand unlock --force`,
    });
  }
  rmSync(path, { force: true });
  return { path, owner, removed: true, reason: owner.host === here ? `pid ${owner.pid} is no longer running` : `cleared with --force (owner on ${owner.host} not checked)` };
}
