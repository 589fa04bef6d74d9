/**
 * The audit log: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */
import type { Page } from "../keyset-cursor.js";

/** The outcome recorded for an audited request. */
export type AuditResult = "success" | "failure" | "denied";

/** One audited request or sign-in attempt. */
export interface AuditEntry {
  id: string;
  time: string;
  actor: string | null;
  method: string;
  path: string;
  status: number;
  result: AuditResult;
  detail: string | null;
  /** What was done, e.g. `pipeline.create`; `<METHOD> <path>` when the handler did not name it. */
  action: string;
  /** What it was done to, e.g. `pipeline/<id>`. */
  resource: string | null;
  /** The client address the request came from. */
  ip: string | null;
}

/** What a caller supplies to append to the audit log; time defaults to now, action to `<METHOD> <path>`. */
export type NewAuditEntry = Omit<AuditEntry, "id" | "time" | "actor" | "detail" | "action" | "resource" | "ip"> & {
  id?: string;
  time?: string;
  actor?: string | null;
  detail?: string | null;
  action?: string;
  resource?: string | null;
  ip?: string | null;
};

/** Which audit entries a page holds. */
export interface AuditQuery {
  /** Page size (default 50, clamped to 1..500). */
  limit?: number;
  cursor?: string | null;
  /** Only entries of this actor. */
  user?: string;
  /** Only entries with exactly this action. */
  action?: string;
  /** Only entries with this outcome. */
  result?: AuditResult;
  /** Only entries whose resource is exactly this (e.g. `run/<id>`). */
  resource?: string;
  /** Only entries at or after this time (RFC 3339). */
  since?: string;
  /** Only entries before this time (RFC 3339). */
  until?: string;
}

/** The audit log: what the services may read and change. */
export interface AuditStore {
  /** Appends one entry to the audit log. */
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;

  /** Audit entries, newest first, a page at a time. */
  listAudit(query?: AuditQuery): Promise<Page<AuditEntry>>;
}
