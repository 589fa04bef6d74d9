/**
 * A real one-node Grid Engine for the SGE tests: started on demand with the project's
 * `scripts/gridengine-local.sh` (which installs Debian's gridengine packages when they are missing; needs
 * root). Tests skip when no Grid Engine can exist here, except under STRICT_SERVICES=1, where that is a failure.
 */
import { join } from "node:path";
import { execa } from "execa";
import { describe, it } from "vitest";
import { STRICT_SERVICES } from "./slurm-cluster.js";
import { PROJECT_ROOT } from "./strand-cli.js";

/** The project's script that starts, stops and reports the local Grid Engine. */
export const GRIDENGINE_SCRIPT = join(PROJECT_ROOT, "scripts", "gridengine-local.sh");

let why = "";

/** Why the last ensureGridEngine() call returned false. */
export function gridEngineUnavailableReason(): string {
  return why;
}

/** Whether `qstat -f` lists a queue instance that takes jobs (no state letters: not u, a, E, d, …). */
async function queueUsable(): Promise<boolean> {
  const qstat = await execa("qstat", ["-f"], { reject: false, timeout: 15_000 });
  if (qstat.exitCode !== 0) return false;
  // queuename qtype resv/used/tot. load_avg arch [states]
  return String(qstat.stdout)
    .split("\n")
    .some((line) => {
      const columns = line.trim().split(/\s+/);
      return /@/.test(columns[0] ?? "") && columns.length === 5;
    });
}

/** Shares one start between the test files of a worker. */
let started: Promise<boolean> | undefined;

/**
 * Makes sure a Grid Engine with a queue that takes jobs answers here, starting the local one when `qsub` is
 * missing or no queue is usable. Returns false (with gridEngineUnavailableReason()) when that is impossible.
 */
export function ensureGridEngine(): Promise<boolean> {
  started ??= (async () => {
    const qsub = await execa("sh", ["-c", "command -v qsub && command -v qacct"], { reject: false });
    if (qsub.exitCode === 0 && (await queueUsable())) return true;
    if (process.getuid?.() !== 0) {
      why = "Grid Engine is not running here and starting it needs root (scripts/gridengine-local.sh start)";
      return false;
    }
    // First start installs packages: allow for a slow mirror.
    const start = await execa(GRIDENGINE_SCRIPT, ["start"], { reject: false, timeout: 600_000, all: true });
    if (start.exitCode !== 0) {
      why = `scripts/gridengine-local.sh start failed (exit ${start.exitCode}):\n${String(start.all ?? "").slice(-2000)}`;
      return false;
    }
    if (!(await queueUsable())) {
      why = "scripts/gridengine-local.sh start finished but qstat -f shows no queue that takes jobs";
      return false;
    }
    return true;
  })();
  return started;
}

/**
 * Registers a failing test that explains why Grid Engine is missing, under STRICT_SERVICES=1 only; call it
 * when ensureGridEngine() returned false, next to the describe.skipIf(!gridEngine) block.
 */
export function failWithoutGridEngineWhenStrict(available: boolean): void {
  if (available || !STRICT_SERVICES) return;
  describe("Grid Engine under STRICT_SERVICES=1", () => {
    it("needs a Grid Engine cluster", () => {
      throw new Error(`no Grid Engine under STRICT_SERVICES=1: ${gridEngineUnavailableReason()}`);
    });
  });
}
