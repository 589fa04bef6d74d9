/**
 * HTTP adapter of the cluster registry: `GET /api/clusters` (the clusters the caller may use),
 * `POST /api/clusters` (administrators: create or change, by id) and `DELETE /api/clusters/{id}`
 * (administrators). Probes and runs on a cluster build on this registry.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import { noteAudit } from "../../middleware/audit.js";
import { failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import { ClusterIdParam, ClusterListSchema, ClusterProbeSchema, ClusterSchema, DeletedClusterSchema, SaveClusterBody } from "./schemas.js";
import type { ClusterRegistry } from "./service.js";

const listRoute = createRoute({
  method: "get",
  path: "/api/clusters",
  operationId: "listClusters",
  tags: ["clusters"],
  summary: "The remote clusters you may run on (every one for administrators), by name; never a key or its path",
  responses: { 200: jsonResponse(ClusterListSchema, "the clusters") },
});

const saveRoute = createRoute({
  method: "post",
  path: "/api/clusters",
  operationId: "saveCluster",
  tags: ["clusters"],
  summary: "Register a cluster, or change one by id (administrators); fields left out keep their values",
  request: jsonBody(SaveClusterBody),
  responses: {
    200: jsonResponse(ClusterSchema, "the cluster as saved"),
    400: failureResponse("a field is invalid (the message names it), a new cluster lacks ssh_host, ssh_user or remote_dir, or there is no seen key to confirm"),
    403: failureResponse("not an administrator"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/clusters/{id}",
  operationId: "deleteCluster",
  tags: ["clusters"],
  summary: "Remove a cluster from the registry (administrators)",
  request: { params: ClusterIdParam },
  responses: {
    200: jsonResponse(DeletedClusterSchema, "the id of the removed cluster"),
    403: failureResponse("not an administrator"),
    404: failureResponse("no cluster of that id"),
  },
});

const probeRoute = createRoute({
  method: "post",
  path: "/api/clusters/{id}/probe",
  operationId: "probeCluster",
  tags: ["clusters"],
  summary: "Connect to a cluster you may use and report its host name, scheduler, engine, free space and latency",
  description:
    "The host key is checked against the pinned fingerprint before anything is sent: an unpinned or changed key ends the connection " +
    "before authentication and is recorded for an administrator to confirm (ok false, with the key in the error). An unreachable host " +
    "or a refused key is also ok false, with the reason.",
  request: { params: ClusterIdParam },
  responses: {
    200: jsonResponse(ClusterProbeSchema, "what the probe found, or why it failed"),
    403: failureResponse("a viewer"),
    404: failureResponse("no cluster of that id that you may use"),
  },
});

/** The registry's router. */
export function remoteClusterRoutes(registry: ClusterRegistry): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(listRoute, async (c) => c.json(await registry.list(callerOf(c)), 200));
  router.openapi(saveRoute, async (c) => {
    const body = c.req.valid("json");
    noteAudit(c, "cluster.save", `cluster/${body.id}`);
    return c.json(await registry.save(callerOf(c), body), 200);
  });
  router.openapi(probeRoute, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "cluster.probe", `cluster/${id}`);
    return c.json(await registry.probe(callerOf(c), id), 200);
  });
  router.openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "cluster.delete", `cluster/${id}`);
    return c.json(await registry.remove(id), 200);
  });
  return router;
}
