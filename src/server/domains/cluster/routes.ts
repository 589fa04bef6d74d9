/**
 * HTTP adapter of the cluster domain: `GET /api/hpc`, the local scheduler's partitions, nodes and jobs.
 * Served in hpc mode only; in personal and team modes it answers 404 NOT_FOUND like an unknown path. The
 * route is registered in every mode so that the OpenAPI document (and the typed client built from it) is
 * the same whatever mode it was exported in. Administrators see every job in the queue; everyone else the
 * jobs of their own runs, and how many others there are.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { failureResponse, jsonResponse } from "../../openapi-shapes.js";
import { HpcStatusSchema } from "./schemas.js";
import type { RunStore } from "../../store/runs/contract.js";
import { StoreError } from "../../store/store-error.js";
import { RunOwners, runIdsInQueue, statusFor, type SchedulerReader } from "./service.js";

const hpcRoute = createRoute({
  method: "get",
  path: "/api/hpc",
  operationId: "getHpcStatus",
  tags: ["cluster"],
  summary: "The local scheduler (SLURM): partitions, nodes and the job queue (hpc mode only)",
  description:
    "Read with sinfo and squeue on the service's host and shared between requests for 2 seconds. " +
    "When no scheduler is installed or its controller does not answer, the answer is still 200, with available false and a message saying why. " +
    "Partitions and nodes are shown to every signed-in account. Administrators see every job in the queue; everyone else sees the jobs of " +
    "their own runs (named strand-<run id>-<n>: scheduler jobs never carry sample names) and only a count of the others (other_jobs).",
  responses: {
    200: jsonResponse(HpcStatusSchema, "the scheduler's status (available false when it could not be read)"),
    404: failureResponse("the service does not run in hpc mode"),
  },
});

/** The cluster router; `scheduler` is consulted in hpc mode only, `store` for who owns the runs in the queue. */
export function clusterRoutes(options: { hpc: boolean; scheduler: SchedulerReader; store: Pick<RunStore, "getRun"> }): OpenAPIHono {
  const router = new OpenAPIHono();
  const owners = new RunOwners(async (runId) => {
    try {
      return (await options.store.getRun(runId)).owner;
    } catch (error) {
      if (error instanceof StoreError && error.code === "NOT_FOUND") return null;
      throw error;
    }
  });
  router.openapi(hpcRoute, async (c) => {
    if (!options.hpc) {
      throw new ServiceError("NOT_FOUND", "no such endpoint: GET /api/hpc", { suggestion: "scheduler status is served in hpc mode only (SERVICE_MODE=hpc)" });
    }
    const caller = callerOf(c);
    const snapshot = await options.scheduler.read();
    const own = caller.admin ? new Set<string>() : await owners.ownedBy(caller.id, runIdsInQueue(snapshot));
    return c.json(statusFor(snapshot, caller, own), 200);
  });
  return router;
}
