/**
 * Complete rows from what callers supply: ids, timestamps and defaults are decided here once, so the SQLite
 * and PostgreSQL stores cannot drift apart in what a new record looks like.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type {
  AuditEntry,
  NewAuditEntry,
  NewPipeline,
  NewRun,
  NewShare,
  NewTemplate,
  Pipeline,
  PipelineRevision,
  Run,
  RunCounts,
  Share,
  ShareState,
  Template,
} from "./store.js";

/** The store's notion of now, as an RFC 3339 UTC string with milliseconds. */
export type Clock = () => string;

/** The wall clock. */
export const systemClock: Clock = () => new Date().toISOString();

/** A new pipeline at revision 1. */
export function newPipelineRow(input: NewPipeline, now: string): Pipeline {
  return {
    id: input.id ?? randomUUID(),
    name: input.name,
    version: input.version ?? null,
    description: input.description ?? null,
    tags: input.tags ?? [],
    toml_content: input.toml_content,
    visibility: input.visibility ?? "private",
    owner: input.owner,
    forked_from: input.forked_from ?? null,
    rules_count: input.rules_count ?? 0,
    created_at: now,
    updated_at: now,
    revision: 1,
  };
}

/** The revision row that records a pipeline's current content and name. */
export function revisionRowOf(pipeline: Pipeline, now: string): PipelineRevision {
  return {
    id: randomUUID(),
    pipeline_id: pipeline.id,
    revision: pipeline.revision,
    toml_content: pipeline.toml_content,
    name: pipeline.name,
    created_at: now,
    size_bytes: Buffer.byteLength(pipeline.toml_content),
  };
}

/** A stored share row, before its state is computed. */
export type ShareRow = Omit<Share, "state">;

/** A new share link; the default token carries 192 random bits, unguessable and URL-safe. */
export function newShareRow(input: NewShare, now: string): ShareRow {
  return {
    token: input.token ?? randomBytes(24).toString("base64url"),
    pipeline_id: input.pipeline_id,
    created_at: now,
    expires_at: input.expires_at ?? null,
    revoked_at: null,
  };
}

/** A share row with whether it can still be used at `now`. */
export function withShareState(row: ShareRow, now: string): Share {
  let state: ShareState = "active";
  if (row.revoked_at !== null) state = "revoked";
  else if (row.expires_at !== null && row.expires_at <= now) state = "expired";
  return { ...row, state };
}

/** A new user template. */
export function newTemplateRow(input: NewTemplate, now: string): Template {
  return {
    id: input.id ?? randomUUID(),
    name: input.name,
    description: input.description ?? null,
    tags: input.tags ?? [],
    toml_content: input.toml_content,
    created_at: now,
  };
}

/** A new audit entry. */
export function newAuditRow(input: NewAuditEntry, now: string): AuditEntry {
  return {
    id: input.id ?? randomUUID(),
    time: input.time ?? now,
    actor: input.actor ?? null,
    method: input.method,
    path: input.path,
    status: input.status,
    result: input.result,
    detail: input.detail ?? null,
    action: input.action ?? `${input.method} ${input.path}`,
    resource: input.resource ?? null,
    ip: input.ip ?? null,
  };
}

/** Job counts of a run nothing has happened to yet. */
export const ZERO_COUNTS: RunCounts = { total: 0, completed: 0, failed: 0, running: 0, skipped: 0, pending: 0 };

/** A new run, queued unless the caller says otherwise. */
export function newRunRow(input: NewRun, now: string): Run {
  return {
    id: input.id ?? randomUUID(),
    status: input.status ?? "queued",
    pipeline_id: input.pipeline_id ?? null,
    pipeline_revision: input.pipeline_revision ?? null,
    workflow_name: input.workflow_name,
    owner: input.owner,
    target: input.target ?? { type: "local" },
    created_at: input.created_at ?? now,
    started_at: input.started_at ?? null,
    finished_at: input.finished_at ?? null,
    exit_code: input.exit_code ?? null,
    counts: input.counts ?? { ...ZERO_COUNTS },
    retry_of: input.retry_of ?? null,
    workspace: input.workspace ?? null,
    pid: input.pid ?? null,
    events_path: input.events_path ?? null,
    error: input.error ?? null,
  };
}

/** The statuses an `expectedStatus` option allows, as a list. */
export function statusList<T extends string>(expected: T | readonly T[]): readonly T[] {
  return typeof expected === "string" ? [expected] : expected;
}

/** The patch without its undefined fields, since an absent field means "keep the current value". */
export function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
