/** Runs and the runner's bookkeeping in PostgreSQL. */
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { decodeCursor, pageFromRows } from "../keyset-cursor.js";
import { clampLimit, PAGE_LIMIT } from "../listing-limits.js";
import { contains, insertOrConflict, olderThan, type PgDb } from "../postgres-queries.js";
import { type Clock, definedFields, statusList } from "../record-fields.js";
import { likePatterns } from "../search-terms.js";
import { notFound, StoreError } from "../store-error.js";
import type { NewRun, Run, RunPage, RunPatch, RunQuery, RunStore, RunUpdateOptions } from "./contract.js";
import { newRunRow } from "./rows.js";
import { runs } from "./schema-pg.js";

/** Runs and the runner's bookkeeping in the PostgreSQL database. */
export class PostgresRunStore implements RunStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createRun(input: NewRun): Promise<Run> {
    const row = newRunRow(input, this.now());
    await insertOrConflict(() => this.db.insert(runs).values(row), `run ${row.id} already exists`);
    return row;
  }

  async getRun(id: string): Promise<Run> {
    const [row] = await this.db.select().from(runs).where(eq(runs.id, id));
    if (row === undefined) throw notFound("run", id);
    return row;
  }

  async updateRun(id: string, patch: RunPatch, options: RunUpdateOptions = {}): Promise<Run> {
    const changes = definedFields({ ...patch, id: undefined, created_at: undefined } as RunPatch);
    const expected = options.expectedStatus === undefined ? [] : statusList(options.expectedStatus);
    const condition = and(eq(runs.id, id), expected.length > 0 ? inArray(runs.status, [...expected]) : undefined);
    // One conditional statement is atomic on its own; the follow-up read only explains a miss.
    const [row] =
      Object.keys(changes).length === 0
        ? await this.db.select().from(runs).where(condition)
        : await this.db.update(runs).set(changes).where(condition).returning();
    if (row !== undefined) return row;
    const current = await this.getRun(id);
    throw new StoreError("CONFLICT", `run ${id} is ${current.status}, expected ${expected.join(" or ")}`);
  }

  async listRuns(query: RunQuery = {}): Promise<RunPage> {
    const limit = clampLimit(query.limit, PAGE_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const patterns = query.q === undefined ? [] : likePatterns(query.q);
    const filters = and(
      query.status === undefined ? undefined : eq(runs.status, query.status),
      query.owner === undefined ? undefined : eq(runs.owner, query.owner),
      ...patterns.map((p) => contains(runs.workflow_name, p)),
    );
    // One snapshot, so the total and the page describe the same moment.
    return this.db.transaction(
      async (tx) => {
        const rows = await tx
          .select()
          .from(runs)
          .where(and(filters, olderThan(runs.created_at, runs.id, after)))
          .orderBy(desc(runs.created_at), desc(runs.id))
          .limit(limit + 1);
        const [counted] = await tx.select({ total: count() }).from(runs).where(filters);
        return { ...pageFromRows(rows, limit, (row) => ({ at: row.created_at, id: row.id })), total: counted?.total ?? 0 };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }
}
