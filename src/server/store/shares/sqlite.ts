/** Share links of saved pipelines in SQLite. */
import { and, desc, eq, sql } from "drizzle-orm";
import { constraintViolation } from "../constraint-violation.js";
import { pipelines } from "../pipelines/schema-sqlite.js";
import type { Clock } from "../record-fields.js";
import type { SqliteDb } from "../sqlite-queries.js";
import { notFound, StoreError } from "../store-error.js";
import type { NewShare, Share, ShareStore } from "./contract.js";
import { newShareRow, withShareState } from "./rows.js";
import { shares } from "./schema-sqlite.js";

/** Share links of saved pipelines in the SQLite database. */
export class SqliteShareStore implements ShareStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async createShare(input: NewShare): Promise<Share> {
    const now = this.now();
    const row = newShareRow(input, now);
    try {
      this.db.insert(shares).values(row).run();
    } catch (error) {
      const violated = constraintViolation(error);
      if (violated === "foreign_key") throw notFound("pipeline", row.pipeline_id);
      if (violated === "unique") throw new StoreError("CONFLICT", "share token already in use");
      throw error;
    }
    return withShareState(row, now);
  }

  async getShare(token: string): Promise<Share> {
    const row = this.db.select().from(shares).where(eq(shares.token, token)).get();
    if (row === undefined) throw notFound("share", token);
    return withShareState(row, this.now());
  }

  async listShares(pipelineId: string): Promise<Share[]> {
    const now = this.now();
    return this.db.transaction((tx) => {
      const exists = tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId)).get();
      if (exists === undefined) throw notFound("pipeline", pipelineId);
      const rows = tx.select().from(shares).where(eq(shares.pipeline_id, pipelineId)).orderBy(desc(shares.created_at), desc(shares.token)).all();
      return rows.map((row) => withShareState(row, now));
    });
  }

  async revokeShare(pipelineId: string, token: string): Promise<Share> {
    const now = this.now();
    const row = this.db
      .update(shares)
      .set({ revoked_at: sql`coalesce(${shares.revoked_at}, ${now})` })
      .where(and(eq(shares.token, token), eq(shares.pipeline_id, pipelineId)))
      .returning()
      .get();
    if (row === undefined) throw notFound("share", token);
    return withShareState(row, now);
  }
}
