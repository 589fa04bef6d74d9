/**
 * HTTP adapter of graph editing: `POST /api/pipeline/{id}/command`, `/undo` and `/redo` (singular
 * `pipeline`, as the specification names them).
 */
import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { engineWorkResponses, failureResponse, jsonBody, jsonResponse, PipelineIdParam } from "../../openapi-shapes.js";
import type { PipelineStore } from "../../store/pipelines/contract.js";
import * as schemas from "./schemas.js";
import { GraphEditing } from "./service.js";
import type { HistoryLimits } from "./undo-history.js";

const tags = ["pipeline graph editing"];

const idParam = { params: PipelineIdParam };
const access = {
  403: failureResponse("a viewer, or a saved pipeline the caller may read but not change (ACCESS_DENIED)"),
};

const routes = {
  command: createRoute({
    method: "post",
    path: "/api/pipeline/{id}/command",
    operationId: "editPipelineGraph",
    tags,
    summary: "Apply one graph edit to a pipeline's text (add, remove, connect, disconnect, update or rename rules; patch the workflow)",
    description:
      "The edit changes only the bytes of what it touches: comments and layout of the rest stay as written, [[rules]] tables stay tables and an inline rules array stays inline. " +
      "The answer is the edited text with its validation errors (success is false when it does not validate); nothing is saved. " +
      "The id names a saved pipeline (the caller must be allowed to change it) or is any key of an unsaved editor; undo and redo history is kept per id and caller.",
    request: { ...idParam, ...jsonBody(schemas.CommandBody) },
    responses: {
      ...engineWorkResponses,
      200: jsonResponse(schemas.CommandResult, "the edited text and its validation"),
      400: failureResponse("DAG_EDIT_ERROR: an unknown operation, a missing payload field, an unknown rule, a name already taken, or text that does not parse"),
      ...access,
      404: failureResponse("another user's private pipeline (NOT_FOUND)"),
    },
  }),
  undo: createRoute({
    method: "post",
    path: "/api/pipeline/{id}/undo",
    operationId: "undoPipelineEdit",
    tags,
    summary: "Take back the caller's latest graph edit of this id: the text before it",
    request: { ...idParam, ...jsonBody(schemas.HistoryBody) },
    responses: {
      200: jsonResponse(schemas.HistoryResult, "the text before the latest edit"),
      ...access,
      404: failureResponse("NO_UNDO: nothing to undo; or NOT_FOUND: another user's private pipeline"),
      409: failureResponse("CONFLICT: the text sent is not what the latest edit produced (it changed since)"),
    },
  }),
  redo: createRoute({
    method: "post",
    path: "/api/pipeline/{id}/redo",
    operationId: "redoPipelineEdit",
    tags,
    summary: "Apply again the caller's latest undone graph edit of this id",
    request: { ...idParam, ...jsonBody(schemas.HistoryBody) },
    responses: {
      200: jsonResponse(schemas.HistoryResult, "the text after the latest undone edit"),
      ...access,
      404: failureResponse("NO_REDO: nothing to redo (a new edit clears it); or NOT_FOUND: another user's private pipeline"),
      409: failureResponse("CONFLICT: the text sent is not what the latest undo produced"),
    },
  }),
};

/** The graph editing router; `limits` bound the in-memory undo histories. */
export function graphEditRoutes(store: PipelineStore, limits?: HistoryLimits): OpenAPIHono {
  const editing = new GraphEditing(store, limits);
  const router = new OpenAPIHono();
  router.openapi(routes.command, async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.CommandBody>;
    return c.json(await editing.command(callerOf(c), c.req.param("id"), body), 200);
  }, bodyHook);
  router.openapi(routes.undo, async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.HistoryBody>;
    return c.json(await editing.undo(callerOf(c), c.req.param("id"), body.toml_content), 200);
  }, bodyHook);
  router.openapi(routes.redo, async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.HistoryBody>;
    return c.json(await editing.redo(callerOf(c), c.req.param("id"), body.toml_content), 200);
  }, bodyHook);
  return router;
}
