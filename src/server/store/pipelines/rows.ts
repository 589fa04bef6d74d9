/** Complete saved pipelines and their revisions rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { NewPipeline, SavedPipeline, PipelineRevision } from "./contract.js";

/** A new pipeline at revision 1. */
export function newPipelineRow(input: NewPipeline, now: string): SavedPipeline {
  return {
    id: input.id ?? randomUUID(),
    name: input.name,
    version: input.version ?? null,
    description: input.description ?? null,
    tags: input.tags ?? [],
    toml_content: input.toml_content,
    visibility: input.visibility ?? "private",
    owner: input.owner,
    forked_from: input.forked_from ?? null,
    rules_count: input.rules_count ?? 0,
    created_at: now,
    updated_at: now,
    revision: 1,
  };
}

/** The revision row that records a pipeline's current content and name. */
export function revisionRowOf(pipeline: SavedPipeline, now: string): PipelineRevision {
  return {
    id: randomUUID(),
    pipeline_id: pipeline.id,
    revision: pipeline.revision,
    toml_content: pipeline.toml_content,
    name: pipeline.name,
    created_at: now,
    size_bytes: Buffer.byteLength(pipeline.toml_content),
  };
}
