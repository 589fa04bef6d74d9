/**
 * The PostgreSQL tables. Timestamps are RFC 3339 UTC text and JSON is `json` (which keeps the text as written,
 * unlike jsonb), so both stores return identical values; drizzle-kit generates `drizzle/pg/` from this file.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { RunCounts, RunTarget, RunRequestRecord } from "./store.js";

/** Saved pipelines; `revision` is bumped by every update inside a write transaction. */
export const pipelines = pgTable(
  "pipelines",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    version: text(),
    description: text(),
    tags: json().$type<string[]>().notNull(),
    toml_content: text().notNull(),
    visibility: text({ enum: ["private", "workspace", "link"] }).notNull(),
    owner: text().notNull(),
    forked_from: text(),
    rules_count: integer().notNull().default(0),
    created_at: text().notNull(),
    updated_at: text().notNull(),
    revision: integer().notNull().default(1),
  },
  (t) => [
    index("pipelines_updated_idx").on(t.updated_at, t.id),
    index("pipelines_owner_idx").on(t.owner),
    check("pipelines_visibility_check", sql`${t.visibility} in ('private', 'workspace', 'link')`),
  ],
);

/** One row per revision of a pipeline, the current one included; the unique index makes a lost update fail loudly. */
export const pipelineRevisions = pgTable(
  "pipeline_revisions",
  {
    id: text().primaryKey(),
    pipeline_id: text()
      .notNull()
      .references(() => pipelines.id, { onDelete: "cascade" }),
    revision: integer().notNull(),
    toml_content: text().notNull(),
    name: text().notNull(),
    created_at: text().notNull(),
    size_bytes: integer().notNull().default(0),
  },
  (t) => [uniqueIndex("pipeline_revisions_pipeline_revision_idx").on(t.pipeline_id, t.revision)],
);

/** Share-link tokens; they die with their pipeline. */
export const shares = pgTable(
  "shares",
  {
    token: text().primaryKey(),
    pipeline_id: text()
      .notNull()
      .references(() => pipelines.id, { onDelete: "cascade" }),
    created_at: text().notNull(),
    expires_at: text(),
    revoked_at: text(),
  },
  (t) => [index("shares_pipeline_idx").on(t.pipeline_id)],
);

/** Templates users added. */
export const templates = pgTable("templates", {
  id: text().primaryKey(),
  name: text().notNull(),
  description: text(),
  tags: json().$type<string[]>().notNull(),
  toml_content: text().notNull(),
  created_at: text().notNull(),
  /** The id of the user who added it; null for templates added before sign-in existed. */
  owner: text(),
});

/** The audit log of state-changing requests and sign-in attempts. */
export const audit = pgTable(
  "audit",
  {
    id: text().primaryKey(),
    time: text().notNull(),
    actor: text(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    result: text({ enum: ["success", "failure", "denied"] }).notNull(),
    detail: text(),
    action: text().notNull().default(""),
    resource: text(),
    ip: text(),
  },
  (t) => [index("audit_time_idx").on(t.time, t.id)],
);

/** Runs; pipeline_id is deliberately not a foreign key, so a run's history outlives its pipeline. */
export const runs = pgTable(
  "runs",
  {
    id: text().primaryKey(),
    status: text({ enum: ["queued", "running", "paused", "completed", "failed", "cancelled"] }).notNull(),
    pipeline_id: text(),
    pipeline_revision: integer(),
    workflow_name: text().notNull(),
    owner: text().notNull(),
    target: json().$type<RunTarget>().notNull(),
    created_at: text().notNull(),
    started_at: text(),
    finished_at: text(),
    exit_code: integer(),
    counts: json().$type<RunCounts>().notNull(),
    retry_of: text(),
    workspace: text(),
    pid: integer(),
    events_path: text(),
    error: text(),
    /** The run's options as the service accepted them (jobs, keep_going, dry_run, samples, targets, config, retry_failed). */
    request: json().$type<RunRequestRecord>(),
  },
  (t) => [
    index("runs_created_idx").on(t.created_at, t.id),
    index("runs_status_created_idx").on(t.status, t.created_at, t.id),
    check(
      "runs_status_check",
      sql`${t.status} in ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')`,
    ),
  ],
);

/**
 * Accounts of team and hpc modes. The unique index on lower(username) makes `Alice` and `alice` one name, so
 * nobody can register a look-alike of an existing account; lookups compare the same way.
 */
export const users = pgTable(
  "users",
  {
    id: text().primaryKey(),
    username: text().notNull(),
    password_hash: text(),
    role: text({ enum: ["admin", "user", "viewer"] }).notNull(),
    created_at: text().notNull(),
    updated_at: text().notNull(),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    check("users_role_check", sql`${t.role} in ('admin', 'user', 'viewer')`),
  ],
);

/** Sign-in sessions; only the hash of each session's secret is kept, and they die with their account. */
export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    user_id: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    secret_hash: text().notNull(),
    created_at: text().notNull(),
    expires_at: text().notNull(),
    last_seen_at: text().notNull(),
    ip: text(),
    user_agent: text(),
  },
  (t) => [index("sessions_user_idx").on(t.user_id), index("sessions_expires_idx").on(t.expires_at)],
);

/** Personal access tokens for scripts; only the hash of each secret is kept, and they die with their account. */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: text().primaryKey(),
    user_id: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    secret_hash: text().notNull(),
    created_at: text().notNull(),
    expires_at: text(),
    last_used_at: text(),
  },
  (t) => [index("access_tokens_user_idx").on(t.user_id)],
);

/** External identities (GitHub, ORCID) linked to accounts; one account per provider identity. */
export const oauthIdentities = pgTable(
  "oauth_identities",
  {
    provider: text().notNull(),
    provider_user_id: text().notNull(),
    user_id: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    login: text(),
    created_at: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.provider_user_id] }), index("oauth_identities_user_idx").on(t.user_id)],
);

/**
 * AI provider settings per scope: `server` for the shared ones, a user id for one user's. `user_id` repeats
 * the scope when it names an account (null for `server`), so a user's settings die with the account.
 */
export const aiSettings = pgTable(
  "ai_settings",
  {
    scope: text().primaryKey(),
    user_id: text().references(() => users.id, { onDelete: "cascade" }),
    provider: text().notNull(),
    model: text(),
    api_url: text(),
    sealed_api_key: text(),
    updated_at: text().notNull(),
    updated_by: text(),
  },
  (t) => [index("ai_settings_user_idx").on(t.user_id)],
);

/**
 * Copilot conversations. `owner` is a user id, or `local` in personal mode where there are no accounts;
 * `user_id` repeats the owner when it names an account, so the sessions die with it. `message_count` is also
 * the seq of the newest message: appending increments it in the statement that locks the row.
 */
export const chatSessions = pgTable(
  "chat_sessions",
  {
    id: text().primaryKey(),
    owner: text().notNull(),
    user_id: text().references(() => users.id, { onDelete: "cascade" }),
    title: text().notNull(),
    summary: text(),
    summarised_through: integer().notNull().default(0),
    created_at: text().notNull(),
    updated_at: text().notNull(),
    message_count: integer().notNull().default(0),
  },
  (t) => [index("chat_sessions_owner_updated_idx").on(t.owner, t.updated_at, t.id), index("chat_sessions_user_idx").on(t.user_id)],
);

/** The messages of a chat session, numbered from 1 per session; they die with their session. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    session_id: text()
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    seq: integer().notNull(),
    role: text({ enum: ["user", "assistant", "tool"] }).notNull(),
    content: text().notNull(),
    metadata: json().$type<Record<string, unknown>>(),
    created_at: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.session_id, t.seq] }),
    check("chat_messages_role_check", sql`${t.role} in ('user', 'assistant', 'tool')`),
  ],
);
