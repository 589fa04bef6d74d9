/** Saved pipelines and their revisions in SQLite. */
import { and, desc, eq, getTableColumns, lt, or, sql, type SQL } from "drizzle-orm";
import { clampLimit, PIPELINE_LIMIT } from "../listing-limits.js";
import { type Clock, definedFields } from "../record-fields.js";
import { likePatterns } from "../search-terms.js";
import { containsAny, insertOrConflict, type SqliteDb, type SqliteReader } from "../sqlite-queries.js";
import { checkQuota, notFound, StoreError } from "../store-error.js";
import type { NewPipeline, SavedPipeline, PipelinePatch, PipelineQuery, PipelineRevision, PipelineStore, SavedPipelineSummary, RevisionGuard, RevisionScope, RollbackOptions, StorageQuota } from "./contract.js";
import { newPipelineRow, revisionRowOf } from "./rows.js";
import { pipelineRevisions, pipelines } from "./schema-sqlite.js";

/** Every pipeline column but the text, for listings (the text can be large; listings do not show it). */
const { toml_content: _content, ...SUMMARY_COLUMNS } = getTableColumns(pipelines);

/** Saved pipelines and their revisions in the SQLite database. */
export class SqlitePipelineStore implements PipelineStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async createPipeline(input: NewPipeline, options: { quota?: StorageQuota } = {}): Promise<SavedPipeline> {
    const now = this.now();
    const row = newPipelineRow(input, now);
    this.db.transaction(
      (tx) => {
        const revision = revisionRowOf(row, now);
        this.#checkQuotas(tx, row, revision.size_bytes, options.quota);
        insertOrConflict(() => tx.insert(pipelines).values(row).run(), `pipeline ${row.id} already exists`);
        tx.insert(pipelineRevisions).values(revision).run();
      },
      { behavior: "immediate" },
    );
    return row;
  }

  async getPipeline(id: string): Promise<SavedPipeline> {
    const row = this.db.select().from(pipelines).where(eq(pipelines.id, id)).get();
    if (row === undefined) throw notFound("pipeline", id);
    return row;
  }

  async listPipelines(query: PipelineQuery = {}): Promise<SavedPipelineSummary[]> {
    return this.db
      .select(SUMMARY_COLUMNS)
      .from(pipelines)
      .where(this.#visibleTo(query.visibleTo))
      .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT))
      .all();
  }

  async updatePipeline(id: string, patch: PipelinePatch, guard: RevisionGuard = {}): Promise<SavedPipeline> {
    return this.#writeNextRevision(id, guard, () => patch);
  }

  async deletePipeline(id: string): Promise<void> {
    const deleted = this.db.delete(pipelines).where(eq(pipelines.id, id)).returning({ id: pipelines.id }).all();
    if (deleted.length === 0) throw notFound("pipeline", id);
  }

  async listRevisions(pipelineId: string): Promise<PipelineRevision[]> {
    return this.db.transaction((tx) => {
      const exists = tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId)).get();
      if (exists === undefined) throw notFound("pipeline", pipelineId);
      return tx
        .select()
        .from(pipelineRevisions)
        .where(eq(pipelineRevisions.pipeline_id, pipelineId))
        .orderBy(desc(pipelineRevisions.revision))
        .all();
    });
  }

  async getRevision(pipelineId: string, revision: number): Promise<PipelineRevision> {
    const row = this.#revisionRow(this.db, pipelineId, revision);
    if (row === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
    return row;
  }

  async rollbackPipeline(pipelineId: string, revision: number, options: RollbackOptions = {}): Promise<SavedPipeline> {
    return this.#writeNextRevision(pipelineId, options, (tx) => {
      const earlier = this.#revisionRow(tx, pipelineId, revision);
      if (earlier === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
      return { toml_content: earlier.toml_content, name: earlier.name, rules_count: options.rules_count, ...options.derive?.(earlier.toml_content) };
    });
  }

  async pruneRevisions(pipelineId: string, keep: number): Promise<number> {
    return this.db.transaction(
      (tx) => {
        const current = tx.select({ revision: pipelines.revision }).from(pipelines).where(eq(pipelines.id, pipelineId)).get();
        if (current === undefined) throw notFound("pipeline", pipelineId);
        const oldestKept = current.revision - Math.max(1, Math.floor(keep)) + 1;
        return tx
          .delete(pipelineRevisions)
          .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), lt(pipelineRevisions.revision, oldestKept)))
          .run().changes;
      },
      { behavior: "immediate" },
    );
  }

  async revisionBytes(scope: RevisionScope): Promise<number> {
    return this.#revisionBytesIn(this.db, scope);
  }

  async searchPipelines(text: string, query: PipelineQuery = {}): Promise<SavedPipeline[]> {
    const patterns = likePatterns(text);
    if (patterns.length === 0) return [];
    return this.db
      .select()
      .from(pipelines)
      .where(and(containsAny([pipelines.name, pipelines.tags, pipelines.toml_content], patterns), this.#visibleTo(query.visibleTo)))
      .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT))
      .all();
  }

  /**
   * Writes the next revision of a pipeline inside one IMMEDIATE transaction: the read of the current
   * revision and the write of revision + 1 cannot interleave with another writer's.
   */
  #writeNextRevision(id: string, guard: RevisionGuard, patchOf: (tx: SqliteReader) => PipelinePatch): SavedPipeline {
    return this.db.transaction(
      (tx) => {
        const current = tx.select().from(pipelines).where(eq(pipelines.id, id)).get();
        if (current === undefined) throw notFound("pipeline", id);
        if (guard.expectedRevision !== undefined && guard.expectedRevision !== current.revision) {
          throw new StoreError(
            "CONFLICT",
            `pipeline ${id} is at revision ${current.revision}, not ${guard.expectedRevision}`,
          );
        }
        const now = this.now();
        const next: SavedPipeline = {
          ...current,
          ...definedFields(patchOf(tx)),
          revision: current.revision + 1,
          updated_at: now,
        };
        const revision = revisionRowOf(next, now);
        this.#checkQuotas(tx, current, revision.size_bytes, guard.quota);
        tx.update(pipelines).set(next).where(eq(pipelines.id, id)).run();
        tx.insert(pipelineRevisions).values(revision).run();
        return next;
      },
      { behavior: "immediate" },
    );
  }

  /** Refuses (QUOTA_EXCEEDED) a revision of `added` bytes that the pipeline's or its owner's quota cannot hold. */
  #checkQuotas(db: SqliteReader, pipeline: { id: string; owner: string }, added: number, quota: StorageQuota | undefined): void {
    if (quota?.pipelineBytes !== undefined) checkQuota("pipeline", this.#revisionBytesIn(db, { pipelineId: pipeline.id }), added, quota.pipelineBytes);
    if (quota?.ownerBytes !== undefined) checkQuota("owner", this.#revisionBytesIn(db, { owner: pipeline.owner }), added, quota.ownerBytes);
  }

  #revisionBytesIn(db: SqliteReader, scope: RevisionScope): number {
    const total = sql<number>`coalesce(sum(${pipelineRevisions.size_bytes}), 0)`;
    if ("pipelineId" in scope) return db.select({ total }).from(pipelineRevisions).where(eq(pipelineRevisions.pipeline_id, scope.pipelineId)).get()?.total ?? 0;
    return (
      db
        .select({ total })
        .from(pipelineRevisions)
        .innerJoin(pipelines, eq(pipelines.id, pipelineRevisions.pipeline_id))
        .where(eq(pipelines.owner, scope.owner))
        .get()?.total ?? 0
    );
  }

  #revisionRow(db: SqliteReader, pipelineId: string, revision: number): PipelineRevision | undefined {
    return db
      .select()
      .from(pipelineRevisions)
      .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), eq(pipelineRevisions.revision, revision)))
      .get();
  }

  #visibleTo(user: string | undefined): SQL | undefined {
    if (user === undefined) return undefined;
    return or(eq(pipelines.owner, user), eq(pipelines.visibility, "workspace"));
  }
}
