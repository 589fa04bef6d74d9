/**
 * The embedded store: one SQLite file in WAL mode through better-sqlite3. Writes that read before they
 * write run in `BEGIN IMMEDIATE` transactions, which take the file's write lock up front, so two processes
 * (or two connections) updating the same pipeline queue instead of both reading the same revision.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { and, asc, count, desc, eq, getTableColumns, gt, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { constraintViolation } from "./constraint-violation.js";
import { decodeCursor, pageFromRows, type KeysetPosition } from "./keyset-cursor.js";
import { CHAT_MESSAGE_LIMIT, CHAT_SESSION_LIMIT, clampLimit, PAGE_LIMIT, PIPELINE_LIMIT } from "./listing-limits.js";
import { migrationsFolder } from "./migrations-folder.js";
import {
  aiSettingsRow,
  credentialsOf,
  definedFields,
  newAccessTokenRow,
  newAuditRow,
  newChatMessageRow,
  newChatSessionRow,
  newIdentityRow,
  newPipelineRow,
  newRunRow,
  newSessionRow,
  newShareRow,
  newTemplateRow,
  newUserRow,
  revisionRowOf,
  statusList,
  storedInstant,
  systemClock,
  userOf,
  withShareState,
  type Clock,
} from "./new-records.js";
import { accessTokens, aiSettings, audit, chatMessages, chatSessions, oauthIdentities, pipelineRevisions, pipelines, runs, sessions, shares, templates, users } from "./schema-sqlite.js";
import { LIKE_ESCAPE, likePatterns } from "./search-terms.js";
import type {
  AccessToken,
  AiSettingsRecord,
  AuditEntry,
  AuditQuery,
  ChatMessage,
  ChatMessageQuery,
  ChatSession,
  ChatSessionQuery,
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
  Page,
  Pipeline,
  PipelinePatch,
  PipelineQuery,
  PipelineRevision,
  PipelineSummary,
  RevisionGuard,
  RevisionScope,
  RollbackOptions,
  Run,
  RunPage,
  RunPatch,
  RunQuery,
  RunUpdateOptions,
  SearchCandidates,
  Session,
  Share,
  Store,
  StorageQuota,
  Template,
  User,
  UserCredentials,
  UserPatch,
} from "./store.js";
import { checkQuota, notFound, StoreError } from "./store-error.js";

/** The file name of the embedded database inside the data directory. */
export const SQLITE_FILE_NAME = "strand.db";

/** How long a connection waits for another writer before giving up with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 15_000;

/** How to open the embedded store. */
export interface SqliteStoreOptions {
  /** The service's data directory; created when missing. */
  dataDir: string;
  clock?: Clock;
}

type SqliteDb = BetterSQLite3Database<Record<string, never>>;

/** The database or a transaction on it: what a read inside a write needs. */
type SqliteReader = Pick<SqliteDb, "select">;

/** Opens (creating and migrating when needed) `<dataDir>/strand.db`. */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  mkdirSync(options.dataDir, { recursive: true });
  const client = new Database(join(options.dataDir, SQLITE_FILE_NAME), { timeout: BUSY_TIMEOUT_MS });
  try {
    client.pragma("journal_mode = WAL");
    client.pragma("foreign_keys = ON");
    client.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // NORMAL is durable across application crashes in WAL mode; only a power loss can drop the last commits.
    client.pragma("synchronous = NORMAL");
    const db = drizzle({ client });
    migrateSqlite(db);
    return new SqliteStore(client, db, options.clock ?? systemClock);
  } catch (error) {
    client.close();
    throw error;
  }
}

/**
 * Applies the pending migrations. drizzle's migrator reads the applied list before its transaction, so two
 * processes opening a fresh file together can both try the first migration; the loser's statements fail
 * and roll back, and a second attempt finds the migration applied.
 */
function migrateSqlite(db: SqliteDb): void {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    try {
      migrate(db, { migrationsFolder: migrationsFolder("sqlite") });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** A case-insensitive "contains" test against a pattern from likePatterns (LIKE ignores ASCII case in SQLite). */
function contains(column: SQLiteColumn, pattern: string): SQL {
  return sql`${column} like ${pattern} escape ${LIKE_ESCAPE}`;
}

/** Whether any of the columns contains any of the patterns. */
function containsAny(columns: SQLiteColumn[], patterns: string[]): SQL | undefined {
  return or(...patterns.flatMap((pattern) => columns.map((column) => contains(column, pattern))));
}

/** Every pipeline column but the text, for listings (the text can be large; listings do not show it). */
const { toml_content: _content, ...SUMMARY_COLUMNS } = getTableColumns(pipelines);

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

/** The username comparison of the unique index: `Alice` and `alice` are one account. */
function sameUsername(username: string): SQL {
  return sql`lower(${users.username}) = lower(${username})`;
}

/** Rows after a keyset position in newest-first order: older, or as old with a smaller id. */
function olderThan(at: SQLiteColumn, id: SQLiteColumn, after: KeysetPosition | undefined): SQL | undefined {
  if (after === undefined) return undefined;
  return or(lt(at, after.at), and(eq(at, after.at), lt(id, after.id)));
}

/** The AI settings columns callers see (not the account link). */
const { user_id: _settingsUser, ...AI_SETTINGS_COLUMNS } = getTableColumns(aiSettings);

/** The chat session columns callers see (not the account link). */
const { user_id: _sessionUser, ...CHAT_SESSION_COLUMNS } = getTableColumns(chatSessions);

/**
 * `id` when it names an account, else null: the value of a row's cascading `user_id`, so rows of `local`
 * (personal mode, no accounts) and of the `server` scope are kept while an account's go with it.
 */
function accountIdOf(id: string): SQL<string | null> {
  return sql<string | null>`(select ${sql.identifier("id")} from ${users} where ${sql.identifier("id")} = ${id})`;
}

class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  private pingStatement: Database.Statement | undefined;

  constructor(
    private readonly client: Database.Database,
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async createPipeline(input: NewPipeline, options: { quota?: StorageQuota } = {}): Promise<Pipeline> {
    const now = this.now();
    const row = newPipelineRow(input, now);
    this.db.transaction(
      (tx) => {
        const revision = revisionRowOf(row, now);
        this.checkQuotas(tx, row, revision.size_bytes, options.quota);
        this.insertOrConflict(() => tx.insert(pipelines).values(row).run(), `pipeline ${row.id} already exists`);
        tx.insert(pipelineRevisions).values(revision).run();
      },
      { behavior: "immediate" },
    );
    return row;
  }

  async getPipeline(id: string): Promise<Pipeline> {
    const row = this.db.select().from(pipelines).where(eq(pipelines.id, id)).get();
    if (row === undefined) throw notFound("pipeline", id);
    return row;
  }

  async listPipelines(query: PipelineQuery = {}): Promise<PipelineSummary[]> {
    return this.db
      .select(SUMMARY_COLUMNS)
      .from(pipelines)
      .where(this.visibleTo(query.visibleTo))
      .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT))
      .all();
  }

  async updatePipeline(id: string, patch: PipelinePatch, guard: RevisionGuard = {}): Promise<Pipeline> {
    return this.writeNextRevision(id, guard, () => patch);
  }

  async deletePipeline(id: string): Promise<void> {
    const deleted = this.db.delete(pipelines).where(eq(pipelines.id, id)).returning({ id: pipelines.id }).all();
    if (deleted.length === 0) throw notFound("pipeline", id);
  }

  async listRevisions(pipelineId: string): Promise<PipelineRevision[]> {
    return this.db.transaction((tx) => {
      const exists = tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId)).get();
      if (exists === undefined) throw notFound("pipeline", pipelineId);
      return tx
        .select()
        .from(pipelineRevisions)
        .where(eq(pipelineRevisions.pipeline_id, pipelineId))
        .orderBy(desc(pipelineRevisions.revision))
        .all();
    });
  }

  async getRevision(pipelineId: string, revision: number): Promise<PipelineRevision> {
    const row = this.revisionRow(this.db, pipelineId, revision);
    if (row === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
    return row;
  }

  async rollbackPipeline(pipelineId: string, revision: number, options: RollbackOptions = {}): Promise<Pipeline> {
    return this.writeNextRevision(pipelineId, options, (tx) => {
      const earlier = this.revisionRow(tx, pipelineId, revision);
      if (earlier === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
      return { toml_content: earlier.toml_content, name: earlier.name, rules_count: options.rules_count, ...options.derive?.(earlier.toml_content) };
    });
  }

  async pruneRevisions(pipelineId: string, keep: number): Promise<number> {
    return this.db.transaction(
      (tx) => {
        const current = tx.select({ revision: pipelines.revision }).from(pipelines).where(eq(pipelines.id, pipelineId)).get();
        if (current === undefined) throw notFound("pipeline", pipelineId);
        const oldestKept = current.revision - Math.max(1, Math.floor(keep)) + 1;
        return tx
          .delete(pipelineRevisions)
          .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), lt(pipelineRevisions.revision, oldestKept)))
          .run().changes;
      },
      { behavior: "immediate" },
    );
  }

  async revisionBytes(scope: RevisionScope): Promise<number> {
    return this.revisionBytesIn(this.db, scope);
  }

  async searchCandidates(text: string, query: PipelineQuery = {}): Promise<SearchCandidates> {
    const patterns = likePatterns(text);
    if (patterns.length === 0) return { pipelines: [], templates: [] };
    const limit = clampLimit(query.limit, PIPELINE_LIMIT);
    const pipelineMatch = containsAny([pipelines.name, pipelines.tags, pipelines.toml_content], patterns);
    const templateMatch = containsAny([templates.name, templates.tags, templates.toml_content], patterns);
    return this.db.transaction((tx) => ({
      pipelines: tx
        .select()
        .from(pipelines)
        .where(and(pipelineMatch, this.visibleTo(query.visibleTo)))
        .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
        .limit(limit)
        .all(),
      templates: tx.select().from(templates).where(templateMatch).orderBy(asc(templates.name)).limit(limit).all(),
    }));
  }

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

  async createUser(input: NewUser): Promise<User> {
    const row = newUserRow(input, this.now());
    try {
      this.db.insert(users).values(row).run();
    } catch (error) {
      if (constraintViolation(error) !== "unique") throw error;
      const taken = this.db.select({ id: users.id }).from(users).where(sameUsername(row.username)).get();
      throw new StoreError("CONFLICT", taken ? `the username ${row.username} is taken` : `user ${row.id} already exists`);
    }
    return userOf(row);
  }

  async getUser(id: string): Promise<User> {
    const row = this.db.select().from(users).where(eq(users.id, id)).get();
    if (row === undefined) throw notFound("user", id);
    return userOf(row);
  }

  async findCredentials(username: string): Promise<UserCredentials | null> {
    const row = this.db.select().from(users).where(sameUsername(username)).get();
    return row === undefined ? null : credentialsOf(row);
  }

  async getCredentials(id: string): Promise<UserCredentials | null> {
    const row = this.db.select().from(users).where(eq(users.id, id)).get();
    return row === undefined ? null : credentialsOf(row);
  }

  async listUsers(): Promise<User[]> {
    return this.db.select().from(users).orderBy(sql`lower(${users.username})`, asc(users.id)).all().map(userOf);
  }

  async updateUser(id: string, patch: UserPatch): Promise<User> {
    const changes = definedFields({ role: patch.role, password_hash: patch.password_hash });
    const row = this.db.update(users).set({ ...changes, updated_at: this.now() }).where(eq(users.id, id)).returning().get();
    if (row === undefined) throw notFound("user", id);
    return userOf(row);
  }

  async deleteUser(id: string): Promise<void> {
    const deleted = this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id }).all();
    if (deleted.length === 0) throw notFound("user", id);
  }

  async createSession(input: NewSession): Promise<Session> {
    const row = newSessionRow(input, this.now());
    this.insertForUser(() => this.db.insert(sessions).values(row).run(), row.user_id, `session ${row.id} already exists`);
    return row;
  }

  async getSession(id: string): Promise<Session | null> {
    return this.db.select().from(sessions).where(eq(sessions.id, id)).get() ?? null;
  }

  async touchSession(id: string, fields: { expires_at?: string; last_seen_at: string }): Promise<void> {
    this.db
      .update(sessions)
      .set(definedFields({ expires_at: fields.expires_at, last_seen_at: fields.last_seen_at }))
      .where(eq(sessions.id, id))
      .run();
  }

  async listSessions(userId: string): Promise<Session[]> {
    return this.db.select().from(sessions).where(eq(sessions.user_id, userId)).orderBy(desc(sessions.created_at), desc(sessions.id)).all();
  }

  async deleteSession(id: string): Promise<boolean> {
    return this.db.delete(sessions).where(eq(sessions.id, id)).run().changes > 0;
  }

  async deleteUserSessions(userId: string, exceptId?: string): Promise<number> {
    const keep = exceptId === undefined ? undefined : ne(sessions.id, exceptId);
    return this.db.delete(sessions).where(and(eq(sessions.user_id, userId), keep)).run().changes;
  }

  async deleteExpiredSessions(now: string): Promise<number> {
    return this.db.delete(sessions).where(lt(sessions.expires_at, storedInstant(now))).run().changes;
  }

  async createAccessToken(input: NewAccessToken): Promise<AccessToken> {
    const row = newAccessTokenRow(input, this.now());
    this.insertForUser(() => this.db.insert(accessTokens).values(row).run(), row.user_id, `access token ${row.id} already exists`);
    return row;
  }

  async getAccessToken(id: string): Promise<AccessToken | null> {
    return this.db.select().from(accessTokens).where(eq(accessTokens.id, id)).get() ?? null;
  }

  async listAccessTokens(userId: string): Promise<AccessToken[]> {
    return this.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.user_id, userId))
      .orderBy(desc(accessTokens.created_at), desc(accessTokens.id))
      .all();
  }

  async touchAccessToken(id: string, lastUsedAt: string): Promise<void> {
    this.db.update(accessTokens).set({ last_used_at: lastUsedAt }).where(eq(accessTokens.id, id)).run();
  }

  async deleteAccessToken(id: string): Promise<boolean> {
    return this.db.delete(accessTokens).where(eq(accessTokens.id, id)).run().changes > 0;
  }

  async linkIdentity(input: NewOAuthIdentity): Promise<OAuthIdentity> {
    const row = newIdentityRow(input, this.now());
    this.insertForUser(
      () => this.db.insert(oauthIdentities).values(row).run(),
      row.user_id,
      `the ${row.provider} identity ${row.provider_user_id} is linked to an account already`,
    );
    return row;
  }

  async findIdentity(provider: string, providerUserId: string): Promise<OAuthIdentity | null> {
    return (
      this.db
        .select()
        .from(oauthIdentities)
        .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.provider_user_id, providerUserId)))
        .get() ?? null
    );
  }

  async listIdentities(userId: string): Promise<OAuthIdentity[]> {
    return this.db
      .select()
      .from(oauthIdentities)
      .where(eq(oauthIdentities.user_id, userId))
      .orderBy(asc(oauthIdentities.created_at), asc(oauthIdentities.provider), asc(oauthIdentities.provider_user_id))
      .all();
  }

  async createTemplate(input: NewTemplate): Promise<Template> {
    const row = newTemplateRow(input, this.now());
    this.insertOrConflict(() => this.db.insert(templates).values(row).run(), `template ${row.id} already exists`);
    return row;
  }

  async listTemplates(): Promise<Template[]> {
    return this.db.select().from(templates).orderBy(asc(templates.name), asc(templates.id)).all();
  }

  async getTemplate(id: string): Promise<Template> {
    const row = this.db.select().from(templates).where(eq(templates.id, id)).get();
    if (row === undefined) throw notFound("template", id);
    return row;
  }

  async deleteTemplate(id: string): Promise<void> {
    const deleted = this.db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id }).all();
    if (deleted.length === 0) throw notFound("template", id);
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const row = newAuditRow(entry, this.now());
    this.db.insert(audit).values(row).run();
    return row;
  }

  async listAudit(query: AuditQuery = {}): Promise<Page<AuditEntry>> {
    const limit = clampLimit(query.limit, PAGE_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = this.db
      .select()
      .from(audit)
      .where(and(auditFilters(query), olderThan(audit.time, audit.id, after)))
      .orderBy(desc(audit.time), desc(audit.id))
      .limit(limit + 1)
      .all();
    return pageFromRows(rows, limit, (row) => ({ at: row.time, id: row.id }));
  }

  async createRun(input: NewRun): Promise<Run> {
    const row = newRunRow(input, this.now());
    this.insertOrConflict(() => this.db.insert(runs).values(row).run(), `run ${row.id} already exists`);
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

  async getAiSettings(scope: string): Promise<AiSettingsRecord | null> {
    return this.db.select(AI_SETTINGS_COLUMNS).from(aiSettings).where(eq(aiSettings.scope, scope)).get() ?? null;
  }

  async putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord> {
    const row = aiSettingsRow(record, this.now());
    const { scope: _scope, ...changes } = row;
    this.db
      .insert(aiSettings)
      .values({ ...row, user_id: accountIdOf(row.scope) })
      .onConflictDoUpdate({ target: aiSettings.scope, set: changes })
      .run();
    return row;
  }

  async deleteAiSettings(scope: string): Promise<void> {
    this.db.delete(aiSettings).where(eq(aiSettings.scope, scope)).run();
  }

  async createChatSession(input: NewChatSession): Promise<ChatSession> {
    const row = newChatSessionRow(input, this.now());
    this.insertOrConflict(
      () => this.db.insert(chatSessions).values({ ...row, user_id: accountIdOf(row.owner) }).run(),
      `chat session ${row.id} already exists`,
    );
    return row;
  }

  async getChatSession(id: string): Promise<ChatSession> {
    const row = this.db.select(CHAT_SESSION_COLUMNS).from(chatSessions).where(eq(chatSessions.id, id)).get();
    if (row === undefined) throw notFound("chat session", id);
    return row;
  }

  async listChatSessions(owner: string, query: ChatSessionQuery = {}): Promise<Page<ChatSession>> {
    const limit = clampLimit(query.limit, CHAT_SESSION_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = this.db
      .select(CHAT_SESSION_COLUMNS)
      .from(chatSessions)
      .where(and(eq(chatSessions.owner, owner), olderThan(chatSessions.updated_at, chatSessions.id, after)))
      .orderBy(desc(chatSessions.updated_at), desc(chatSessions.id))
      .limit(limit + 1)
      .all();
    return pageFromRows(rows, limit, (row) => ({ at: row.updated_at, id: row.id }));
  }

  async appendChatMessage(input: NewChatMessage): Promise<ChatMessage> {
    const now = this.now();
    return this.db.transaction(
      (tx) => {
        // The increment both numbers the message and counts it; the write lock keeps other appenders out until commit.
        const counted = tx
          .update(chatSessions)
          .set({ message_count: sql`${chatSessions.message_count} + 1`, updated_at: now })
          .where(eq(chatSessions.id, input.session_id))
          .returning({ seq: chatSessions.message_count })
          .get();
        if (counted === undefined) throw notFound("chat session", input.session_id);
        const row = newChatMessageRow(input, counted.seq, now);
        tx.insert(chatMessages).values(row).run();
        return row;
      },
      { behavior: "immediate" },
    );
  }

  async listChatMessages(sessionId: string, query: ChatMessageQuery = {}): Promise<ChatMessage[]> {
    return this.db.transaction((tx) => {
      const exists = tx.select({ id: chatSessions.id }).from(chatSessions).where(eq(chatSessions.id, sessionId)).get();
      if (exists === undefined) throw notFound("chat session", sessionId);
      return tx
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.session_id, sessionId), query.after === undefined ? undefined : gt(chatMessages.seq, query.after)))
        .orderBy(asc(chatMessages.seq))
        .limit(clampLimit(query.limit, CHAT_MESSAGE_LIMIT))
        .all();
    });
  }

  async setChatSummary(sessionId: string, summary: string, summarisedThrough: number): Promise<void> {
    const changed = this.db
      .update(chatSessions)
      .set({ summary, summarised_through: summarisedThrough })
      .where(eq(chatSessions.id, sessionId))
      .run().changes;
    if (changed === 0) throw notFound("chat session", sessionId);
  }

  async deleteChatSession(id: string): Promise<void> {
    const deleted = this.db.delete(chatSessions).where(eq(chatSessions.id, id)).run().changes;
    if (deleted === 0) throw notFound("chat session", id);
  }

  async ping(): Promise<void> {
    // Prepared once: health probes call this on every request.
    this.pingStatement ??= this.client.prepare("select 1");
    this.pingStatement.get();
  }

  async close(): Promise<void> {
    if (this.client.open) this.client.close();
  }

  /**
   * Writes the next revision of a pipeline inside one IMMEDIATE transaction: the read of the current
   * revision and the write of revision + 1 cannot interleave with another writer's.
   */
  private writeNextRevision(id: string, guard: RevisionGuard, patchOf: (tx: SqliteReader) => PipelinePatch): Pipeline {
    return this.db.transaction(
      (tx) => {
        const current = tx.select().from(pipelines).where(eq(pipelines.id, id)).get();
        if (current === undefined) throw notFound("pipeline", id);
        if (guard.expectedRevision !== undefined && guard.expectedRevision !== current.revision) {
          throw new StoreError(
            "CONFLICT",
            `pipeline ${id} is at revision ${current.revision}, not ${guard.expectedRevision}`,
          );
        }
        const now = this.now();
        const next: Pipeline = {
          ...current,
          ...definedFields(patchOf(tx)),
          revision: current.revision + 1,
          updated_at: now,
        };
        const revision = revisionRowOf(next, now);
        this.checkQuotas(tx, current, revision.size_bytes, guard.quota);
        tx.update(pipelines).set(next).where(eq(pipelines.id, id)).run();
        tx.insert(pipelineRevisions).values(revision).run();
        return next;
      },
      { behavior: "immediate" },
    );
  }

  /** Refuses (QUOTA_EXCEEDED) a revision of `added` bytes that the pipeline's or its owner's quota cannot hold. */
  private checkQuotas(db: SqliteReader, pipeline: { id: string; owner: string }, added: number, quota: StorageQuota | undefined): void {
    if (quota?.pipelineBytes !== undefined) checkQuota("pipeline", this.revisionBytesIn(db, { pipelineId: pipeline.id }), added, quota.pipelineBytes);
    if (quota?.ownerBytes !== undefined) checkQuota("owner", this.revisionBytesIn(db, { owner: pipeline.owner }), added, quota.ownerBytes);
  }

  private revisionBytesIn(db: SqliteReader, scope: RevisionScope): number {
    const total = sql<number>`coalesce(sum(${pipelineRevisions.size_bytes}), 0)`;
    if ("pipelineId" in scope) return db.select({ total }).from(pipelineRevisions).where(eq(pipelineRevisions.pipeline_id, scope.pipelineId)).get()?.total ?? 0;
    return (
      db
        .select({ total })
        .from(pipelineRevisions)
        .innerJoin(pipelines, eq(pipelines.id, pipelineRevisions.pipeline_id))
        .where(eq(pipelines.owner, scope.owner))
        .get()?.total ?? 0
    );
  }

  private revisionRow(db: SqliteReader, pipelineId: string, revision: number): PipelineRevision | undefined {
    return db
      .select()
      .from(pipelineRevisions)
      .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), eq(pipelineRevisions.revision, revision)))
      .get();
  }

  private visibleTo(user: string | undefined): SQL | undefined {
    if (user === undefined) return undefined;
    return or(eq(pipelines.owner, user), eq(pipelines.visibility, "workspace"));
  }

  /** Inserts a row that belongs to an account: NOT_FOUND when the account does not exist, CONFLICT on a taken key. */
  private insertForUser(insert: () => unknown, userId: string, conflict: string): void {
    try {
      insert();
    } catch (error) {
      const violated = constraintViolation(error);
      if (violated === "foreign_key") throw notFound("user", userId);
      if (violated === "unique") throw new StoreError("CONFLICT", conflict);
      throw error;
    }
  }

  private insertOrConflict(insert: () => unknown, message: string): void {
    try {
      insert();
    } catch (error) {
      if (constraintViolation(error) === "unique") throw new StoreError("CONFLICT", message);
      throw error;
    }
  }
}
