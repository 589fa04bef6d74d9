/**
 * The run-target table is the engine's own backend and runtime tables seen from the service: every
 * scheduler the engine can submit to is a target kind, with the program the engine submits with, and every
 * container program the engine can run an environment with is a runtime.
 */
import { describe, expect, it } from "vitest";
import { BACKEND_NAMES, createBackend } from "../../../src/engine/run/cluster/scheduler-registry.js";
import { CONTAINER_PROGRAMS, SINGULARITY_PROGRAMS } from "../../../src/engine/run/environments/environment-wrap.js";
import { containerEnvironmentKind, CONTAINER_RUNTIMES, isContainerRuntime, isSchedulerTarget, submitProgramOf, TARGET_TYPES } from "../../../src/server/runner/run-targets.js";

describe("run targets", () => {
  it("are every engine scheduler, submitted with the program the engine's backend runs, plus local, container and cloud_batch", () => {
    expect(TARGET_TYPES).toEqual(["local", ...BACKEND_NAMES, "container", "cloud_batch"]);
    for (const name of BACKEND_NAMES) {
      expect(isSchedulerTarget(name)).toBe(true);
      expect(submitProgramOf(name)).toBe(createBackend(name).submitProgram);
      expect(createBackend(name).submitCommand("job.sh", "/tmp").file).toBe(submitProgramOf(name));
    }
    for (const other of ["local", "container", "cloud_batch", "kubernetes"]) {
      expect(isSchedulerTarget(other)).toBe(false);
      expect(submitProgramOf(other)).toBeUndefined();
    }
  });

  it("run container images with the engine's docker and singularity programs", () => {
    expect([...CONTAINER_RUNTIMES].sort()).toEqual([...CONTAINER_PROGRAMS, ...SINGULARITY_PROGRAMS].sort());
    for (const runtime of CONTAINER_PROGRAMS) expect(containerEnvironmentKind(runtime)).toBe("docker");
    for (const runtime of SINGULARITY_PROGRAMS) expect(containerEnvironmentKind(runtime)).toBe("singularity");
    expect(containerEnvironmentKind(undefined)).toBe("docker");
    expect(isContainerRuntime("podman")).toBe(true);
    expect(isContainerRuntime("rkt")).toBe(false);
  });
});
