/**
 * HTTP adapter of saved pipelines: `GET/POST /api/pipelines`, `GET/PUT/DELETE /api/pipelines/{id}`,
 * revisions and rollback, and `POST /api/pipelines/search`. Pipelines the caller may not read answer 404,
 * as unknown ids do (existence is not revealed).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { noteAudit } from "../../middleware/audit.js";
import { Deleted, engineWorkResponses, failureResponse, jsonBody, jsonResponse, PipelineIdParam, PipelineSummary, SavedPipeline, SavedPipelineWithValidation } from "../../openapi-shapes.js";
import type { PipelineStore, StorageQuota } from "../../store/pipelines/contract.js";
import type { TemplateStore } from "../../store/templates/contract.js";
import { TOOLING_NAMES } from "../workflow/service.js";
import * as schemas from "./schemas.js";
import { searchPipelines } from "./search.js";
import { createSaved, DEFAULT_QUOTA, findRevision, pruneRevisions, readable, rollbackSaved, updateSaved, writable } from "./service.js";

const tags = ["pipelines"];

/** The tooling endpoints share the `/api/pipelines/<name>` shape; other methods on them are 405, not "no pipeline parse". */
const TOOLING = new Set<string>([...TOOLING_NAMES, "search", "import"]);

function pipelineId(id: string): string {
  if (TOOLING.has(id)) throw new ServiceError("METHOD_NOT_ALLOWED", `/api/pipelines/${id} answers POST only`, { headers: { Allow: "POST" } });
  return id;
}

const routes = {
  list: createRoute({
    method: "get",
    path: "/api/pipelines",
    operationId: "listPipelines",
    tags,
    summary: "Saved pipelines the caller may read, newest update first (at most 100; without their text)",
    request: { query: schemas.ListQuery },
    responses: { 200: jsonResponse(PipelineSummary.array(), "a bare array of pipelines") },
  }),
  create: createRoute({
    method: "post",
    path: "/api/pipelines",
    operationId: "createPipeline",
    tags,
    summary: "Save a pipeline (a draft with lint errors may be saved; its findings come back)",
    request: jsonBody(schemas.CreatePipelineBody),
    responses: { ...engineWorkResponses, 201: jsonResponse(SavedPipelineWithValidation, "the saved pipeline and its lint result"), 400: failureResponse("missing toml_content (MISSING_FIELD), or text that does not parse or has no [workflow].name (PARSE_ERROR)") },
  }),
  read: createRoute({
    method: "get",
    path: "/api/pipelines/{id}",
    operationId: "getPipeline",
    tags,
    summary: "One saved pipeline (a translation's draft id is not a saved id: 404)",
    request: { params: PipelineIdParam },
    responses: { 200: jsonResponse(SavedPipeline, "the pipeline"), 404: failureResponse("unknown, not readable, or a draft id") },
  }),
  update: createRoute({
    method: "put",
    path: "/api/pipelines/{id}",
    operationId: "updatePipeline",
    tags,
    summary: "Change a pipeline; the previous content stays as a revision",
    request: { params: PipelineIdParam, ...jsonBody(schemas.UpdatePipelineBody) },
    responses: { ...engineWorkResponses,
      200: jsonResponse(SavedPipelineWithValidation, "the pipeline and its lint result"),
      400: failureResponse("nothing to change, or text that does not parse"),
      403: failureResponse("someone else's pipeline"),
      404: failureResponse("unknown or not readable"),
      409: failureResponse("the pipeline changed since the revision sent"),
    },
  }),
  remove: createRoute({
    method: "delete",
    path: "/api/pipelines/{id}",
    operationId: "deletePipeline",
    tags,
    summary: "Delete a pipeline with its revisions and share links (its runs stay)",
    request: { params: PipelineIdParam },
    responses: { 200: jsonResponse(Deleted, "what was deleted"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown or not readable") },
  }),
  revisions: createRoute({
    method: "get",
    path: "/api/pipelines/{id}/revisions",
    operationId: "listRevisions",
    tags,
    summary: "Every revision of a pipeline, newest first (the first is the current content)",
    request: { params: PipelineIdParam },
    responses: { 200: jsonResponse(schemas.RevisionSummary.array(), "the revisions"), 404: failureResponse("unknown or not readable") },
  }),
  prune: createRoute({
    method: "delete",
    path: "/api/pipelines/{id}/revisions",
    operationId: "pruneRevisions",
    tags,
    summary: "Delete all but the newest `keep` revisions (frees storage quota; the current content stays)",
    request: { params: PipelineIdParam, query: schemas.PruneQuery },
    responses: { 200: jsonResponse(schemas.Pruned, "what was deleted"), 400: failureResponse("keep missing or not a whole number of at least 1"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown or not readable") },
  }),
  revision: createRoute({
    method: "get",
    path: "/api/pipelines/{id}/revisions/{rev}",
    operationId: "getRevision",
    tags,
    summary: "One revision with its content, by number or id",
    request: { params: schemas.RevisionParams },
    responses: { 200: jsonResponse(schemas.Revision, "the revision"), 404: failureResponse("unknown pipeline or revision") },
  }),
  rollback: createRoute({
    method: "post",
    path: "/api/pipelines/{id}/rollback",
    operationId: "rollbackPipeline",
    tags,
    summary: "Restore an earlier revision's content and name, as a new revision",
    request: { params: PipelineIdParam, ...jsonBody(schemas.RollbackBody) },
    responses: { ...engineWorkResponses, 200: jsonResponse(SavedPipelineWithValidation, "the pipeline as restored"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown pipeline or revision") },
  }),
  search: createRoute({
    method: "post",
    path: "/api/pipelines/search",
    operationId: "searchPipelines",
    tags,
    summary: "Search saved pipelines (that the caller may read) and templates by name, tags and content, ranked",
    request: jsonBody(schemas.SearchBody),
    responses: { ...engineWorkResponses, 200: jsonResponse(schemas.SearchResult, "ranked hits"), 400: failureResponse("an empty query (SEARCH_ERROR)") },
  }),
};

/** The saved-pipelines router; `quota` bounds the revision text kept per pipeline and per owner. */
export function savedPipelineRoutes(store: PipelineStore & TemplateStore, options: { quota?: StorageQuota } = {}): OpenAPIHono {
  const quota = options.quota ?? DEFAULT_QUOTA;
  const serialized = new WeakMap<object, string>();
  const router = new OpenAPIHono();
  router.openapi(routes.list, async (c) => {
    const caller = callerOf(c);
    const pipelines = await store.listPipelines({ limit: c.req.valid("query").limit ?? 100, visibleTo: caller.admin ? undefined : caller.id });
    // The store hands out the same rows until a pipeline changes: their JSON is made once too.
    let json = serialized.get(pipelines);
    if (json === undefined) {
      json = JSON.stringify(pipelines);
      serialized.set(pipelines, json);
    }
    return c.body(json, 200, { "Content-Type": "application/json" }) as never;
  });
  router.openapi(
    routes.create,
    async (c) => {
      const { pipeline, validation } = await createSaved(store, callerOf(c), c.req.valid("json"), quota);
      noteAudit(c, "pipeline.create", `pipeline/${pipeline.id}`);
      return c.json({ ...pipeline, validation }, 201);
    },
    bodyHook,
  );
  router.openapi(routes.read, async (c) => c.json(await readable(store, callerOf(c), pipelineId(c.req.valid("param").id)), 200));
  router.openapi(
    routes.update,
    async (c) => {
      const id = pipelineId(c.req.valid("param").id);
      noteAudit(c, "pipeline.update", `pipeline/${id}`);
      const { pipeline, validation } = await updateSaved(store, callerOf(c), id, c.req.valid("json"), quota);
      return c.json({ ...pipeline, validation }, 200);
    },
    bodyHook,
  );
  router.openapi(routes.remove, async (c) => {
    const id = pipelineId(c.req.valid("param").id);
    noteAudit(c, "pipeline.delete", `pipeline/${id}`);
    await writable(store, callerOf(c), id);
    await store.deletePipeline(id);
    return c.json({ deleted: id }, 200);
  });
  router.openapi(routes.revisions, async (c) => {
    const pipeline = await readable(store, callerOf(c), c.req.valid("param").id);
    const revisions = await store.listRevisions(pipeline.id);
    return c.json(revisions.map(({ toml_content: _content, ...rest }) => ({ ...rest, current: rest.revision === pipeline.revision })), 200);
  });
  router.openapi(routes.prune, async (c) => {
    const id = pipelineId(c.req.valid("param").id);
    noteAudit(c, "pipeline.prune", `pipeline/${id}`);
    return c.json(await pruneRevisions(store, callerOf(c), id, c.req.valid("query").keep), 200);
  });
  router.openapi(routes.revision, async (c) => {
    const { id, rev } = c.req.valid("param");
    const pipeline = await readable(store, callerOf(c), id);
    const revision = await findRevision(store, pipeline.id, rev);
    return c.json({ ...revision, current: revision.revision === pipeline.revision }, 200);
  });
  router.openapi(
    routes.rollback,
    async (c) => {
      const { id } = c.req.valid("param");
      noteAudit(c, "pipeline.rollback", `pipeline/${id}`);
      const { pipeline, validation } = await rollbackSaved(store, callerOf(c), id, c.req.valid("json").revision_id, quota);
      return c.json({ ...pipeline, validation }, 200);
    },
    bodyHook,
  );
  router.openapi(
    routes.search,
    async (c) => {
      const { query, limit } = c.req.valid("json");
      return c.json(await searchPipelines(store, callerOf(c), query, limit), 200);
    },
    bodyHook,
  );
  return router;
}
