/**
 * Complete rows from what callers supply: ids, timestamps and defaults are decided here once, so the SQLite
 * and PostgreSQL stores cannot drift apart in what a new record looks like.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type {
  AccessToken,
  AiSettingsRecord,
  AuditEntry,
  ChatMessage,
  ChatSession,
  NewAccessToken,
  NewAuditEntry,
  NewChatMessage,
  NewChatSession,
  NewOAuthIdentity,
  NewPipeline,
  NewRun,
  NewSession,
  NewShare,
  NewTemplate,
  NewUser,
  OAuthIdentity,
  Pipeline,
  PipelineRevision,
  Run,
  RunCounts,
  Session,
  Share,
  ShareState,
  Template,
  User,
  UserCredentials,
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
    owner: input.owner ?? null,
  };
}

/** A stored account row: the credentials without the derived `has_password`. */
export type UserRow = Omit<UserCredentials, "has_password">;

/** A new account; created_at and updated_at are both now. */
export function newUserRow(input: NewUser, now: string): UserRow {
  return {
    id: input.id ?? randomUUID(),
    username: input.username,
    password_hash: input.password_hash ?? null,
    role: input.role,
    created_at: now,
    updated_at: now,
  };
}

/** An account row with its password hash, for checking a sign-in. */
export function credentialsOf(row: UserRow): UserCredentials {
  return { ...userOf(row), password_hash: row.password_hash };
}

/** An account row as the API may show it: whether it has a password, never the hash. */
export function userOf(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
    has_password: row.password_hash !== null,
  };
}

/** A new session, first seen now. */
export function newSessionRow(input: NewSession, now: string): Session {
  return {
    id: input.id ?? randomUUID(),
    user_id: input.user_id,
    secret_hash: input.secret_hash,
    created_at: now,
    expires_at: input.expires_at,
    last_seen_at: now,
    ip: input.ip ?? null,
    user_agent: input.user_agent ?? null,
  };
}

/** A new personal access token, never used yet. */
export function newAccessTokenRow(input: NewAccessToken, now: string): AccessToken {
  return {
    id: input.id ?? randomUUID(),
    user_id: input.user_id,
    name: input.name,
    secret_hash: input.secret_hash,
    created_at: now,
    expires_at: input.expires_at ?? null,
    last_used_at: null,
  };
}

/** A new link of an external identity to an account. */
export function newIdentityRow(input: NewOAuthIdentity, now: string): OAuthIdentity {
  return {
    provider: input.provider,
    provider_user_id: input.provider_user_id,
    user_id: input.user_id,
    login: input.login ?? null,
    created_at: now,
  };
}

/**
 * A time bound of a listing filter in the stored form (UTC, milliseconds), so text comparison orders it right:
 * `09:00:00Z` would otherwise sort after `09:00:00.500Z`, and `+02:00` offsets would not compare at all.
 * Text that is not a time is passed on unchanged (the routes validate what callers send).
 */
export function storedInstant(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
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
    request: input.request ?? null,
  };
}

/** AI settings as saved now; absent optional fields are stored as null. */
export function aiSettingsRow(record: Omit<AiSettingsRecord, "updated_at">, now: string): AiSettingsRecord {
  return {
    scope: record.scope,
    provider: record.provider,
    model: record.model ?? null,
    api_url: record.api_url ?? null,
    sealed_api_key: record.sealed_api_key ?? null,
    updated_at: now,
    updated_by: record.updated_by ?? null,
  };
}

/** A new chat session without messages or summary. */
export function newChatSessionRow(input: NewChatSession, now: string): ChatSession {
  return {
    id: input.id ?? randomUUID(),
    owner: input.owner,
    title: input.title,
    summary: null,
    summarised_through: 0,
    created_at: now,
    updated_at: now,
    message_count: 0,
  };
}

/** A new chat message at the seq the store allotted it. */
export function newChatMessageRow(input: NewChatMessage, seq: number, now: string): ChatMessage {
  return {
    session_id: input.session_id,
    seq,
    role: input.role,
    content: input.content,
    metadata: input.metadata ?? null,
    created_at: now,
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
