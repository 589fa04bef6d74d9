/**
 * HTTP adapter of collaboration: `POST /api/pipelines/{id}/fork`, `POST /api/pipelines/{id}/share`,
 * `GET /api/pipelines/{id}/shares`, `DELETE /api/pipelines/{id}/share/{token}`, the public
 * `GET /api/share/{token}`, and `POST /api/pipelines/import`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { noteAudit } from "../../middleware/audit.js";
import { engineWorkResponses, failureResponse, jsonBody, jsonResponse, PipelineIdParam } from "../../openapi-shapes.js";
import type { PipelineStore, StorageQuota } from "../../store/pipelines/contract.js";
import type { ShareStore } from "../../store/shares/contract.js";
import { ForkBody, Forked, ImportBody, Imported, ShareBody, ShareLandingSchema, ShareLinkSchema, ShareParams, TokenParam } from "./schemas.js";
import { forkPipeline, importPipeline, revokeShare, shareLanding, shareLink, sharePipeline, sharesOf } from "./service.js";
import type { RemoteFetchOptions } from "./remote-fetch.js";

// An optional body is documented by reference, not as a Zod schema: a Zod schema would make the route parse
// the body before the handler, refusing an empty one sent as application/json. The handler reads it instead.
const optionalBody = (component: string) => ({ body: { required: false, content: { "application/json": { schema: { $ref: `#/components/schemas/${component}` } } } } });
const tags = ["collaboration"];

const routes = {
  fork: createRoute({
    method: "post",
    path: "/api/pipelines/{id}/fork",
    operationId: "forkPipeline",
    tags,
    summary: "Copy a pipeline you may read into a private pipeline you own",
    request: { params: PipelineIdParam, ...optionalBody("Fork") },
    responses: { 201: jsonResponse(Forked, "the copy"), 404: failureResponse("unknown or not readable") },
  }),
  share: createRoute({
    method: "post",
    path: "/api/pipelines/{id}/share",
    operationId: "sharePipeline",
    tags,
    summary: "Create a share link (anyone holding it can read and import the pipeline until it expires or is revoked)",
    request: { params: PipelineIdParam, ...optionalBody("ShareRequest") },
    responses: { 201: jsonResponse(ShareLinkSchema, "the link"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown or not readable") },
  }),
  shares: createRoute({
    method: "get",
    path: "/api/pipelines/{id}/shares",
    operationId: "listShares",
    tags,
    summary: "The share links of a pipeline, newest first, with their states",
    request: { params: PipelineIdParam },
    responses: { 200: jsonResponse(ShareLinkSchema.array(), "the links"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown or not readable") },
  }),
  revoke: createRoute({
    method: "delete",
    path: "/api/pipelines/{id}/share/{token}",
    operationId: "revokeShare",
    tags,
    summary: "Revoke a share link (at once; the landing document answers 410 afterwards)",
    request: { params: ShareParams },
    responses: { 200: jsonResponse(ShareLinkSchema, "the revoked link"), 403: failureResponse("someone else's pipeline"), 404: failureResponse("unknown pipeline or link") },
  }),
  landing: createRoute({
    method: "get",
    path: "/api/share/{token}",
    operationId: "getShare",
    tags,
    summary: "The public landing document of a share link (the token is the credential)",
    request: { params: TokenParam },
    responses: { 200: jsonResponse(ShareLandingSchema, "the shared pipeline"), 404: failureResponse("no such link"), 410: failureResponse("the link expired or was revoked (EXPIRED)") },
  }),
  import: createRoute({
    method: "post",
    path: "/api/pipelines/import",
    operationId: "importPipeline",
    tags,
    summary: "Import a pipeline from strand+https://<host>/share/<token>, oxo+https://<host>/share/<token> (an oxo-flow server's share) or toml+https://<location>",
    request: jsonBody(ImportBody),
    responses: {
      ...engineWorkResponses,
      201: jsonResponse(Imported, "the imported pipeline (private, yours) with its lint result"),
      400: failureResponse("INVALID_URL: another scheme, a private address, a redirect, an answer over 1 MiB; PARSE_ERROR: not a pipeline"),
      404: failureResponse("NOT_FOUND: no such share link (on this service or on the remote server)"),
      410: failureResponse("the share link expired or was revoked"),
      502: failureResponse("UPSTREAM_ERROR: the remote server did not answer in time"),
    },
  }),
};

export interface CollaborationOptions {
  /** `SERVICE_PUBLIC_URL`'s origin, when set: share links name its host. */
  publicUrl?: string;
  fetch: RemoteFetchOptions;
  /** The storage quota forks and imports must fit. */
  quota?: StorageQuota;
}

/** Reads an optional JSON body: none (or an empty one) is `{}`; text that is not JSON is 400 BAD_REQUEST. */
async function optionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError("BAD_REQUEST", "malformed JSON in request body", { suggestion: "send a JSON object, or no body at all" });
  }
}

/** The collaboration router. */
export function collaborationRoutes(store: PipelineStore & ShareStore, options: CollaborationOptions): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openAPIRegistry.register("Fork", ForkBody);
  router.openAPIRegistry.register("ShareRequest", ShareBody);
  const publicHost = (c: Context) => (options.publicUrl ? new URL(options.publicUrl).host : (c.req.header("host") ?? new URL(c.req.url).host));
  const ownHosts = (c: Context) => [publicHost(c), c.req.header("host") ?? "", new URL(c.req.url).host].filter(Boolean);
  const parseOptional = async <T>(c: Context, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown } }): Promise<T> => {
    const result = schema.safeParse(await optionalJson(c));
    if (!result.success) (bodyHook as unknown as (result: unknown) => void)(result);
    return (result as { data: T }).data;
  };

  router.openapi(routes.fork, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "pipeline.fork", `pipeline/${id}`);
    const { name } = await parseOptional(c, ForkBody);
    const fork = await forkPipeline(store, callerOf(c), id, name, options.quota);
    return c.json({ id: fork.id, name: fork.name, forked_from: id }, 201);
  });
  router.openapi(routes.share, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "pipeline.share", `pipeline/${id}`);
    const { expires_in_days } = await parseOptional(c, ShareBody);
    return c.json(shareLink(await sharePipeline(store, callerOf(c), id, expires_in_days), publicHost(c)), 201);
  });
  router.openapi(routes.shares, async (c) => {
    const host = publicHost(c);
    return c.json((await sharesOf(store, callerOf(c), c.req.valid("param").id)).map((share) => shareLink(share, host)), 200);
  });
  router.openapi(routes.revoke, async (c) => {
    const { id, token } = c.req.valid("param");
    noteAudit(c, "share.revoke", `pipeline/${id}`);
    return c.json(shareLink(await revokeShare(store, callerOf(c), id, token), publicHost(c)), 200);
  });
  router.openapi(routes.landing, async (c) => c.json(await shareLanding(store, c.req.valid("param").token), 200));
  router.openapi(
    routes.import,
    async (c) => {
      const { url, name } = c.req.valid("json");
      noteAudit(c, "pipeline.import"); // before the work, so a refused import is audited as one too
      const result = await importPipeline(store, callerOf(c), url, { ownHosts: ownHosts(c), fetch: options.fetch, quota: options.quota }, name);
      noteAudit(c, "pipeline.import", `pipeline/${result.pipeline.id}`);
      return c.json({ ...result.pipeline, validation: result.validation, source: result.source }, 201);
    },
    bodyHook,
  );
  return router;
}
