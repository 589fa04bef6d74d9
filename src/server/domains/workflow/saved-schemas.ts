/**
 * Request and response types of saved pipelines: create, list, read, update, delete, revisions, rollback
 * and search (api-decisions "Pipelines"). They generate this part of the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { LintResult } from "./schemas.js";

const visibility = z.enum(["private", "workspace", "link"]).openapi({ description: "private (owner and administrators), workspace (every signed-in user may read and fork) or link (readable through a share link)" });
const tags = z.array(z.string().min(1).max(64)).max(32);
const name = z.string().trim().min(1).max(200);

export const PipelineIdParam = z.object({ id: z.string().min(1).max(128).openapi({ param: { name: "id", in: "path" }, description: "pipeline id" }) });

export const PipelineSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    visibility,
    owner: z.string(),
    forked_from: z.string().nullable(),
    rules_count: z.number().int(),
    revision: z.number().int().openapi({ description: "grows by one with every change; send it back with PUT to refuse lost updates" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("PipelineSummary");

export const SavedPipeline = PipelineSummary.extend({ toml_content: z.string() }).openapi("SavedPipeline");

export const SavedPipelineWithValidation = SavedPipeline.extend({ validation: LintResult }).openapi("SavedPipelineWithValidation");

export const CreatePipelineBody = z
  .object({
    toml_content: z.string().openapi({ description: "pipeline TOML text; it must parse and have [workflow].name" }),
    name: name.optional().openapi({ description: "default: [workflow].name" }),
    tags: tags.optional(),
    visibility: visibility.optional().openapi({ description: "default private" }),
  })
  .openapi("CreatePipeline");

export const UpdatePipelineBody = z
  .object({
    toml_content: z.string().optional(),
    name: name.optional(),
    tags: tags.optional(),
    visibility: visibility.optional(),
    revision: z.number().int().min(1).optional().openapi({ description: "the revision the change is based on; a newer one is 409 CONFLICT" }),
  })
  .openapi("UpdatePipeline");

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: "at most this many (default and maximum 100)" }),
});

export const Deleted = z.object({ deleted: z.string() }).openapi("Deleted");

export const RevisionSummary = z
  .object({ id: z.string(), pipeline_id: z.string(), revision: z.number().int(), name: z.string(), created_at: z.string(), current: z.boolean() })
  .openapi("RevisionSummary");

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
