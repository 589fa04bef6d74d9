/**
 * The storage contract the services depend on: plain records in, plain records out, no HTTP and no driver
 * types. Field names follow the API's JSON (snake_case) so services can return records as they are.
 * Timestamps are RFC 3339 UTC strings (`2026-11-21T09:00:00.000Z`) in both implementations.
 */

/** Who may read a saved pipeline besides its owner and administrators. */
export type PipelineVisibility = "private" | "workspace" | "link";

/** The visibilities in the order the API documents them. */
export const PIPELINE_VISIBILITIES: readonly PipelineVisibility[] = ["private", "workspace", "link"];

/** A saved pipeline; `revision` starts at 1 and grows by one on every update or rollback. */
export interface Pipeline {
  id: string;
  name: string;
  version: string | null;
  description: string | null;
  tags: string[];
  toml_content: string;
  visibility: PipelineVisibility;
  owner: string;
  forked_from: string | null;
  rules_count: number;
  created_at: string;
  updated_at: string;
  revision: number;
}

/** A saved pipeline without its text, as listings return it. */
export type PipelineSummary = Omit<Pipeline, "toml_content">;

/** What a caller supplies to save a new pipeline; the store fills in id, timestamps and revision 1. */
export interface NewPipeline {
  id?: string;
  name: string;
  version?: string | null;
  description?: string | null;
  tags?: string[];
  toml_content: string;
  visibility?: PipelineVisibility;
  owner: string;
  forked_from?: string | null;
  rules_count?: number;
}

/** The fields an update may change; absent fields keep their value. */
export type PipelinePatch = Partial<
  Pick<Pipeline, "name" | "version" | "description" | "tags" | "toml_content" | "visibility" | "rules_count">
>;

/**
 * Limits on the revision text kept, checked inside the write that adds a revision: QUOTA_EXCEEDED when the
 * pipeline's revisions, or all revisions of the owner's pipelines, would hold more bytes than this.
 */
export interface StorageQuota {
  pipelineBytes?: number;
  ownerBytes?: number;
}

/** Optimistic concurrency for a pipeline change (CONFLICT unless the revision still matches), and the quota it must fit. */
export interface RevisionGuard {
  expectedRevision?: number;
  quota?: StorageQuota;
}

/** A rollback may also refresh fields derived from the content, which only the engine can compute. */
export interface RollbackOptions extends RevisionGuard {
  rules_count?: number;
  /** Fields read from the restored content (version, description, rule count), computed inside the change. */
  derive?: (toml_content: string) => Partial<Pick<Pipeline, "version" | "description" | "rules_count">>;
}

/** The content and name a pipeline had at one revision (every revision, including the current one). */
export interface PipelineRevision {
  id: string;
  pipeline_id: string;
  revision: number;
  toml_content: string;
  name: string;
  created_at: string;
  /** The UTF-8 size of `toml_content`, what quotas count. */
  size_bytes: number;
}

/** Whose revision text to measure: one pipeline's, or every pipeline of one owner. */
export type RevisionScope = { pipelineId: string } | { owner: string };

/** Which pipelines a listing or search returns. */
export interface PipelineQuery {
  /** At most this many rows (default 50, clamped to 1..100). */
  limit?: number;
  /** Only pipelines this user owns or that are visible to the whole workspace; absent: every pipeline. */
  visibleTo?: string;
}

/** Rows whose name, tags or content contain one of the query's words, for the service to rank. */
export interface SearchCandidates {
  pipelines: Pipeline[];
  templates: Template[];
}

/** Whether a share link can still be used, computed from the store's clock when read. */
export type ShareState = "active" | "expired" | "revoked";

/** A share link token for one pipeline. */
export interface Share {
  token: string;
  pipeline_id: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  state: ShareState;
}

/** What a caller supplies to create a share link; the token defaults to a random URL-safe string. */
export interface NewShare {
  token?: string;
  pipeline_id: string;
  expires_at?: string | null;
}

/** A pipeline template a user added (the built-in ones live with the templates domain, not here). */
export interface Template {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  toml_content: string;
  created_at: string;
  /** The user who added it (only they and administrators may delete it); null for templates older than sign-in. */
  owner: string | null;
}

/** What a caller supplies to add a template. */
export interface NewTemplate {
  id?: string;
  name: string;
  description?: string | null;
  tags?: string[];
  toml_content: string;
  owner?: string | null;
}

/** What a user may do (api-decisions "Authentication"): everything, own work, or read only. */
export type UserRole = "admin" | "user" | "viewer";

/** The roles, most powerful first. */
export const USER_ROLES: readonly UserRole[] = ["admin", "user", "viewer"];

/** An account of a team or hpc service, as the API shows it (never with its password hash). */
export interface User {
  id: string;
  username: string;
  role: UserRole;
  created_at: string;
  updated_at: string;
  /** Whether the account can sign in with a password (accounts made by an OAuth sign-in have none). */
  has_password: boolean;
}

/** An account with its Argon2id password hash, for checking a sign-in; never leaves the auth domain. */
export interface UserCredentials extends User {
  password_hash: string | null;
}

/** What a caller supplies to create an account. CONFLICT when the username is taken. */
export interface NewUser {
  id?: string;
  username: string;
  role: UserRole;
  password_hash?: string | null;
}

/** The fields an account update may change. */
export type UserPatch = Partial<{ role: UserRole; password_hash: string | null }>;

/**
 * A sign-in session. The token the client holds is `<id>.<secret>`; only the SHA-256 of the secret is kept,
 * so a copy of the database signs nobody in.
 */
export interface Session {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** What a caller supplies to open a session; created_at and last_seen_at default to now. */
export interface NewSession {
  id?: string;
  user_id: string;
  secret_hash: string;
  expires_at: string;
  ip?: string | null;
  user_agent?: string | null;
}

/** A personal access token for scripts (`strand_pat_<id>.<secret>` to the client; only the secret's hash kept). */
export interface AccessToken {
  id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** What a caller supplies to create a personal access token. */
export interface NewAccessToken {
  id?: string;
  user_id: string;
  name: string;
  secret_hash: string;
  expires_at?: string | null;
}

/** An external identity (GitHub, ORCID) linked to one account by provider and the provider's user id. */
export interface OAuthIdentity {
  provider: string;
  provider_user_id: string;
  user_id: string;
  /** The provider's login or display name when the link was made (shown, never used to match). */
  login: string | null;
  created_at: string;
}

/** What a caller supplies to link an identity. CONFLICT when the provider identity is linked already. */
export type NewOAuthIdentity = Omit<OAuthIdentity, "created_at">;

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

/** The states of a run; the last three are terminal. */
export type RunStatus = "queued" | "running" | "paused" | "completed" | "failed" | "cancelled";

/** Every run state, in lifecycle order. */
export const RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused", "completed", "failed", "cancelled"];

/** Where a run executes: `{type: local|slurm|…, …backend options}`. */
export interface RunTarget {
  type: string;
  [option: string]: unknown;
}

/**
 * A run's options as the service accepted them, kept with the run (not only in a file of its workspace,
 * which its jobs could rewrite): the runner reads them through its own check of their shape.
 */
export type RunRequestRecord = Record<string, unknown>;

/** Job counts of a run, as the API shows them. */
export interface RunCounts {
  total: number;
  completed: number;
  failed: number;
  running: number;
  skipped: number;
  pending: number;
}

/** A run, with the runner's bookkeeping (workspace, pid, events_path, error) next to the API fields. */
export interface Run {
  id: string;
  status: RunStatus;
  pipeline_id: string | null;
  pipeline_revision: number | null;
  workflow_name: string;
  owner: string;
  target: RunTarget;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  exit_code: number | null;
  counts: RunCounts;
  retry_of: string | null;
  workspace: string | null;
  pid: number | null;
  events_path: string | null;
  error: string | null;
  /** The options the run was started with; null for runs recorded before runs kept them (their request.json). */
  request: RunRequestRecord | null;
}

/** What a caller supplies to record a new run; status defaults to queued, counts to zeros. */
export type NewRun = Partial<Omit<Run, "workflow_name" | "owner">> & Pick<Run, "workflow_name" | "owner">;

/** The fields a run update may change; absent fields keep their value. */
export type RunPatch = Partial<Omit<Run, "id" | "created_at">>;

/** Compare-and-set for run updates, so the runner and a cancel request cannot both win. */
export interface RunUpdateOptions {
  /** Refuse with CONFLICT unless the run is currently in one of these states. */
  expectedStatus?: RunStatus | readonly RunStatus[];
}

/** Which runs a page holds. */
export interface RunQuery {
  /** Page size (default 50, clamped to 1..500). */
  limit?: number;
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor?: string | null;
  status?: RunStatus;
  owner?: string;
  /** A case-insensitive substring of the workflow name. */
  q?: string;
}

/** One page of a keyset listing, newest first. */
export interface Page<T> {
  items: T[];
  /** Pass back to get the following page; null on the last page. */
  next_cursor: string | null;
}

/** A page of runs with the number of runs the filters match. */
export interface RunPage extends Page<Run> {
  total: number;
}

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

/** The scope of the service-wide AI provider settings; every other scope is one user's id. */
export const SERVER_AI_SCOPE = "server";

/** Provider settings: the shared ones (scope "server") or one user's (scope = user id). The key is stored sealed. */
export interface AiSettingsRecord {
  scope: string;
  provider: string;
  model: string | null;
  api_url: string | null;
  /** The API key as SecretBox.seal made it; never the plain key. */
  sealed_api_key: string | null;
  updated_at: string;
  /** The id of the caller who saved these settings. */
  updated_by: string | null;
}

/** A copilot conversation of one user; its messages are numbered 1, 2, … in the order they were appended. */
export interface ChatSession {
  id: string;
  /** A user id in team and hpc modes, `local` in personal mode. */
  owner: string;
  /** What the session was created with; later messages never change it. */
  title: string;
  /** A summary of messages 1..summarised_through, fed to the model instead of those messages; null before the first. */
  summary: string | null;
  summarised_through: number;
  created_at: string;
  /** When the last message was appended (created_at until then). */
  updated_at: string;
  /** How many messages the session holds, which is also the seq of the newest one. */
  message_count: number;
}

/** Who wrote a chat message: the user, the model, or a tool the model called. */
export type ChatRole = "user" | "assistant" | "tool";

/** One message of a chat session. */
export interface ChatMessage {
  session_id: string;
  /** Its place in the session, from 1, without gaps. */
  seq: number;
  role: ChatRole;
  content: string;
  /** Whatever the chat domain keeps beside the text (tool names, arguments, usage); null when nothing. */
  metadata: Record<string, unknown> | null;
  created_at: string;
}

/** What a caller supplies to start a chat session. CONFLICT if the id is taken. */
export interface NewChatSession {
  id?: string;
  owner: string;
  title: string;
}

/** What a caller supplies to append a message; the store numbers it. */
export interface NewChatMessage {
  session_id: string;
  role: ChatRole;
  content: string;
  metadata?: Record<string, unknown> | null;
}

/** Which chat sessions a page holds. */
export interface ChatSessionQuery {
  /** Page size (default 20, clamped to 1..100). */
  limit?: number;
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor?: string | null;
}

/** Which messages of a session to read. */
export interface ChatMessageQuery {
  /** Only messages with a larger seq (e.g. `summarised_through`); absent: from the first. */
  after?: number;
  /** At most this many messages (default and maximum 1000). */
  limit?: number;
}

/** Which storage backs a store, for `GET /api/system` and health reports. */
export type StoreKind = "sqlite" | "postgres";

/**
 * The storage abstraction. Every method is async; expected failures are StoreError values (NOT_FOUND,
 * CONFLICT, INVALID_CURSOR), anything else is a bug or an unreachable database.
 */
export interface Store {
  readonly kind: StoreKind;

  /** Saves a new pipeline at revision 1, recording that revision. CONFLICT if the id is taken, QUOTA_EXCEEDED past `quota`. */
  createPipeline(input: NewPipeline, options?: { quota?: StorageQuota }): Promise<Pipeline>;
  /** The pipeline with this id. NOT_FOUND if there is none. */
  getPipeline(id: string): Promise<Pipeline>;
  /** Pipelines without their text, most recently updated first. */
  listPipelines(query?: PipelineQuery): Promise<PipelineSummary[]>;
  /** Applies a patch as the next revision, atomically; CONFLICT when `expectedRevision` is stale. */
  updatePipeline(id: string, patch: PipelinePatch, guard?: RevisionGuard): Promise<Pipeline>;
  /** Deletes a pipeline with its revisions and share links. NOT_FOUND if there is none. */
  deletePipeline(id: string): Promise<void>;
  /** Every revision of a pipeline, newest first. NOT_FOUND if the pipeline does not exist. */
  listRevisions(pipelineId: string): Promise<PipelineRevision[]>;
  /** One revision of a pipeline by its number. NOT_FOUND if either is missing. */
  getRevision(pipelineId: string, revision: number): Promise<PipelineRevision>;
  /** Restores the content and name of an earlier revision as a new revision. */
  rollbackPipeline(pipelineId: string, revision: number, options?: RollbackOptions): Promise<Pipeline>;
  /** Deletes all but the newest `keep` (at least 1) revisions of a pipeline; how many went. NOT_FOUND for an unknown pipeline. */
  pruneRevisions(pipelineId: string, keep: number): Promise<number>;
  /** Bytes of revision text kept for one pipeline, or for all pipelines of one owner. */
  revisionBytes(scope: RevisionScope): Promise<number>;
  /** Pipelines and templates matching any word of `text` in name, tags or content, unranked. */
  searchCandidates(text: string, query?: PipelineQuery): Promise<SearchCandidates>;

  /** Creates a share link for an existing pipeline. NOT_FOUND for an unknown pipeline, CONFLICT for a used token. */
  createShare(input: NewShare): Promise<Share>;
  /** The share link with this token, whatever its state. NOT_FOUND if there is none. */
  getShare(token: string): Promise<Share>;
  /** The share links of a pipeline, newest first, whatever their state. NOT_FOUND for an unknown pipeline. */
  listShares(pipelineId: string): Promise<Share[]>;
  /** Revokes a share link (keeping the first revocation time); NOT_FOUND unless it belongs to `pipelineId`. */
  revokeShare(pipelineId: string, token: string): Promise<Share>;

  /** Creates an account. CONFLICT if the username (compared case-insensitively) or id is taken. */
  createUser(input: NewUser): Promise<User>;
  /** The account with this id. NOT_FOUND if there is none. */
  getUser(id: string): Promise<User>;
  /** The account with this username (case-insensitive) and its password hash, or null. */
  findCredentials(username: string): Promise<UserCredentials | null>;
  /** The account with this id and its password hash, or null. */
  getCredentials(id: string): Promise<UserCredentials | null>;
  /** Every account, by username. */
  listUsers(): Promise<User[]>;
  /** Changes an account's role or password hash. NOT_FOUND if there is none. */
  updateUser(id: string, patch: UserPatch): Promise<User>;
  /** Deletes an account with its sessions, tokens, linked identities, chat sessions and AI settings. NOT_FOUND if there is none. */
  deleteUser(id: string): Promise<void>;

  /** Opens a session. */
  createSession(input: NewSession): Promise<Session>;
  /** The session with this id, or null (expired ones too: the caller decides). */
  getSession(id: string): Promise<Session | null>;
  /** Moves a session's expiry (sliding renewal) and records when it was last seen. */
  touchSession(id: string, fields: { expires_at?: string; last_seen_at: string }): Promise<void>;
  /** The sessions of one account, newest first. */
  listSessions(userId: string): Promise<Session[]>;
  /** Ends one session; whether it existed. */
  deleteSession(id: string): Promise<boolean>;
  /** Ends every session of an account but `exceptId`; how many ended. */
  deleteUserSessions(userId: string, exceptId?: string): Promise<number>;
  /** Deletes sessions that expired before `now`; how many. */
  deleteExpiredSessions(now: string): Promise<number>;

  /** Creates a personal access token. */
  createAccessToken(input: NewAccessToken): Promise<AccessToken>;
  /** The token with this id, or null. */
  getAccessToken(id: string): Promise<AccessToken | null>;
  /** The tokens of one account, newest first. */
  listAccessTokens(userId: string): Promise<AccessToken[]>;
  /** Records a use of a token. */
  touchAccessToken(id: string, lastUsedAt: string): Promise<void>;
  /** Deletes a token; whether it existed. */
  deleteAccessToken(id: string): Promise<boolean>;

  /** Links an external identity to an account. CONFLICT if that identity is linked already. */
  linkIdentity(input: NewOAuthIdentity): Promise<OAuthIdentity>;
  /** The link of this provider identity, or null. */
  findIdentity(provider: string, providerUserId: string): Promise<OAuthIdentity | null>;
  /** The identities linked to an account. */
  listIdentities(userId: string): Promise<OAuthIdentity[]>;

  /** Adds a template. CONFLICT if the id is taken. */
  createTemplate(input: NewTemplate): Promise<Template>;
  /** Templates by name. */
  listTemplates(): Promise<Template[]>;
  /** The template with this id. NOT_FOUND if there is none. */
  getTemplate(id: string): Promise<Template>;
  /** Deletes a template. NOT_FOUND if there is none. */
  deleteTemplate(id: string): Promise<void>;

  /** Appends one entry to the audit log. */
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Audit entries, newest first, a page at a time. */
  listAudit(query?: AuditQuery): Promise<Page<AuditEntry>>;

  /** Records a new run. CONFLICT if the id is taken. */
  createRun(input: NewRun): Promise<Run>;
  /** The run with this id. NOT_FOUND if there is none. */
  getRun(id: string): Promise<Run>;
  /** Changes some fields of a run. NOT_FOUND if there is none, CONFLICT if `expectedStatus` does not hold. */
  updateRun(id: string, patch: RunPatch, options?: RunUpdateOptions): Promise<Run>;
  /** Runs newest first, a page at a time; pages neither repeat nor skip runs while runs are being created. */
  listRuns(query?: RunQuery): Promise<RunPage>;

  /** The AI settings of a scope (SERVER_AI_SCOPE or a user id), or null when none were saved. */
  getAiSettings(scope: string): Promise<AiSettingsRecord | null>;
  /** Saves the settings of a scope, replacing any earlier ones; updated_at is now. Deleted with the user whose id the scope is. */
  putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord>;
  /** Removes the settings of a scope; nothing happens when there are none. */
  deleteAiSettings(scope: string): Promise<void>;

  /** Starts a chat session without messages. CONFLICT if the id is taken. Deleted with its owner's account. */
  createChatSession(input: NewChatSession): Promise<ChatSession>;
  /** The chat session with this id. NOT_FOUND if there is none. */
  getChatSession(id: string): Promise<ChatSession>;
  /** One owner's chat sessions, most recently updated first, a page at a time. */
  listChatSessions(owner: string, query?: ChatSessionQuery): Promise<Page<ChatSession>>;
  /**
   * Appends a message as the session's next seq (distinct and consecutive under concurrent appends), moving
   * the session's updated_at and message_count. NOT_FOUND for an unknown session.
   */
  appendChatMessage(input: NewChatMessage): Promise<ChatMessage>;
  /** A session's messages by seq ascending. NOT_FOUND for an unknown session. */
  listChatMessages(sessionId: string, query?: ChatMessageQuery): Promise<ChatMessage[]>;
  /** Records the summary of messages 1..summarisedThrough, replacing the previous one. NOT_FOUND for an unknown session. */
  setChatSummary(sessionId: string, summary: string, summarisedThrough: number): Promise<void>;
  /** Deletes a chat session with its messages. NOT_FOUND if there is none. */
  deleteChatSession(id: string): Promise<void>;

  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
  /** Releases the connection(s); the store is unusable afterwards. */
  close(): Promise<void>;
}
