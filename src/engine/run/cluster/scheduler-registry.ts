/**
 * The HPC schedulers strand submits to, one module each in `schedulers/`. Every scheduler name and program
 * the engine, the command line and the service use derives from this list, so a new scheduler is one module
 * plus one line here.
 */
import type { SchedulerBackend, SchedulerDefinition } from "./scheduler-backend.js";
import { LSF } from "./schedulers/lsf.js";
import { PBS } from "./schedulers/pbs.js";
import { SGE } from "./schedulers/sge.js";
import { SLURM } from "./schedulers/slurm.js";

/** The supported schedulers, in the order help texts list them. */
export const SCHEDULERS = [SLURM, PBS, SGE, LSF] as const;

/** A supported scheduler's name (`slurm`): a profile's `[cluster] backend`, `--executor`, `strand cluster -b`. */
export type BackendName = (typeof SCHEDULERS)[number]["name"];

/** The names of a tuple of schedulers, as a tuple (so `BACKEND_NAMES` keeps its order in its type). */
type NamesOf<List extends readonly SchedulerDefinition[]> = { readonly [Index in keyof List]: List[Index] extends SchedulerDefinition<infer Name> ? Name : never };

/** The names of the supported schedulers, in the order help texts list them. */
export const BACKEND_NAMES = SCHEDULERS.map((scheduler) => scheduler.name) as unknown as NamesOf<typeof SCHEDULERS>;

const BY_NAME = new Map<string, SchedulerDefinition<BackendName>>(SCHEDULERS.map((scheduler) => [scheduler.name, scheduler]));

/** Whether a text names a supported scheduler. */
export function isBackendName(text: string | undefined): text is BackendName {
  return text !== undefined && BY_NAME.has(text);
}

/** Everything strand knows about a scheduler. */
export function schedulerNamed(name: BackendName): SchedulerDefinition<BackendName> {
  return BY_NAME.get(name)!;
}

/** The program each scheduler submits job scripts with: what must be on PATH to use it. */
export const SUBMIT_PROGRAMS = Object.fromEntries(SCHEDULERS.map((scheduler) => [scheduler.name, scheduler.submitProgram])) as Readonly<Record<BackendName, string>>;

/** Every scheduler's programs that talk to its controller, each once: a shared service's jobs never get them. */
export const CONTROLLER_PROGRAMS: readonly string[] = [...new Set(SCHEDULERS.flatMap((scheduler) => scheduler.controllerPrograms))];

/** A new backend object (SLURM's remembers whether accounting is available, so make one per executor). */
export function createBackend(name: BackendName): SchedulerBackend {
  return schedulerNamed(name).createBackend();
}
