/** The execution domain as the app mounts it: runs, their control and their views, and the run supervisor. */
import type { DomainMount } from "../../domain-mount.js";
import type { EventBus } from "../../events/event-bus.js";
import type { PathPrivacy } from "../../path-privacy.js";
import { RunSupervisor, type SupervisorOptions } from "../../runner/supervisor.js";
import type { PipelineStore } from "../../store/pipelines/contract.js";
import type { RunStore } from "../../store/runs/contract.js";
import { executionRoutes } from "./routes.js";
import type { ExecutionContext } from "./service.js";
import { NO_USER_LIMITS, UserRunLimits, type UserLimits } from "./user-limits.js";

/** What the execution domain needs. */
export interface ExecutionDependencies {
  store: RunStore & PipelineStore;
  events: EventBus;
  /** Run workspaces are made under `<dataDir>/users/<owner>/`. */
  dataDir: string;
  privacy: PathPrivacy;
  /** How runs are supervised (the sandbox, quotas, webhooks; tests shorten intervals). */
  runner?: Partial<Omit<SupervisorOptions, "store" | "events" | "log">>;
  userLimits?: UserLimits;
  /** The remote clusters runs may go to (the registry's checks; the runner's access to them is in `runner.remote`). */
  clusters?: ExecutionContext["clusters"];
  log(line: string): void;
}

/** Runs over `store`, supervised; `recovered` settles once runs a previous process left are taken care of. */
export function executionDomain(deps: ExecutionDependencies): DomainMount & { supervisor: RunSupervisor; context: ExecutionContext; recovered: Promise<void> } {
  const supervisor = new RunSupervisor({ ...deps.runner, store: deps.store, events: deps.events, log: deps.log });
  const limits = new UserRunLimits(deps.store, deps.userLimits ?? NO_USER_LIMITS, supervisor.quota);
  const context: ExecutionContext = { store: deps.store, events: deps.events, supervisor, dataDir: deps.dataDir, limits, privacy: deps.privacy, clusters: deps.clusters };
  const recovered = supervisor.recover().then(
    (summary) => {
      if (summary.started + summary.attached + summary.finished > 0) deps.log(`runs after restart: ${summary.attached} re-attached, ${summary.finished} finished from their event logs, ${summary.started} started`);
    },
    (error: unknown) => deps.log(`run recovery failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  return { routers: [executionRoutes(context)], supervisor, context, recovered };
}
