/**
 * HTTP adapter of templates: `GET /api/templates` (the whole list), `POST /api/templates`,
 * `GET /api/templates/{id}` and `DELETE /api/templates/{id}`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { noteAudit } from "../../middleware/audit.js";
import { Deleted, engineWorkResponses, failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import type { TemplateStore } from "../../store/templates/contract.js";
import { NewTemplateBody, TemplateIdParam, TemplateList, TemplateSchema, TemplateWithValidation } from "./schemas.js";
import { addTemplate, allTemplates, oneTemplate, removeTemplate } from "./service.js";

const listRoute = createRoute({
  method: "get",
  path: "/api/templates",
  operationId: "listTemplates",
  tags: ["templates"],
  summary: "Every template: the built-in ones, then those users added",
  responses: { 200: jsonResponse(TemplateList, "all templates, whole") },
});

const createRouteDef = createRoute({
  method: "post",
  path: "/api/templates",
  operationId: "createTemplate",
  tags: ["templates"],
  summary: "Add a template (it must parse as a pipeline; its lint result comes back)",
  request: jsonBody(NewTemplateBody),
  responses: {
    ...engineWorkResponses,
    201: jsonResponse(TemplateWithValidation, "the new template with its lint result"),
    400: failureResponse("a missing field, or TOML that does not parse (PARSE_ERROR)"),
    409: failureResponse("a template with that name exists"),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/api/templates/{id}",
  operationId: "getTemplate",
  tags: ["templates"],
  summary: "One template, by id, built-in slug or exact name",
  request: { params: TemplateIdParam },
  responses: { 200: jsonResponse(TemplateSchema, "the template"), 404: failureResponse("no such template") },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/templates/{id}",
  operationId: "deleteTemplate",
  tags: ["templates"],
  summary: "Delete a template you added (administrators: any user template; built-in ones cannot be deleted)",
  request: { params: TemplateIdParam },
  responses: { 200: jsonResponse(Deleted, "what was deleted"), 403: failureResponse("a built-in template, or another user's (only its owner or an administrator deletes one)"), 404: failureResponse("no such template") },
});

/** The templates router. */
export function templateRoutes(store: TemplateStore): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(listRoute, async (c) => c.json(await allTemplates(store), 200));
  router.openapi(
    createRouteDef,
    async (c) => {
      const { template, validation } = await addTemplate(store, c.req.valid("json"), callerOf(c).id);
      noteAudit(c, "template.create", `template/${template.id}`);
      return c.json({ ...template, validation }, 201);
    },
    bodyHook,
  );
  router.openapi(getRoute, async (c) => c.json(await oneTemplate(store, c.req.valid("param").id), 200));
  router.openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "template.delete", `template/${id}`);
    return c.json({ deleted: await removeTemplate(store, callerOf(c), id) }, 200);
  });
  return router;
}
