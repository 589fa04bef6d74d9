/** Share links of saved pipelines in PostgreSQL. */
import { and, desc, eq, sql } from "drizzle-orm";
import { constraintViolation } from "../constraint-violation.js";
import { pipelines } from "../pipelines/schema-pg.js";
import type { PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import { notFound, StoreError } from "../store-error.js";
import type { NewShare, Share, ShareStore } from "./contract.js";
import { newShareRow, withShareState } from "./rows.js";
import { shares } from "./schema-pg.js";

/** Share links of saved pipelines in the PostgreSQL database. */
export class PostgresShareStore implements ShareStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createShare(input: NewShare): Promise<Share> {
    const now = this.now();
    const row = newShareRow(input, now);
    try {
      await this.db.insert(shares).values(row);
    } catch (error) {
      const violated = constraintViolation(error);
      if (violated === "foreign_key") throw notFound("pipeline", row.pipeline_id);
      if (violated === "unique") throw new StoreError("CONFLICT", "share token already in use");
      throw error;
    }
    return withShareState(row, now);
  }

  async getShare(token: string): Promise<Share> {
    const [row] = await this.db.select().from(shares).where(eq(shares.token, token));
    if (row === undefined) throw notFound("share", token);
    return withShareState(row, this.now());
  }

  async listShares(pipelineId: string): Promise<Share[]> {
    const now = this.now();
    const rows = await this.db.transaction(
      async (tx) => {
        const [exists] = await tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId));
        if (exists === undefined) throw notFound("pipeline", pipelineId);
        return tx.select().from(shares).where(eq(shares.pipeline_id, pipelineId)).orderBy(desc(shares.created_at), desc(shares.token));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    return rows.map((row) => withShareState(row, now));
  }

  async revokeShare(pipelineId: string, token: string): Promise<Share> {
    const now = this.now();
    const [row] = await this.db
      .update(shares)
      .set({ revoked_at: sql`coalesce(${shares.revoked_at}, ${now})` })
      .where(and(eq(shares.token, token), eq(shares.pipeline_id, pipelineId)))
      .returning();
    if (row === undefined) throw notFound("share", token);
    return withShareState(row, now);
  }
}
