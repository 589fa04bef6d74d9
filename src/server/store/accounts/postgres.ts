/** Accounts with their sessions, access tokens and linked identities in PostgreSQL. */
import { and, asc, desc, eq, lt, ne, sql, type SQL } from "drizzle-orm";
import { constraintViolation } from "../constraint-violation.js";
import { insertForUser, type PgDb } from "../postgres-queries.js";
import { type Clock, definedFields, storedInstant } from "../record-fields.js";
import { notFound, StoreError } from "../store-error.js";
import type { AccessToken, AccountStore, NewAccessToken, NewOAuthIdentity, NewSession, NewUser, OAuthIdentity, Session, User, UserCredentials, UserPatch } from "./contract.js";
import { credentialsOf, newAccessTokenRow, newIdentityRow, newSessionRow, newUserRow, userOf } from "./rows.js";
import { accessTokens, oauthIdentities, sessions, users } from "./schema-pg.js";

/** The username comparison of the unique index: `Alice` and `alice` are one account. */
function sameUsername(username: string): SQL {
  return sql`lower(${users.username}) = lower(${username})`;
}

/** Accounts with their sessions, access tokens and linked identities in the PostgreSQL database. */
export class PostgresAccountStore implements AccountStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

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
    await insertForUser(() => this.db.insert(sessions).values(row), row.user_id, `session ${row.id} already exists`);
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
    await insertForUser(() => this.db.insert(accessTokens).values(row), row.user_id, `access token ${row.id} already exists`);
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
    await insertForUser(
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
}
