/**
 * Saved pipelines, free of HTTP: who may read or change one, and the create / update / rollback / fork
 * operations over the store, each keeping what the text says about itself (name, version, description,
 * rule count) and answering with its lint result (both read by the tooling). Text that does not parse, or
 * has no `[workflow].name`, is refused with PARSE_ERROR and its position; a pipeline with lint errors is
 * saved as a draft and carries its findings.
 */
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { SavedPipeline, PipelineRevision, PipelineReads, PipelineStore, PipelineVisibility, StorageQuota } from "../../store/pipelines/contract.js";
import { isStoreError } from "../../store/store-error.js";
import { describeKeptText, describeText, type Validation } from "../workflow/service.js";

/** Whether a caller may read a pipeline: its owner, an administrator, or anyone for workspace pipelines. */
export function canRead(caller: Caller, pipeline: SavedPipeline): boolean {
  return caller.admin || pipeline.owner === caller.id || pipeline.visibility === "workspace";
}

/** Whether a caller may change, share or delete a pipeline: its owner or an administrator. */
export function canWrite(caller: Caller, pipeline: SavedPipeline): boolean {
  return caller.admin || pipeline.owner === caller.id;
}

/** A pipeline the caller may read; anything else is NOT_FOUND (existence is not revealed). */
export async function readable(store: Pick<PipelineReads, "getPipeline">, caller: Caller, id: string): Promise<SavedPipeline> {
  const pipeline = await store.getPipeline(id).catch((error: unknown) => {
    throw isStoreError(error, "NOT_FOUND") ? missing(id) : error;
  });
  if (!canRead(caller, pipeline)) throw missing(id);
  return pipeline;
}

/** A pipeline the caller may change; a readable one they may not change is 403, others NOT_FOUND. */
export async function writable(store: PipelineStore, caller: Caller, id: string): Promise<SavedPipeline> {
  const pipeline = await readable(store, caller, id);
  if (!canWrite(caller, pipeline)) throw new ServiceError("ACCESS_DENIED", `pipeline ${id} belongs to ${pipeline.owner}`, { suggestion: "fork it to get a copy you can change" });
  return pipeline;
}

function missing(id: string): ServiceError {
  return new ServiceError("NOT_FOUND", `no saved pipeline ${id}`, { suggestion: "GET /api/pipelines lists the saved pipelines (a translation's draft id is not a saved id: save its toml_content first)" });
}

export interface CreateInput {
  toml_content: string;
  name?: string;
  tags?: string[];
  visibility?: PipelineVisibility;
  forked_from?: string | null;
  /** Version and description to keep when the text states none (an import takes them from the share). */
  fallback?: { version?: string | null; description?: string | null };
  /** What the text is called in a PARSE_ERROR (default `toml_content`; an import names its URL). */
  source?: string;
}

/** How much revision text a pipeline and an owner may keep (SERVICE_PIPELINE_QUOTA_MB, SERVICE_USER_QUOTA_MB). */
export const DEFAULT_QUOTA: Required<StorageQuota> = { pipelineBytes: 50 * 1024 * 1024, ownerBytes: 500 * 1024 * 1024 };

/** Saves a new pipeline owned by the caller, with its lint result; QUOTA_EXCEEDED past `quota`. */
export async function createSaved(store: PipelineStore, caller: Caller, input: CreateInput, quota: StorageQuota = DEFAULT_QUOTA): Promise<{ pipeline: SavedPipeline; validation: Validation }> {
  const { facts, validation } = await describeText(input.toml_content, input.source);
  const pipeline = await store.createPipeline({
    name: input.name ?? facts.name,
    version: facts.version ?? input.fallback?.version ?? null,
    description: facts.description ?? input.fallback?.description ?? null,
    tags: uniqueTags(input.tags ?? []),
    toml_content: input.toml_content,
    visibility: input.visibility ?? "private",
    owner: caller.id,
    forked_from: input.forked_from ?? null,
    rules_count: facts.rules_count,
  }, { quota });
  return { pipeline, validation };
}

export interface UpdateInput {
  toml_content?: string;
  name?: string;
  tags?: string[];
  visibility?: PipelineVisibility;
  revision?: number;
}

/** Applies a change as the next revision (CONFLICT when `revision` is not the current one). */
export async function updateSaved(store: PipelineStore, caller: Caller, id: string, input: UpdateInput, quota: StorageQuota = DEFAULT_QUOTA): Promise<{ pipeline: SavedPipeline; validation: Validation }> {
  if (input.toml_content === undefined && input.name === undefined && input.tags === undefined && input.visibility === undefined) {
    throw new ServiceError("BAD_REQUEST", "nothing to change", { suggestion: "send at least one of toml_content, name, tags and visibility" });
  }
  await writable(store, caller, id);
  const described = input.toml_content !== undefined ? await describeText(input.toml_content) : undefined;
  const facts = described?.facts;
  const pipeline = await store.updatePipeline(
    id,
    {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.tags !== undefined ? { tags: uniqueTags(input.tags) } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(facts && input.toml_content !== undefined
        ? { toml_content: input.toml_content, version: facts.version, description: facts.description, rules_count: facts.rules_count }
        : {}),
    },
    { expectedRevision: input.revision, quota },
  );
  return { pipeline, validation: described?.validation ?? (await describeKeptText(pipeline.toml_content)).validation };
}

/** Finds a revision by number (`3`) or by its id. */
export async function findRevision(store: PipelineStore, pipelineId: string, ref: string | number): Promise<PipelineRevision> {
  const number = typeof ref === "number" ? ref : /^\d{1,9}$/.test(ref) ? Number(ref) : undefined;
  if (number !== undefined) {
    return store.getRevision(pipelineId, number).catch((error: unknown) => {
      throw isStoreError(error, "NOT_FOUND") ? new ServiceError("NOT_FOUND", `pipeline ${pipelineId} has no revision ${number}`, { suggestion: `GET /api/pipelines/${pipelineId}/revisions lists them` }) : error;
    });
  }
  const found = (await store.listRevisions(pipelineId)).find((revision) => revision.id === ref);
  if (!found) throw new ServiceError("NOT_FOUND", `pipeline ${pipelineId} has no revision ${ref}`, { suggestion: `GET /api/pipelines/${pipelineId}/revisions lists them` });
  return found;
}

/** Restores an earlier revision's content and name as a new revision. */
export async function rollbackSaved(store: PipelineStore, caller: Caller, id: string, ref: string | number, quota: StorageQuota = DEFAULT_QUOTA): Promise<{ pipeline: SavedPipeline; validation: Validation }> {
  await writable(store, caller, id);
  const revision = await findRevision(store, id, ref);
  // Revisions were accepted when saved; one that no longer reads keeps the current facts.
  const { facts, validation } = await describeKeptText(revision.toml_content);
  const pipeline = await store.rollbackPipeline(id, revision.revision, {
    quota,
    derive: () => (facts ? { version: facts.version, description: facts.description, rules_count: facts.rules_count } : {}),
  });
  return { pipeline, validation };
}

/** Keeps the newest `keep` revisions of a pipeline the caller may change and deletes the older ones. */
export async function pruneRevisions(store: PipelineStore, caller: Caller, id: string, keep: number): Promise<{ pipeline_id: string; deleted_revisions: number; size_bytes: number }> {
  await writable(store, caller, id);
  const deleted = await store.pruneRevisions(id, keep);
  return { pipeline_id: id, deleted_revisions: deleted, size_bytes: await store.revisionBytes({ pipelineId: id }) };
}

/** Tags without repeats, in the order given. */
function uniqueTags(tags: string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ""))];
}
