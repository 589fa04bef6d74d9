/**
 * Saved pipelines and their revisions: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */

/** Who may read a saved pipeline besides its owner and administrators. */
export type PipelineVisibility = "private" | "workspace" | "link";

/** The visibilities in the order the API documents them. */
export const PIPELINE_VISIBILITIES: readonly PipelineVisibility[] = ["private", "workspace", "link"];

/** A saved pipeline; `revision` starts at 1 and grows by one on every update or rollback. */
export interface SavedPipeline {
  id: string;
  name: string;
  version: string | null;
  description: string | null;
  tags: string[];
  toml_content: string;
  visibility: PipelineVisibility;
  owner: string;
  forked_from: string | null;
  rules_count: number;
  created_at: string;
  updated_at: string;
  revision: number;
}

/** A saved pipeline without its text, as listings return it. */
export type SavedPipelineSummary = Omit<SavedPipeline, "toml_content">;

/** What a caller supplies to save a new pipeline; the store fills in id, timestamps and revision 1. */
export interface NewPipeline {
  id?: string;
  name: string;
  version?: string | null;
  description?: string | null;
  tags?: string[];
  toml_content: string;
  visibility?: PipelineVisibility;
  owner: string;
  forked_from?: string | null;
  rules_count?: number;
}

/** The fields an update may change; absent fields keep their value. */
export type PipelinePatch = Partial<
  Pick<SavedPipeline, "name" | "version" | "description" | "tags" | "toml_content" | "visibility" | "rules_count">
>;

/**
 * Limits on the revision text kept, checked inside the write that adds a revision: QUOTA_EXCEEDED when the
 * pipeline's revisions, or all revisions of the owner's pipelines, would hold more bytes than this.
 */
export interface StorageQuota {
  pipelineBytes?: number;
  ownerBytes?: number;
}

/** Optimistic concurrency for a pipeline change (CONFLICT unless the revision still matches), and the quota it must fit. */
export interface RevisionGuard {
  expectedRevision?: number;
  quota?: StorageQuota;
}

/** A rollback may also refresh fields derived from the content, which only the engine can compute. */
export interface RollbackOptions extends RevisionGuard {
  rules_count?: number;
  /** Fields read from the restored content (version, description, rule count), computed inside the change. */
  derive?: (toml_content: string) => Partial<Pick<SavedPipeline, "version" | "description" | "rules_count">>;
}

/** The content and name a pipeline had at one revision (every revision, including the current one). */
export interface PipelineRevision {
  id: string;
  pipeline_id: string;
  revision: number;
  toml_content: string;
  name: string;
  created_at: string;
  /** The UTF-8 size of `toml_content`, what quotas count. */
  size_bytes: number;
}

/** Whose revision text to measure: one pipeline's, or every pipeline of one owner. */
export type RevisionScope = { pipelineId: string } | { owner: string };

/** Which pipelines a listing or search returns. */
export interface PipelineQuery {
  /** At most this many rows (default 50, clamped to 1..100). */
  limit?: number;
  /** Only pipelines this user owns or that are visible to the whole workspace; absent: every pipeline. */
  visibleTo?: string;
}

/** Saved pipelines and their revisions: what the services may read and change. */
export interface PipelineStore {
  /** Saves a new pipeline at revision 1, recording that revision. CONFLICT if the id is taken, QUOTA_EXCEEDED past `quota`. */
  createPipeline(input: NewPipeline, options?: { quota?: StorageQuota }): Promise<SavedPipeline>;

  /** The pipeline with this id. NOT_FOUND if there is none. */
  getPipeline(id: string): Promise<SavedPipeline>;

  /** Pipelines without their text, most recently updated first. */
  listPipelines(query?: PipelineQuery): Promise<SavedPipelineSummary[]>;

  /** Applies a patch as the next revision, atomically; CONFLICT when `expectedRevision` is stale. */
  updatePipeline(id: string, patch: PipelinePatch, guard?: RevisionGuard): Promise<SavedPipeline>;

  /** Deletes a pipeline with its revisions and share links. NOT_FOUND if there is none. */
  deletePipeline(id: string): Promise<void>;

  /** Every revision of a pipeline, newest first. NOT_FOUND if the pipeline does not exist. */
  listRevisions(pipelineId: string): Promise<PipelineRevision[]>;

  /** One revision of a pipeline by its number. NOT_FOUND if either is missing. */
  getRevision(pipelineId: string, revision: number): Promise<PipelineRevision>;

  /** Restores the content and name of an earlier revision as a new revision. */
  rollbackPipeline(pipelineId: string, revision: number, options?: RollbackOptions): Promise<SavedPipeline>;

  /** Deletes all but the newest `keep` (at least 1) revisions of a pipeline; how many went. NOT_FOUND for an unknown pipeline. */
  pruneRevisions(pipelineId: string, keep: number): Promise<number>;

  /** Bytes of revision text kept for one pipeline, or for all pipelines of one owner. */
  revisionBytes(scope: RevisionScope): Promise<number>;

  /** Pipelines matching any word of `text` in name, tags or content, unranked, most recently updated first. */
  searchPipelines(text: string, query?: PipelineQuery): Promise<SavedPipeline[]>;
}

/** The reads of saved pipelines, for code that must never write them (the AI's capabilities). */
export type PipelineReads = Pick<PipelineStore, "getPipeline" | "listPipelines" | "listRevisions" | "getRevision" | "revisionBytes" | "searchPipelines">;
