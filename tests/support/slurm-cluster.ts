/**
 * A real one-node SLURM cluster for the cluster tests: started on demand with the project's
 * `scripts/slurm-local.sh` (which installs the Debian packages when they are missing; needs root).
 * Tests skip when no cluster can exist here, except under STRICT_SERVICES=1, where that is a failure.
 */
import { join } from "node:path";
import { execa } from "execa";
import { describe, it } from "vitest";
import { PROJECT_ROOT } from "./strand-cli.js";

/** The project's script that starts, stops and reports the local cluster. */
export const SLURM_SCRIPT = join(PROJECT_ROOT, "scripts", "slurm-local.sh");

/** Whether missing services must fail the tests instead of skipping them. */
export const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";

let why = "";

/** Why the last ensureSlurm() call returned false. */
export function slurmUnavailableReason(): string {
  return why;
}

async function nodeUsable(): Promise<boolean> {
  const sinfo = await execa("sinfo", ["-h", "-o", "%T"], { reject: false, timeout: 15_000 });
  if (sinfo.exitCode !== 0) return false;
  return String(sinfo.stdout)
    .split("\n")
    .some((state) => /^(idle|mixed|allocated|completing)\*?$/.test(state.trim()));
}

/** Shares one start between the test files of a worker. */
let started: Promise<boolean> | undefined;

/**
 * Makes sure a SLURM cluster with an idle node answers here, starting the local one when `sbatch` is missing
 * or no node is usable. Returns false (with slurmUnavailableReason()) when that is impossible.
 */
export function ensureSlurm(): Promise<boolean> {
  started ??= (async () => {
    const sbatch = await execa("sh", ["-c", "command -v sbatch"], { reject: false });
    if (sbatch.exitCode === 0 && (await nodeUsable())) return true;
    if (process.getuid?.() !== 0) {
      why = "SLURM is not running here and starting it needs root (scripts/slurm-local.sh start)";
      return false;
    }
    // First start installs packages: allow for a slow mirror.
    const start = await execa(SLURM_SCRIPT, ["start"], { reject: false, timeout: 600_000, all: true });
    if (start.exitCode !== 0) {
      why = `scripts/slurm-local.sh start failed (exit ${start.exitCode}):\n${String(start.all ?? "").slice(-2000)}`;
      return false;
    }
    if (!(await nodeUsable())) {
      why = "scripts/slurm-local.sh start finished but sinfo shows no usable node";
      return false;
    }
    return true;
  })();
  return started;
}

/**
 * Registers a failing test that explains why SLURM is missing, under STRICT_SERVICES=1 only; call it when
 * ensureSlurm() returned false, next to the describe.skipIf(!slurm) block.
 */
export function failWithoutSlurmWhenStrict(available: boolean): void {
  if (available || !STRICT_SERVICES) return;
  describe("SLURM under STRICT_SERVICES=1", () => {
    it("needs a SLURM cluster", () => {
      throw new Error(`no SLURM cluster under STRICT_SERVICES=1: ${slurmUnavailableReason()}`);
    });
  });
}
