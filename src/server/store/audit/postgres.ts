/** The audit log in PostgreSQL. */
import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { decodeCursor, type Page, pageFromRows } from "../keyset-cursor.js";
import { clampLimit, PAGE_LIMIT } from "../listing-limits.js";
import { olderThan, type PgDb } from "../postgres-queries.js";
import { type Clock, storedInstant } from "../record-fields.js";
import type { AuditEntry, AuditQuery, AuditStore, NewAuditEntry } from "./contract.js";
import { newAuditRow } from "./rows.js";
import { audit } from "./schema-pg.js";

/** The filters of an audit listing: exact user, action, result and resource, and the time range [since, until). */
function auditFilters(query: AuditQuery): SQL | undefined {
  return and(
    query.user !== undefined ? eq(audit.actor, query.user) : undefined,
    query.action !== undefined ? eq(audit.action, query.action) : undefined,
    query.result !== undefined ? eq(audit.result, query.result) : undefined,
    query.resource !== undefined ? eq(audit.resource, query.resource) : undefined,
    query.since !== undefined ? gte(audit.time, storedInstant(query.since)) : undefined,
    query.until !== undefined ? lt(audit.time, storedInstant(query.until)) : undefined,
  );
}

/** The audit log in the PostgreSQL database. */
export class PostgresAuditStore implements AuditStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const row = newAuditRow(entry, this.now());
    await this.db.insert(audit).values(row);
    return row;
  }

  async listAudit(query: AuditQuery = {}): Promise<Page<AuditEntry>> {
    const limit = clampLimit(query.limit, PAGE_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.db
      .select()
      .from(audit)
      .where(and(auditFilters(query), olderThan(audit.time, audit.id, after)))
      .orderBy(desc(audit.time), desc(audit.id))
      .limit(limit + 1);
    return pageFromRows(rows, limit, (row) => ({ at: row.time, id: row.id }));
  }
}
