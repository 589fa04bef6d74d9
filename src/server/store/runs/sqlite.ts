/** Runs and the runner's bookkeeping in SQLite. */
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { decodeCursor, pageFromRows } from "../keyset-cursor.js";
import { clampLimit, PAGE_LIMIT } from "../listing-limits.js";
import { type Clock, definedFields, statusList } from "../record-fields.js";
import { likePatterns } from "../search-terms.js";
import { contains, insertOrConflict, olderThan, type SqliteDb } from "../sqlite-queries.js";
import { notFound, StoreError } from "../store-error.js";
import type { NewRun, Run, RunPage, RunPatch, RunQuery, RunStore, RunUpdateOptions } from "./contract.js";
import { newRunRow } from "./rows.js";
import { runs } from "./schema-sqlite.js";

/** Runs and the runner's bookkeeping in the SQLite database. */
export class SqliteRunStore implements RunStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async createRun(input: NewRun): Promise<Run> {
    const row = newRunRow(input, this.now());
    insertOrConflict(() => this.db.insert(runs).values(row).run(), `run ${row.id} already exists`);
    return row;
  }

  async getRun(id: string): Promise<Run> {
    const row = this.db.select().from(runs).where(eq(runs.id, id)).get();
    if (row === undefined) throw notFound("run", id);
    return row;
  }

  async updateRun(id: string, patch: RunPatch, options: RunUpdateOptions = {}): Promise<Run> {
    const changes = definedFields({ ...patch, id: undefined, created_at: undefined } as RunPatch);
    const expected = options.expectedStatus === undefined ? [] : statusList(options.expectedStatus);
    const condition = and(eq(runs.id, id), expected.length > 0 ? inArray(runs.status, [...expected]) : undefined);
    // One conditional statement is atomic on its own; the follow-up read only explains a miss.
    const row =
      Object.keys(changes).length === 0
        ? this.db.select().from(runs).where(condition).get()
        : this.db.update(runs).set(changes).where(condition).returning().get();
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
    // One read transaction, so the total and the page describe the same moment.
    return this.db.transaction((tx) => {
      const rows = tx
        .select()
        .from(runs)
        .where(and(filters, olderThan(runs.created_at, runs.id, after)))
        .orderBy(desc(runs.created_at), desc(runs.id))
        .limit(limit + 1)
        .all();
      const total = tx.select({ total: count() }).from(runs).where(filters).get()?.total ?? 0;
      return { ...pageFromRows(rows, limit, (row) => ({ at: row.created_at, id: row.id })), total };
    });
  }
}
