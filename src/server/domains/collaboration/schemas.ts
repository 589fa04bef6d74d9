/**
 * Request and response types of forks, share links and imports (they generate this part of the OpenAPI
 * document).
 */
import { z } from "@hono/zod-openapi";
import { SavedPipelineWithValidation } from "../../openapi-shapes.js";
import { SHARE_DAYS } from "./service.js";

export const ForkBody = z.object({ name: z.string().trim().min(1).max(200).optional().openapi({ description: 'default: "<name> (fork)"' }) }).openapi("Fork");

export const Forked = z.object({ id: z.string(), name: z.string(), forked_from: z.string() }).openapi("Forked");

export const ShareBody = z
  .object({ expires_in_days: z.number().int().min(1).max(SHARE_DAYS.max).optional().openapi({ description: `lifetime of the link (default ${SHARE_DAYS.default} days)` }) })
  .openapi("ShareRequest");

export const ShareLinkSchema = z
  .object({
    share_url: z.string().openapi({ description: "strand+https://<public host>/share/<token>; POST /api/pipelines/import takes it" }),
    token: z.string(),
    pipeline_id: z.string(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    state: z.enum(["active", "expired", "revoked"]),
  })
  .openapi("ShareLink");

export const ShareParams = z.object({
  id: z.string().min(1).max(128).openapi({ param: { name: "id", in: "path" } }),
  token: z.string().min(1).max(128).openapi({ param: { name: "token", in: "path" } }),
});

export const TokenParam = z.object({ token: z.string().min(1).max(128).openapi({ param: { name: "token", in: "path" } }) });

export const ShareLandingSchema = z
  .object({
    token: z.string(),
    expires_at: z.string().nullable(),
    pipeline: z.object({
      id: z.string(),
      name: z.string(),
      version: z.string().nullable(),
      description: z.string().nullable(),
      tags: z.array(z.string()),
      rules_count: z.number().int(),
      updated_at: z.string(),
    }),
    toml_content: z.string(),
  })
  .openapi("ShareLanding");

export const ImportBody = z
  .object({
    url: z.string().max(4096).openapi({ description: "strand+https://<host>/share/<token>, oxo+https://<host>/share/<token> (an oxo-flow server's share) or toml+https://<location>" }),
    name: z.string().trim().min(1).max(200).optional(),
  })
  .openapi("ImportRequest");

export const Imported = SavedPipelineWithValidation.extend({
  source: z.object({ kind: z.enum(["share", "toml"]), url: z.string(), local: z.boolean().openapi({ description: "a share of this service, read without a fetch" }) }),
}).openapi("Imported");
