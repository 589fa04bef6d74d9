/**
 * Accounts with their sessions, access tokens and linked identities: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */

/** What a user may do (docs/guide/team-and-security.md): everything, own work, or read only. */
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

/** Accounts with their sessions, access tokens and linked identities: what the services may read and change. */
export interface AccountStore {
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
}
