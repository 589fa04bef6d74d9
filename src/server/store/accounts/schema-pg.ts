/** The PostgreSQL tables of this area (accounts with their sessions, access tokens and linked identities); drizzle-kit generates `drizzle/pg/` from every area's. */
import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ownedBy } from "../pg-columns.js";

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
    user_id: ownedBy(() => users.id),
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
    user_id: ownedBy(() => users.id),
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
    user_id: ownedBy(() => users.id),
    login: text(),
    created_at: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.provider_user_id] }), index("oauth_identities_user_idx").on(t.user_id)],
);
