/** Complete accounts with their sessions, access tokens and linked identities rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { AccessToken, NewAccessToken, NewOAuthIdentity, NewSession, NewUser, OAuthIdentity, Session, User, UserCredentials } from "./contract.js";

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
