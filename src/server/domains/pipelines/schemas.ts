/**
 * Request and response types of saved pipelines: create, list, read, update, delete, revisions, rollback
 * and search (docs/guide/service-api.md). They generate this part of the OpenAPI document; the saved
 * pipeline itself, which forks and imports answer with too, is in the shared shapes.
 */
import { z } from "@hono/zod-openapi";
import { PipelineIdParam, VisibilitySchema } from "../../openapi-shapes.js";

const tags = z.array(z.string().min(1).max(64)).max(32);
const name = z.string().trim().min(1).max(200);

export const CreatePipelineBody = z
  .object({
    toml_content: z.string().openapi({ description: "pipeline TOML text; it must parse and have [workflow].name" }),
    name: name.optional().openapi({ description: "default: [workflow].name" }),
    tags: tags.optional(),
    visibility: VisibilitySchema.optional().openapi({ description: "default private" }),
  })
  .openapi("CreatePipeline");

export const UpdatePipelineBody = z
  .object({
    toml_content: z.string().optional(),
    name: name.optional(),
    tags: tags.optional(),
    visibility: VisibilitySchema.optional(),
    revision: z.number().int().min(1).optional().openapi({ description: "the revision the change is based on; a newer one is 409 CONFLICT" }),
  })
  .openapi("UpdatePipeline");

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: "at most this many (default and maximum 100)" }),
});

export const RevisionSummary = z
  .object({
    id: z.string(),
    pipeline_id: z.string(),
    revision: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    size_bytes: z.number().int().openapi({ description: "the revision's text in bytes, which the storage quotas count" }),
    current: z.boolean(),
  })
  .openapi("RevisionSummary");

export const PruneQuery = z.object({
  keep: z.coerce.number().int().min(1).max(100_000).openapi({ description: "how many of the newest revisions to keep (the current one is always among them)" }),
});

export const Pruned = z
  .object({
    pipeline_id: z.string(),
    deleted_revisions: z.number().int(),
    size_bytes: z.number().int().openapi({ description: "bytes of revision text the pipeline keeps now" }),
  })
  .openapi("PrunedRevisions");

export const Revision = RevisionSummary.extend({ toml_content: z.string() }).openapi("Revision");

export const RevisionParams = PipelineIdParam.extend({
  rev: z.string().min(1).max(128).openapi({ param: { name: "rev", in: "path" }, description: "revision number or revision id" }),
});

export const RollbackBody = z
  .object({ revision_id: z.union([z.string().min(1).max(128), z.number().int().min(1)]).openapi({ description: "the revision's id, or its number" }) })
  .openapi("Rollback");

export const SearchBody = z
  .object({
    query: z.string().max(500).openapi({ description: "words to look for in names, tags and content" }),
    limit: z.number().int().min(1).max(100).optional().openapi({ description: "default 20" }),
  })
  .openapi("SearchQuery");

export const SearchHit = z
  .object({
    id: z.string(),
    kind: z.enum(["pipeline", "template"]),
    name: z.string(),
    snippet: z.string(),
    score: z.number().openapi({ description: "0 to 1; higher is better" }),
  })
  .openapi("SearchHit");

export const SearchResult = z.object({ query: z.string(), total: z.number().int(), hits: z.array(SearchHit) }).openapi("SearchResult");
