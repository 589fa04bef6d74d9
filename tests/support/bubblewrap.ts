/**
 * Whether the job sandbox can run here: bubblewrap installed and able to make its namespaces (tried once).
 * Sandbox tests skip without it, except under STRICT_SERVICES=1, where that is a failure.
 */
import { spawnSync } from "node:child_process";
import { describe, it } from "vitest";
import { STRICT_SERVICES } from "./postgres-server.js";

const trial = spawnSync("bwrap", ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "true"], { encoding: "utf8", timeout: 10_000 });

/** True when `bwrap` runs a trial sandbox here. */
export const BWRAP_WORKS = trial.status === 0;

/** Why the trial failed (for the failure under STRICT_SERVICES=1). */
const why = trial.error ? `bwrap is not installed (${trial.error.message})` : `bwrap failed: ${String(trial.stderr).trim()}`;

/** Registers a failing test saying bubblewrap is missing or broken, under STRICT_SERVICES=1 only. */
export function failWithoutBwrapWhenStrict(): void {
  if (BWRAP_WORKS || !STRICT_SERVICES) return;
  describe("bubblewrap under STRICT_SERVICES=1", () => {
    it("needs a working bwrap", () => {
      throw new Error(`no job sandbox under STRICT_SERVICES=1: ${why}; install Debian's bubblewrap package (.ci/run does)`);
    });
  });
}
