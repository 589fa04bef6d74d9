/**
 * The kinds of executor a run can use (`strand run --executor`, a profile's `[cluster] backend`), each with
 * the factory that makes it: `local` (this machine's process groups) and one per HPC scheduler of the
 * scheduler registry. A new place to run jobs (a container service, a cloud batch queue) is one module that
 * implements JobExecutor plus one line in EXECUTORS; every list of executor kinds derives from it.
 * Factories load their executor's module when called, so a local run loads no cluster code.
 */
import type { Cluster } from "../format/model.js";
import { BACKEND_NAMES, type BackendName } from "./cluster/scheduler-registry.js";
import type { JobExecutor } from "./executor.js";

/** What an executor is made with. */
export interface ExecutorContext {
  /** The workflow's working folder. */
  workdir: string;
  /** The run folder (job scripts, the local executor's CPU times). */
  runDir: string;
  /** The run's id, given or made up (`STRAND_RUN_ID` of local jobs). */
  runId: string;
  /** The run id when it was given (`--run-id`): scheduler jobs are then named by it, never by their instance names. */
  givenRunId?: string;
  /** The profile's `[cluster]` table (an empty one without a profile). */
  cluster: Cluster;
  /** `--max-submitted`: scheduler jobs in flight at once, over the profile's `max_submitted`. */
  maxSubmitted?: number;
  /** `--poll-interval` in milliseconds. */
  pollIntervalMs?: number;
  /** Engine-wide diagnostics (warnings in the event log). */
  log: (message: string) => void;
}

/** How one kind of executor is made, and what the run needs to know about it beforehand. */
export interface ExecutorFactory {
  /** Whether jobs run on this machine, so the run's thread and memory budgets apply (elsewhere the place they run decides). */
  readonly usesThisMachine: boolean;
  create(context: ExecutorContext): Promise<JobExecutor>;
}

const localExecutor: ExecutorFactory = {
  usesThisMachine: true,
  async create(context) {
    const { LocalExecutor } = await import("./local-executor.js");
    return new LocalExecutor({ env: { STRAND_RUN_ID: context.runId }, timesDir: context.runDir });
  },
};

/** The factory of the cluster executor for one scheduler. */
function schedulerExecutor(backend: BackendName): ExecutorFactory {
  return {
    usesThisMachine: false,
    async create(context) {
      const { ClusterExecutor } = await import("./cluster/cluster-executor.js");
      return new ClusterExecutor({
        backend,
        cluster: { ...context.cluster, max_submitted: context.maxSubmitted ?? context.cluster.max_submitted },
        workdir: context.workdir,
        runDir: context.runDir,
        runId: context.givenRunId,
        pollIntervalMs: context.pollIntervalMs,
        log: context.log,
      });
    },
  };
}

/** Every executor kind with its factory, in the order help texts list them (`local` first, the default). */
export const EXECUTORS = {
  local: localExecutor,
  ...(Object.fromEntries(BACKEND_NAMES.map((name) => [name, schedulerExecutor(name)])) as Record<BackendName, ExecutorFactory>),
};

/** An executor kind's name (`local`, `slurm`, …). */
export type ExecutorKind = keyof typeof EXECUTORS;

/** The executor kinds, in the order help texts list them. */
export const EXECUTOR_KINDS = Object.keys(EXECUTORS) as ExecutorKind[];

/** Whether a text names an executor kind. */
export function isExecutorKind(text: string | undefined): text is ExecutorKind {
  return text !== undefined && Object.hasOwn(EXECUTORS, text);
}
