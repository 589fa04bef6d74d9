/**
 * HTTP adapter of the cluster domain: `GET /api/hpc`, the local scheduler's partitions, nodes and jobs.
 * Served in hpc mode only; in personal and team modes it answers 404 NOT_FOUND like an unknown path. The
 * route is registered in every mode so that the OpenAPI document (and the typed client built from it) is
 * the same whatever mode it was exported in.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { failureResponse, jsonResponse } from "../../openapi-shapes.js";
import { HpcStatusSchema } from "./schemas.js";
import { statusFor, type SchedulerReader } from "./service.js";

const hpcRoute = createRoute({
  method: "get",
  path: "/api/hpc",
  operationId: "getHpcStatus",
  tags: ["cluster"],
  summary: "The local scheduler (SLURM): partitions, nodes and the job queue (hpc mode only)",
  description:
    "Read with sinfo, squeue and scontrol on the service's host and shared between requests for 2 seconds. " +
    "When no scheduler is installed or its controller does not answer, the answer is still 200, with available false and a message saying why. " +
    "Every signed-in user sees the whole queue, as squeue shows it on a login node, unless the cluster sets PrivateData=jobs: then non-administrators see only jobs of their own user name.",
  responses: {
    200: jsonResponse(HpcStatusSchema, "the scheduler's status (available false when it could not be read)"),
    404: failureResponse("the service does not run in hpc mode"),
  },
});

/** The cluster router; `scheduler` is consulted in hpc mode only. */
export function clusterRoutes(options: { hpc: boolean; scheduler: SchedulerReader }): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(hpcRoute, async (c) => {
    if (!options.hpc) {
      throw new ServiceError(404, "NOT_FOUND", "no such endpoint: GET /api/hpc", { suggestion: "scheduler status is served in hpc mode only (SERVICE_MODE=hpc)" });
    }
    return c.json(statusFor(await options.scheduler.read(), callerOf(c)), 200);
  });
  return router;
}
