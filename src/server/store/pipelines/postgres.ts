/** Saved pipelines and their revisions in PostgreSQL. */
import { and, desc, eq, getTableColumns, lt, or, sql, type SQL } from "drizzle-orm";
import { clampLimit, PIPELINE_LIMIT } from "../listing-limits.js";
import { containsAny, insertOrConflict, type PgDb, type PgReader } from "../postgres-queries.js";
import { type Clock, definedFields } from "../record-fields.js";
import { likePatterns } from "../search-terms.js";
import { checkQuota, notFound, StoreError } from "../store-error.js";
import type { NewPipeline, SavedPipeline, PipelinePatch, PipelineQuery, PipelineRevision, PipelineStore, SavedPipelineSummary, RevisionGuard, RevisionScope, RollbackOptions, StorageQuota } from "./contract.js";
import { newPipelineRow, revisionRowOf } from "./rows.js";
import { pipelineRevisions, pipelines } from "./schema-pg.js";

/** Every pipeline column but the text, for listings (the text can be large; listings do not show it). */
const { toml_content: _content, ...SUMMARY_COLUMNS } = getTableColumns(pipelines);

/** Saved pipelines and their revisions in the PostgreSQL database. */
export class PostgresPipelineStore implements PipelineStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createPipeline(input: NewPipeline, options: { quota?: StorageQuota } = {}): Promise<SavedPipeline> {
    const now = this.now();
    const row = newPipelineRow(input, now);
    await insertOrConflict(
      () =>
        this.db.transaction(async (tx) => {
          const revision = revisionRowOf(row, now);
          await this.#checkQuotas(tx, row, revision.size_bytes, options.quota);
          await tx.insert(pipelines).values(row);
          await tx.insert(pipelineRevisions).values(revision);
        }),
      `pipeline ${row.id} already exists`,
    );
    return row;
  }

  async getPipeline(id: string): Promise<SavedPipeline> {
    const [row] = await this.db.select().from(pipelines).where(eq(pipelines.id, id));
    if (row === undefined) throw notFound("pipeline", id);
    return row;
  }

  async listPipelines(query: PipelineQuery = {}): Promise<SavedPipelineSummary[]> {
    return this.db
      .select(SUMMARY_COLUMNS)
      .from(pipelines)
      .where(this.#visibleTo(query.visibleTo))
      .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT));
  }

  async updatePipeline(id: string, patch: PipelinePatch, guard: RevisionGuard = {}): Promise<SavedPipeline> {
    return this.#writeNextRevision(id, guard, async () => patch);
  }

  async deletePipeline(id: string): Promise<void> {
    const deleted = await this.db.delete(pipelines).where(eq(pipelines.id, id)).returning({ id: pipelines.id });
    if (deleted.length === 0) throw notFound("pipeline", id);
  }

  async listRevisions(pipelineId: string): Promise<PipelineRevision[]> {
    return this.db.transaction(
      async (tx) => {
        const [exists] = await tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId));
        if (exists === undefined) throw notFound("pipeline", pipelineId);
        return tx
          .select()
          .from(pipelineRevisions)
          .where(eq(pipelineRevisions.pipeline_id, pipelineId))
          .orderBy(desc(pipelineRevisions.revision));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }

  async getRevision(pipelineId: string, revision: number): Promise<PipelineRevision> {
    const row = await this.#revisionRow(this.db, pipelineId, revision);
    if (row === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
    return row;
  }

  async rollbackPipeline(pipelineId: string, revision: number, options: RollbackOptions = {}): Promise<SavedPipeline> {
    return this.#writeNextRevision(pipelineId, options, async (tx) => {
      const earlier = await this.#revisionRow(tx, pipelineId, revision);
      if (earlier === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
      return { toml_content: earlier.toml_content, name: earlier.name, rules_count: options.rules_count, ...options.derive?.(earlier.toml_content) };
    });
  }

  async pruneRevisions(pipelineId: string, keep: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select({ revision: pipelines.revision }).from(pipelines).where(eq(pipelines.id, pipelineId)).for("update");
      if (current === undefined) throw notFound("pipeline", pipelineId);
      const oldestKept = current.revision - Math.max(1, Math.floor(keep)) + 1;
      const deleted = await tx
        .delete(pipelineRevisions)
        .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), lt(pipelineRevisions.revision, oldestKept)))
        .returning({ id: pipelineRevisions.id });
      return deleted.length;
    });
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
      .limit(clampLimit(query.limit, PIPELINE_LIMIT));
  }

  /**
   * Writes the next revision of a pipeline in one transaction that first locks the pipeline row, so a
   * concurrent writer waits and then reads the revision this one wrote.
   */
  async #writeNextRevision(
    id: string,
    guard: RevisionGuard,
    patchOf: (tx: PgReader) => Promise<PipelinePatch>,
  ): Promise<SavedPipeline> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(pipelines).where(eq(pipelines.id, id)).for("update");
      if (current === undefined) throw notFound("pipeline", id);
      if (guard.expectedRevision !== undefined && guard.expectedRevision !== current.revision) {
        throw new StoreError("CONFLICT", `pipeline ${id} is at revision ${current.revision}, not ${guard.expectedRevision}`);
      }
      const now = this.now();
      const next: SavedPipeline = {
        ...current,
        ...definedFields(await patchOf(tx)),
        revision: current.revision + 1,
        updated_at: now,
      };
      const revision = revisionRowOf(next, now);
      await this.#checkQuotas(tx, current, revision.size_bytes, guard.quota);
      await tx.update(pipelines).set(next).where(eq(pipelines.id, id));
      await tx.insert(pipelineRevisions).values(revision);
      return next;
    });
  }

  /** Refuses (QUOTA_EXCEEDED) a revision of `added` bytes that the pipeline's or its owner's quota cannot hold. */
  async #checkQuotas(db: PgReader, pipeline: { id: string; owner: string }, added: number, quota: StorageQuota | undefined): Promise<void> {
    if (quota?.pipelineBytes !== undefined) checkQuota("pipeline", await this.#revisionBytesIn(db, { pipelineId: pipeline.id }), added, quota.pipelineBytes);
    if (quota?.ownerBytes !== undefined) checkQuota("owner", await this.#revisionBytesIn(db, { owner: pipeline.owner }), added, quota.ownerBytes);
  }

  async #revisionBytesIn(db: PgReader, scope: RevisionScope): Promise<number> {
    // sum() of integers is a bigint in PostgreSQL, which the driver hands over as text.
    const total = sql<string>`coalesce(sum(${pipelineRevisions.size_bytes}), 0)`;
    const rows =
      "pipelineId" in scope
        ? await db.select({ total }).from(pipelineRevisions).where(eq(pipelineRevisions.pipeline_id, scope.pipelineId))
        : await db.select({ total }).from(pipelineRevisions).innerJoin(pipelines, eq(pipelines.id, pipelineRevisions.pipeline_id)).where(eq(pipelines.owner, scope.owner));
    return Number(rows[0]?.total ?? 0);
  }

  async #revisionRow(db: PgReader, pipelineId: string, revision: number): Promise<PipelineRevision | undefined> {
    const [row] = await db
      .select()
      .from(pipelineRevisions)
      .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), eq(pipelineRevisions.revision, revision)));
    return row;
  }

  #visibleTo(user: string | undefined): SQL | undefined {
    if (user === undefined) return undefined;
    return or(eq(pipelines.owner, user), eq(pipelines.visibility, "workspace"));
  }
}
