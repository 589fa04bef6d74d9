/** The cluster domain as the app mounts it: the local scheduler's partitions, nodes and jobs (hpc mode). */
import type { DomainMount } from "../../domain-mount.js";
import type { RunStore } from "../../store/runs/contract.js";
import { clusterRoutes } from "./routes.js";
import { SchedulerReader, type SchedulerReaderOptions } from "./service.js";

export type { SchedulerReaderOptions } from "./service.js";

/** `GET /api/hpc`, answered in hpc mode only. */
export function clusterDomain(deps: { hpc: boolean; store: Pick<RunStore, "getRun">; scheduler?: SchedulerReaderOptions }): DomainMount {
  return { routers: [clusterRoutes({ hpc: deps.hpc, scheduler: new SchedulerReader(deps.scheduler), store: deps.store })] };
}
