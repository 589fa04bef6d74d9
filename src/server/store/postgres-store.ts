/**
 * The PostgreSQL store, through the `postgres` driver with a small connection pool. Pipeline updates lock
 * the pipeline row (`SELECT … FOR UPDATE`) in a transaction, so concurrent writers queue on the row and each
 * one reads the revision the previous one wrote.
 */
import { and, asc, count, desc, eq, getTableColumns, gt, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import type { PgColumn } from "drizzle-orm/pg-core";
import postgres from "postgres";
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
import { accessTokens, aiSettings, audit, chatMessages, chatSessions, oauthIdentities, pipelineRevisions, pipelines, runs, sessions, shares, templates, users } from "./schema-pg.js";
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

/** How to open the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** A `postgres://` or `postgresql://` connection URL. */
  url: string;
  /** Pool size (default 10). */
  maxConnections?: number;
  clock?: Clock;
}

/** An arbitrary fixed key for the advisory lock that serialises migrations between service instances. */
const MIGRATION_LOCK_KEY = 0x5374726e; // "Strn"

type PgDb = PostgresJsDatabase<Record<string, never>>;

/** The database or a transaction on it: what a read inside a write needs. */
type PgReader = Pick<PgDb, "select">;

/** Connects, applies pending migrations and returns the store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  await migratePostgres(options.url);
  const client = postgres(options.url, { max: options.maxConnections ?? 10, onnotice: () => {} });
  return new PostgresStore(client, drizzle({ client }), options.clock ?? systemClock);
}

/**
 * Applies the pending migrations on one dedicated connection holding an advisory lock: drizzle's migrator
 * checks what is applied before its transaction, so two instances starting together would otherwise both
 * run the first migration.
 */
async function migratePostgres(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder("pg") });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await client.end();
  }
}

/** A case-insensitive "contains" test against a pattern from likePatterns; json columns are matched as text. */
function contains(column: PgColumn, pattern: string): SQL {
  return sql`${column}::text ilike ${pattern} escape ${LIKE_ESCAPE}`;
}

/** Whether any of the columns contains any of the patterns. */
function containsAny(columns: PgColumn[], patterns: string[]): SQL | undefined {
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
function olderThan(at: PgColumn, id: PgColumn, after: KeysetPosition | undefined): SQL | undefined {
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

class PostgresStore implements Store {
  readonly kind = "postgres" as const;

  constructor(
    private readonly client: postgres.Sql,
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createPipeline(input: NewPipeline, options: { quota?: StorageQuota } = {}): Promise<Pipeline> {
    const now = this.now();
    const row = newPipelineRow(input, now);
    await this.insertOrConflict(
      () =>
        this.db.transaction(async (tx) => {
          const revision = revisionRowOf(row, now);
          await this.checkQuotas(tx, row, revision.size_bytes, options.quota);
          await tx.insert(pipelines).values(row);
          await tx.insert(pipelineRevisions).values(revision);
        }),
      `pipeline ${row.id} already exists`,
    );
    return row;
  }

  async getPipeline(id: string): Promise<Pipeline> {
    const [row] = await this.db.select().from(pipelines).where(eq(pipelines.id, id));
    if (row === undefined) throw notFound("pipeline", id);
    return row;
  }

  async listPipelines(query: PipelineQuery = {}): Promise<PipelineSummary[]> {
    return this.db
      .select(SUMMARY_COLUMNS)
      .from(pipelines)
      .where(this.visibleTo(query.visibleTo))
      .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT));
  }

  async updatePipeline(id: string, patch: PipelinePatch, guard: RevisionGuard = {}): Promise<Pipeline> {
    return this.writeNextRevision(id, guard, async () => patch);
  }

  async deletePipeline(id: string): Promise<void> {
    const deleted = await this.db.delete(pipelines).where(eq(pipelines.id, id)).returning({ id: pipelines.id });
    if (deleted.length === 0) throw notFound("pipeline", id);
  }

  async listRevisions(pipelineId: string): Promise<PipelineRevision[]> {
    return this.db.transaction(
      async (tx) => {
        const [exists] = await tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId));
        if (exists === undefined) throw notFound("pipeline", pipelineId);
        return tx
          .select()
          .from(pipelineRevisions)
          .where(eq(pipelineRevisions.pipeline_id, pipelineId))
          .orderBy(desc(pipelineRevisions.revision));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }

  async getRevision(pipelineId: string, revision: number): Promise<PipelineRevision> {
    const row = await this.revisionRow(this.db, pipelineId, revision);
    if (row === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
    return row;
  }

  async rollbackPipeline(pipelineId: string, revision: number, options: RollbackOptions = {}): Promise<Pipeline> {
    return this.writeNextRevision(pipelineId, options, async (tx) => {
      const earlier = await this.revisionRow(tx, pipelineId, revision);
      if (earlier === undefined) throw notFound(`revision ${revision} of pipeline`, pipelineId);
      return { toml_content: earlier.toml_content, name: earlier.name, rules_count: options.rules_count, ...options.derive?.(earlier.toml_content) };
    });
  }

  async pruneRevisions(pipelineId: string, keep: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select({ revision: pipelines.revision }).from(pipelines).where(eq(pipelines.id, pipelineId)).for("update");
      if (current === undefined) throw notFound("pipeline", pipelineId);
      const oldestKept = current.revision - Math.max(1, Math.floor(keep)) + 1;
      const deleted = await tx
        .delete(pipelineRevisions)
        .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), lt(pipelineRevisions.revision, oldestKept)))
        .returning({ id: pipelineRevisions.id });
      return deleted.length;
    });
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
    const [pipelineRows, templateRows] = await Promise.all([
      this.db
        .select()
        .from(pipelines)
        .where(and(pipelineMatch, this.visibleTo(query.visibleTo)))
        .orderBy(desc(pipelines.updated_at), desc(pipelines.id))
        .limit(limit),
      this.db.select().from(templates).where(templateMatch).orderBy(asc(templates.name)).limit(limit),
    ]);
    return { pipelines: pipelineRows, templates: templateRows };
  }

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

  async createUser(input: NewUser): Promise<User> {
    const row = newUserRow(input, this.now());
    try {
      await this.db.insert(users).values(row);
    } catch (error) {
      if (constraintViolation(error) !== "unique") throw error;
      const [taken] = await this.db.select({ id: users.id }).from(users).where(sameUsername(row.username));
      throw new StoreError("CONFLICT", taken ? `the username ${row.username} is taken` : `user ${row.id} already exists`);
    }
    return userOf(row);
  }

  async getUser(id: string): Promise<User> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    if (row === undefined) throw notFound("user", id);
    return userOf(row);
  }

  async findCredentials(username: string): Promise<UserCredentials | null> {
    const [row] = await this.db.select().from(users).where(sameUsername(username));
    return row === undefined ? null : credentialsOf(row);
  }

  async getCredentials(id: string): Promise<UserCredentials | null> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row === undefined ? null : credentialsOf(row);
  }

  async listUsers(): Promise<User[]> {
    // Byte order ("C"), as SQLite sorts, rather than the database's locale, so both stores list alike.
    const rows = await this.db.select().from(users).orderBy(sql`lower(${users.username}) collate "C"`, asc(users.id));
    return rows.map(userOf);
  }

  async updateUser(id: string, patch: UserPatch): Promise<User> {
    const changes = definedFields({ role: patch.role, password_hash: patch.password_hash });
    const [row] = await this.db.update(users).set({ ...changes, updated_at: this.now() }).where(eq(users.id, id)).returning();
    if (row === undefined) throw notFound("user", id);
    return userOf(row);
  }

  async deleteUser(id: string): Promise<void> {
    const deleted = await this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    if (deleted.length === 0) throw notFound("user", id);
  }

  async createSession(input: NewSession): Promise<Session> {
    const row = newSessionRow(input, this.now());
    await this.insertForUser(() => this.db.insert(sessions).values(row), row.user_id, `session ${row.id} already exists`);
    return row;
  }

  async getSession(id: string): Promise<Session | null> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    return row ?? null;
  }

  async touchSession(id: string, fields: { expires_at?: string; last_seen_at: string }): Promise<void> {
    await this.db
      .update(sessions)
      .set(definedFields({ expires_at: fields.expires_at, last_seen_at: fields.last_seen_at }))
      .where(eq(sessions.id, id));
  }

  async listSessions(userId: string): Promise<Session[]> {
    return this.db.select().from(sessions).where(eq(sessions.user_id, userId)).orderBy(desc(sessions.created_at), desc(sessions.id));
  }

  async deleteSession(id: string): Promise<boolean> {
    const deleted = await this.db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
    return deleted.length > 0;
  }

  async deleteUserSessions(userId: string, exceptId?: string): Promise<number> {
    const keep = exceptId === undefined ? undefined : ne(sessions.id, exceptId);
    const deleted = await this.db.delete(sessions).where(and(eq(sessions.user_id, userId), keep)).returning({ id: sessions.id });
    return deleted.length;
  }

  async deleteExpiredSessions(now: string): Promise<number> {
    const deleted = await this.db.delete(sessions).where(lt(sessions.expires_at, storedInstant(now))).returning({ id: sessions.id });
    return deleted.length;
  }

  async createAccessToken(input: NewAccessToken): Promise<AccessToken> {
    const row = newAccessTokenRow(input, this.now());
    await this.insertForUser(() => this.db.insert(accessTokens).values(row), row.user_id, `access token ${row.id} already exists`);
    return row;
  }

  async getAccessToken(id: string): Promise<AccessToken | null> {
    const [row] = await this.db.select().from(accessTokens).where(eq(accessTokens.id, id));
    return row ?? null;
  }

  async listAccessTokens(userId: string): Promise<AccessToken[]> {
    return this.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.user_id, userId))
      .orderBy(desc(accessTokens.created_at), desc(accessTokens.id));
  }

  async touchAccessToken(id: string, lastUsedAt: string): Promise<void> {
    await this.db.update(accessTokens).set({ last_used_at: lastUsedAt }).where(eq(accessTokens.id, id));
  }

  async deleteAccessToken(id: string): Promise<boolean> {
    const deleted = await this.db.delete(accessTokens).where(eq(accessTokens.id, id)).returning({ id: accessTokens.id });
    return deleted.length > 0;
  }

  async linkIdentity(input: NewOAuthIdentity): Promise<OAuthIdentity> {
    const row = newIdentityRow(input, this.now());
    await this.insertForUser(
      () => this.db.insert(oauthIdentities).values(row),
      row.user_id,
      `the ${row.provider} identity ${row.provider_user_id} is linked to an account already`,
    );
    return row;
  }

  async findIdentity(provider: string, providerUserId: string): Promise<OAuthIdentity | null> {
    const [row] = await this.db
      .select()
      .from(oauthIdentities)
      .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.provider_user_id, providerUserId)));
    return row ?? null;
  }

  async listIdentities(userId: string): Promise<OAuthIdentity[]> {
    return this.db
      .select()
      .from(oauthIdentities)
      .where(eq(oauthIdentities.user_id, userId))
      .orderBy(asc(oauthIdentities.created_at), asc(oauthIdentities.provider), asc(oauthIdentities.provider_user_id));
  }

  async createTemplate(input: NewTemplate): Promise<Template> {
    const row = newTemplateRow(input, this.now());
    await this.insertOrConflict(() => this.db.insert(templates).values(row), `template ${row.id} already exists`);
    return row;
  }

  async listTemplates(): Promise<Template[]> {
    return this.db.select().from(templates).orderBy(asc(templates.name), asc(templates.id));
  }

  async getTemplate(id: string): Promise<Template> {
    const [row] = await this.db.select().from(templates).where(eq(templates.id, id));
    if (row === undefined) throw notFound("template", id);
    return row;
  }

  async deleteTemplate(id: string): Promise<void> {
    const deleted = await this.db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
    if (deleted.length === 0) throw notFound("template", id);
  }

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

  async createRun(input: NewRun): Promise<Run> {
    const row = newRunRow(input, this.now());
    await this.insertOrConflict(() => this.db.insert(runs).values(row), `run ${row.id} already exists`);
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

  async getAiSettings(scope: string): Promise<AiSettingsRecord | null> {
    const [row] = await this.db.select(AI_SETTINGS_COLUMNS).from(aiSettings).where(eq(aiSettings.scope, scope));
    return row ?? null;
  }

  async putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord> {
    const row = aiSettingsRow(record, this.now());
    const { scope: _scope, ...changes } = row;
    await this.db
      .insert(aiSettings)
      .values({ ...row, user_id: accountIdOf(row.scope) })
      .onConflictDoUpdate({ target: aiSettings.scope, set: changes });
    return row;
  }

  async deleteAiSettings(scope: string): Promise<void> {
    await this.db.delete(aiSettings).where(eq(aiSettings.scope, scope));
  }

  async createChatSession(input: NewChatSession): Promise<ChatSession> {
    const row = newChatSessionRow(input, this.now());
    await this.insertOrConflict(
      () => this.db.insert(chatSessions).values({ ...row, user_id: accountIdOf(row.owner) }),
      `chat session ${row.id} already exists`,
    );
    return row;
  }

  async getChatSession(id: string): Promise<ChatSession> {
    const [row] = await this.db.select(CHAT_SESSION_COLUMNS).from(chatSessions).where(eq(chatSessions.id, id));
    if (row === undefined) throw notFound("chat session", id);
    return row;
  }

  async listChatSessions(owner: string, query: ChatSessionQuery = {}): Promise<Page<ChatSession>> {
    const limit = clampLimit(query.limit, CHAT_SESSION_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.db
      .select(CHAT_SESSION_COLUMNS)
      .from(chatSessions)
      .where(and(eq(chatSessions.owner, owner), olderThan(chatSessions.updated_at, chatSessions.id, after)))
      .orderBy(desc(chatSessions.updated_at), desc(chatSessions.id))
      .limit(limit + 1);
    return pageFromRows(rows, limit, (row) => ({ at: row.updated_at, id: row.id }));
  }

  async appendChatMessage(input: NewChatMessage): Promise<ChatMessage> {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      // The increment both numbers the message and counts it; its row lock makes a concurrent appender wait
      // for this commit and then increment the count this one wrote.
      const [counted] = await tx
        .update(chatSessions)
        .set({ message_count: sql`${chatSessions.message_count} + 1`, updated_at: now })
        .where(eq(chatSessions.id, input.session_id))
        .returning({ seq: chatSessions.message_count });
      if (counted === undefined) throw notFound("chat session", input.session_id);
      const row = newChatMessageRow(input, counted.seq, now);
      await tx.insert(chatMessages).values(row);
      return row;
    });
  }

  async listChatMessages(sessionId: string, query: ChatMessageQuery = {}): Promise<ChatMessage[]> {
    return this.db.transaction(
      async (tx) => {
        const [exists] = await tx.select({ id: chatSessions.id }).from(chatSessions).where(eq(chatSessions.id, sessionId));
        if (exists === undefined) throw notFound("chat session", sessionId);
        return tx
          .select()
          .from(chatMessages)
          .where(and(eq(chatMessages.session_id, sessionId), query.after === undefined ? undefined : gt(chatMessages.seq, query.after)))
          .orderBy(asc(chatMessages.seq))
          .limit(clampLimit(query.limit, CHAT_MESSAGE_LIMIT));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }

  async setChatSummary(sessionId: string, summary: string, summarisedThrough: number): Promise<void> {
    const changed = await this.db
      .update(chatSessions)
      .set({ summary, summarised_through: summarisedThrough })
      .where(eq(chatSessions.id, sessionId))
      .returning({ id: chatSessions.id });
    if (changed.length === 0) throw notFound("chat session", sessionId);
  }

  async deleteChatSession(id: string): Promise<void> {
    const deleted = await this.db.delete(chatSessions).where(eq(chatSessions.id, id)).returning({ id: chatSessions.id });
    if (deleted.length === 0) throw notFound("chat session", id);
  }

  async ping(): Promise<void> {
    await this.client`select 1`;
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 });
  }

  /**
   * Writes the next revision of a pipeline in one transaction that first locks the pipeline row, so a
   * concurrent writer waits and then reads the revision this one wrote.
   */
  private async writeNextRevision(
    id: string,
    guard: RevisionGuard,
    patchOf: (tx: PgReader) => Promise<PipelinePatch>,
  ): Promise<Pipeline> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(pipelines).where(eq(pipelines.id, id)).for("update");
      if (current === undefined) throw notFound("pipeline", id);
      if (guard.expectedRevision !== undefined && guard.expectedRevision !== current.revision) {
        throw new StoreError("CONFLICT", `pipeline ${id} is at revision ${current.revision}, not ${guard.expectedRevision}`);
      }
      const now = this.now();
      const next: Pipeline = {
        ...current,
        ...definedFields(await patchOf(tx)),
        revision: current.revision + 1,
        updated_at: now,
      };
      const revision = revisionRowOf(next, now);
      await this.checkQuotas(tx, current, revision.size_bytes, guard.quota);
      await tx.update(pipelines).set(next).where(eq(pipelines.id, id));
      await tx.insert(pipelineRevisions).values(revision);
      return next;
    });
  }

  /** Refuses (QUOTA_EXCEEDED) a revision of `added` bytes that the pipeline's or its owner's quota cannot hold. */
  private async checkQuotas(db: PgReader, pipeline: { id: string; owner: string }, added: number, quota: StorageQuota | undefined): Promise<void> {
    if (quota?.pipelineBytes !== undefined) checkQuota("pipeline", await this.revisionBytesIn(db, { pipelineId: pipeline.id }), added, quota.pipelineBytes);
    if (quota?.ownerBytes !== undefined) checkQuota("owner", await this.revisionBytesIn(db, { owner: pipeline.owner }), added, quota.ownerBytes);
  }

  private async revisionBytesIn(db: PgReader, scope: RevisionScope): Promise<number> {
    // sum() of integers is a bigint in PostgreSQL, which the driver hands over as text.
    const total = sql<string>`coalesce(sum(${pipelineRevisions.size_bytes}), 0)`;
    const rows =
      "pipelineId" in scope
        ? await db.select({ total }).from(pipelineRevisions).where(eq(pipelineRevisions.pipeline_id, scope.pipelineId))
        : await db.select({ total }).from(pipelineRevisions).innerJoin(pipelines, eq(pipelines.id, pipelineRevisions.pipeline_id)).where(eq(pipelines.owner, scope.owner));
    return Number(rows[0]?.total ?? 0);
  }

  private async revisionRow(db: PgReader, pipelineId: string, revision: number): Promise<PipelineRevision | undefined> {
    const [row] = await db
      .select()
      .from(pipelineRevisions)
      .where(and(eq(pipelineRevisions.pipeline_id, pipelineId), eq(pipelineRevisions.revision, revision)));
    return row;
  }

  private visibleTo(user: string | undefined): SQL | undefined {
    if (user === undefined) return undefined;
    return or(eq(pipelines.owner, user), eq(pipelines.visibility, "workspace"));
  }

  /** Inserts a row that belongs to an account: NOT_FOUND when the account does not exist, CONFLICT on a taken key. */
  private async insertForUser(insert: () => Promise<unknown>, userId: string, conflict: string): Promise<void> {
    try {
      await insert();
    } catch (error) {
      const violated = constraintViolation(error);
      if (violated === "foreign_key") throw notFound("user", userId);
      if (violated === "unique") throw new StoreError("CONFLICT", conflict);
      throw error;
    }
  }

  private async insertOrConflict(insert: () => Promise<unknown>, message: string): Promise<void> {
    try {
      await insert();
    } catch (error) {
      if (constraintViolation(error) === "unique") throw new StoreError("CONFLICT", message);
      throw error;
    }
  }
}
