/**
 * The run targets the service accepts, in one table that the run schema, the execution service and the
 * engine command all read: the target kinds, the program a scheduler kind submits with, and the container
 * runtimes with the kind of engine environment each one runs. Schedulers and runtimes come from the
 * engine's own tables, so a scheduler or runtime the engine learns becomes a target here.
 */
import { BACKEND_NAMES, isBackendName, SUBMIT_PROGRAMS, type BackendName } from "../../engine/run/cluster/scheduler-registry.js";
import { CONTAINER_PROGRAMS, SINGULARITY_PROGRAMS } from "../../engine/run/environments/environment-wrap.js";

/** The target kinds a run may name (`cloud_batch` is accepted by the schema and refused with a reason). */
export const TARGET_TYPES = ["local", ...BACKEND_NAMES, "container", "cloud_batch"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** The programs a container target may run its image with. */
export const CONTAINER_RUNTIMES = [...CONTAINER_PROGRAMS, ...SINGULARITY_PROGRAMS] as const;
export type ContainerRuntime = (typeof CONTAINER_RUNTIMES)[number];

/** Whether a target kind is an HPC scheduler (the engine's `--executor`). */
export function isSchedulerTarget(type: string): type is BackendName {
  return isBackendName(type);
}

/** The program a scheduler target submits with, which must be on the service's PATH; undefined for other kinds. */
export function submitProgramOf(type: string): string | undefined {
  return isSchedulerTarget(type) ? SUBMIT_PROGRAMS[type] : undefined;
}

/** Whether a value names a container runtime. */
export function isContainerRuntime(value: unknown): value is ContainerRuntime {
  return (CONTAINER_RUNTIMES as readonly unknown[]).includes(value);
}

/** The engine environment a container target's image becomes: `singularity` for apptainer and singularity, else `docker`. */
export function containerEnvironmentKind(runtime: unknown): "docker" | "singularity" {
  return (SINGULARITY_PROGRAMS as readonly unknown[]).includes(runtime) ? "singularity" : "docker";
}
