/**
 * Sign-in: password sign-in into sessions with sliding expiry, the credential check behind every request,
 * the caller's sessions, password and personal access tokens, and account management by administrators.
 * Free of HTTP: routes and the authentication middleware call it with plain values. A deleted account's
 * sessions and tokens go with it (the store cascades), and roles are read on every request, so deleting or
 * demoting a user takes effect on their next request. What outlives a request (an open event stream) is
 * told of every ended credential and changed account through `onCredentialChange`, and re-checks its
 * credential with `currentCaller`.
 */
import type { Caller } from "../../caller.js";
import type { CredentialChange, CredentialRef } from "../../credential-changes.js";
import { ServiceError } from "../../errors.js";
import type { Authentication } from "../../middleware/authentication.js";
import type { Logger } from "../../logger.js";
import type { AccessToken, AccountStore, Session, User, UserRole } from "../../store/accounts/contract.js";
import type { AuditStore } from "../../store/audit/contract.js";
import { StoreError } from "../../store/store-error.js";
import { mintToken, parseToken, secretMatches } from "./credential-tokens.js";
import { checkNewPassword, hashPassword, verifyPassword } from "./passwords.js";
import { checkNewUsername, refuseLookAlike, SIGN_IN_USERNAME } from "./usernames.js";

/** How long sessions last (renewed while used) and how often their last use is written. */
export interface SessionSettings {
  /** A session expires this long after its last renewal (default 7 days). */
  ttlMs: number;
}

/** Where a request comes from, kept with its session. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export type { Authentication };

/** A signed-in session as the login answer shows it. */
export interface SignedIn {
  token: string;
  expires_at: string;
  user: { id: string; username: string; role: UserRole };
  session: Session;
}

/** A session as its owner sees it in the listing. */
export interface SessionView {
  id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

/** A personal access token as the listing shows it (never its secret). */
export interface AccessTokenView {
  id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** Writes of `last_seen_at` / `last_used_at` are skipped when the previous one is this recent. */
const TOUCH_INTERVAL_MS = 60_000;

/** The default session lifetime. */
export const DEFAULT_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/** What a caller is, from an account. */
export function callerFromUser(user: Pick<User, "id" | "username" | "role">): Caller {
  return { id: user.id, username: user.username, role: user.role, admin: user.role === "admin" };
}

/** The account fields every answer shows. */
function userSummary(user: User): { id: string; username: string; role: UserRole } {
  return { id: user.id, username: user.username, role: user.role };
}

const failedSignIn = () =>
  new ServiceError("AUTH_FAILED", "wrong username or password", { suggestion: "check the username and password; an administrator can reset a forgotten password" });

/** Sign-in and accounts over a store. */
export class AuthService {
  private readonly listeners: ((change: CredentialChange) => void)[] = [];

  constructor(
    private readonly store: AccountStore & AuditStore,
    private readonly settings: SessionSettings = { ttlMs: DEFAULT_SESSION_TTL_MS },
    private readonly now: () => number = Date.now,
  ) {}

  private iso(offsetMs = 0): string {
    return new Date(this.now() + offsetMs).toISOString();
  }

  /** Calls `listener` after every change that ends a credential or changes what an account may do, in this process. */
  onCredentialChange(listener: (change: CredentialChange) => void): void {
    this.listeners.push(listener);
  }

  private notify(change: CredentialChange): void {
    // A listener that fails must not undo a sign-out or a revocation that has already been stored.
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // The periodic re-check of long-lived requests is the backstop.
      }
    }
  }

  /**
   * Who a credential stands for now, or null when it no longer works (signed out, revoked, expired, the
   * account gone). Unlike `authenticate` it neither renews nor touches anything: an open event stream
   * re-checks with it, and must not keep an unused session alive.
   */
  async currentCaller(credential: CredentialRef): Promise<Caller | null> {
    const now = this.now();
    const held = credential.via === "session" ? await this.store.getSession(credential.id) : await this.store.getAccessToken(credential.id);
    if (!held || (held.expires_at !== null && Date.parse(held.expires_at) <= now)) return null;
    const user = await this.userOrNull(held.user_id);
    return user ? callerFromUser(user) : null;
  }

  /** Checks a username and password and opens a session. AUTH_FAILED for either being wrong (never which). */
  async login(username: string, password: string, origin: RequestOrigin): Promise<SignedIn> {
    const credentials = SIGN_IN_USERNAME.test(username) ? await this.store.findCredentials(username) : null;
    const matches = await verifyPassword(credentials?.password_hash ?? null, password);
    if (!credentials || !matches) throw failedSignIn();
    return this.openSession(credentials, origin);
  }

  /** Opens a session for an account that proved who it is (a password, or an external identity). */
  async openSession(user: User, origin: RequestOrigin): Promise<SignedIn> {
    const minted = mintToken("session");
    const session = await this.store.createSession({
      id: minted.id,
      user_id: user.id,
      secret_hash: minted.secretHash,
      expires_at: this.iso(this.settings.ttlMs),
      ip: origin.ip,
      user_agent: origin.userAgent?.slice(0, 256) ?? null,
    });
    return { token: minted.token, expires_at: session.expires_at, user: userSummary(user), session };
  }

  /** Checks a presented session token or personal access token; renews a session past half its life. */
  async authenticate(token: string): Promise<Authentication> {
    const presented = parseToken(token);
    if (!presented) return { ok: false };
    const now = this.now();
    if (presented.kind === "access-token") {
      const stored = await this.store.getAccessToken(presented.id);
      if (!stored || !secretMatches(presented.secret, stored.secret_hash)) return { ok: false };
      if (stored.expires_at !== null && Date.parse(stored.expires_at) <= now) return { ok: false };
      const user = await this.userOrNull(stored.user_id);
      if (!user) return { ok: false };
      if (!stored.last_used_at || now - Date.parse(stored.last_used_at) > TOUCH_INTERVAL_MS) await this.store.touchAccessToken(stored.id, this.iso());
      return { ok: true, caller: callerFromUser(user), via: "access-token", token: stored };
    }
    const session = await this.store.getSession(presented.id);
    if (!session || !secretMatches(presented.secret, session.secret_hash)) return { ok: false };
    const expires = Date.parse(session.expires_at);
    if (expires <= now) {
      await this.store.deleteSession(session.id);
      return { ok: false };
    }
    const user = await this.userOrNull(session.user_id);
    if (!user) return { ok: false };
    const renew = expires - now < this.settings.ttlMs / 2;
    if (renew || now - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS) {
      const fields = { last_seen_at: this.iso(), ...(renew ? { expires_at: this.iso(this.settings.ttlMs) } : {}) };
      await this.store.touchSession(session.id, fields);
      Object.assign(session, fields);
    }
    return { ok: true, caller: callerFromUser(user), via: "session", session, renewed: renew };
  }

  private async userOrNull(id: string): Promise<User | null> {
    try {
      return await this.store.getUser(id);
    } catch (error) {
      if (error instanceof StoreError && error.code === "NOT_FOUND") return null;
      throw error;
    }
  }

  /** Ends a session. */
  async logout(sessionId: string): Promise<void> {
    await this.store.deleteSession(sessionId);
    this.notify({ kind: "session-ended", sessionId });
  }

  /** The caller's account. */
  async account(userId: string): Promise<User> {
    return this.store.getUser(userId);
  }

  /** The caller's sessions, the current one marked. */
  async sessions(userId: string, currentId: string | null): Promise<SessionView[]> {
    const now = this.now();
    return (await this.store.listSessions(userId))
      .filter((session) => Date.parse(session.expires_at) > now)
      .map((session) => ({
        id: session.id,
        created_at: session.created_at,
        expires_at: session.expires_at,
        last_seen_at: session.last_seen_at,
        ip: session.ip,
        user_agent: session.user_agent,
        current: session.id === currentId,
      }));
  }

  /** Ends one of the caller's sessions; another user's session is NOT_FOUND. */
  async revokeSession(userId: string, sessionId: string): Promise<void> {
    const session = await this.store.getSession(sessionId);
    if (!session || session.user_id !== userId) throw new ServiceError("NOT_FOUND", `no session ${sessionId}`, { suggestion: "GET /api/auth/sessions lists your sessions" });
    await this.store.deleteSession(sessionId);
    this.notify({ kind: "session-ended", sessionId });
  }

  /** Changes the caller's password after checking the current one; ends their other sessions. */
  async changePassword(userId: string, currentSessionId: string | null, currentPassword: string, newPassword: string): Promise<{ sessions_ended: number }> {
    const credentials = await this.store.getCredentials(userId);
    if (!credentials) throw new ServiceError("NOT_FOUND", "your account no longer exists");
    if (credentials.password_hash !== null && !(await verifyPassword(credentials.password_hash, currentPassword))) {
      throw new ServiceError("AUTH_FAILED", "the current password is wrong", { suggestion: "type your current password; an administrator can reset it" });
    }
    checkNewPassword(newPassword, "new_password");
    await this.store.updateUser(userId, { password_hash: await hashPassword(newPassword) });
    const ended = await this.store.deleteUserSessions(userId, currentSessionId ?? undefined);
    this.notify({ kind: "sessions-ended", userId, exceptSessionId: currentSessionId });
    return { sessions_ended: ended };
  }

  /** Creates a personal access token; the token itself is in this answer only. */
  async createAccessToken(userId: string, name: string, expiresInDays: number | null): Promise<AccessTokenView & { token: string }> {
    const minted = mintToken("access-token");
    const stored = await this.store.createAccessToken({
      id: minted.id,
      user_id: userId,
      name,
      secret_hash: minted.secretHash,
      expires_at: expiresInDays === null ? null : this.iso(expiresInDays * 24 * 3600 * 1000),
    });
    return { ...tokenView(stored), token: minted.token };
  }

  /** The caller's personal access tokens. */
  async accessTokens(userId: string): Promise<AccessTokenView[]> {
    return (await this.store.listAccessTokens(userId)).map(tokenView);
  }

  /** Deletes one of the caller's tokens; another user's token is NOT_FOUND. */
  async deleteAccessToken(userId: string, tokenId: string): Promise<void> {
    const token = await this.store.getAccessToken(tokenId);
    if (!token || token.user_id !== userId) throw new ServiceError("NOT_FOUND", `no token ${tokenId}`, { suggestion: "GET /api/auth/tokens lists your tokens" });
    await this.store.deleteAccessToken(tokenId);
    this.notify({ kind: "token-revoked", tokenId });
  }

  /** Every account. */
  async users(): Promise<User[]> {
    return this.store.listUsers();
  }

  /** Creates an account with a password. CONFLICT when the username is taken or looks like a taken one. */
  async createUser(username: string, password: string, role: UserRole): Promise<User> {
    checkNewUsername(username);
    checkNewPassword(password);
    refuseLookAlike(username, await this.store.listUsers());
    try {
      return await this.store.createUser({ username, role, password_hash: await hashPassword(password) });
    } catch (error) {
      if (error instanceof StoreError && error.code === "CONFLICT") {
        throw new ServiceError("CONFLICT", `the username '${username}' is taken`, { suggestion: "choose another username (names are compared without regard to case)" });
      }
      throw error;
    }
  }

  /** Changes an account's role or resets its password; the last administrator cannot be demoted. */
  async updateUser(id: string, patch: { role?: UserRole; password?: string }): Promise<User> {
    const user = await this.store.getUser(id);
    if (patch.role !== undefined && patch.role !== "admin" && user.role === "admin") await this.keepOneAdministrator(id, "demote");
    if (patch.password !== undefined) checkNewPassword(patch.password);
    const updated = await this.store.updateUser(id, {
      ...(patch.role !== undefined ? { role: patch.role } : {}),
      ...(patch.password !== undefined ? { password_hash: await hashPassword(patch.password) } : {}),
    });
    // A reset password (an account thought compromised) ends its sessions and revokes its tokens.
    if (patch.password !== undefined) await this.revokeCredentials(id);
    if (patch.password !== undefined || updated.role !== user.role) this.notify({ kind: "account-changed", userId: id });
    return updated;
  }

  /** Deletes an account with its sessions, tokens and linked identities; the last administrator stays. */
  async deleteUser(id: string): Promise<void> {
    const user = await this.store.getUser(id);
    if (user.role === "admin") await this.keepOneAdministrator(id, "delete");
    await this.store.deleteUser(id);
    this.notify({ kind: "account-changed", userId: id });
  }

  private async keepOneAdministrator(id: string, verb: "delete" | "demote"): Promise<void> {
    const admins = (await this.store.listUsers()).filter((user) => user.role === "admin" && user.id !== id);
    if (admins.length === 0) {
      throw new ServiceError("CONFLICT", `cannot ${verb} the last administrator`, { suggestion: "make another account an administrator first" });
    }
  }

  /**
   * Creates the account `username` with this password and role, or resets the password and role of an
   * existing one (SERVICE_ADMIN_PASSWORD at start, `strand user add`). Existing sessions of a reset account end.
   */
  async setAccount(username: string, password: string, role: UserRole | undefined, source: "strand user add" | "SERVICE_ADMIN_PASSWORD" = "strand user add"): Promise<{ user: User; created: boolean; changed: boolean }> {
    checkNewPassword(password);
    const existing = SIGN_IN_USERNAME.test(username) ? await this.store.findCredentials(username) : null;
    if (!existing) {
      checkNewUsername(username);
      refuseLookAlike(username, await this.store.listUsers());
    }
    const password_hash = await hashPassword(password);
    if (!existing) {
      const user = await this.store.createUser({ username, role: role ?? "user", password_hash });
      await this.auditAccountChange(source, "user.create", user.id);
      return { user, created: true, changed: true };
    }
    // Without a role the account keeps its own: resetting a password must not demote anyone.
    const newRole = role ?? existing.role;
    const unchanged = existing.role === newRole && existing.password_hash !== null && (await verifyPassword(existing.password_hash, password));
    if (unchanged) return { user: await this.store.getUser(existing.id), created: false, changed: false };
    if (existing.role === "admin" && newRole !== "admin") await this.keepOneAdministrator(existing.id, "demote");
    const user = await this.store.updateUser(existing.id, { role: newRole, password_hash });
    await this.revokeCredentials(existing.id);
    this.notify({ kind: "account-changed", userId: existing.id });
    await this.auditAccountChange(source, "user.update", user.id);
    return { user, created: false, changed: true };
  }

  /** Ends every session and deletes every personal access token of an account (its password was reset). */
  private async revokeCredentials(userId: string): Promise<void> {
    await this.store.deleteUserSessions(userId);
    for (const token of await this.store.listAccessTokens(userId)) await this.store.deleteAccessToken(token.id);
  }

  /** Records an account change made outside a request (the command line, the start of the service). */
  private async auditAccountChange(source: string, action: string, userId: string): Promise<void> {
    await this.store.appendAudit({ actor: null, method: "LOCAL", path: source, status: 200, result: "success", action, resource: `user/${userId}`, ip: null, detail: source });
  }

  /** Deletes sessions past their expiry (run now and then). */
  async sweepExpiredSessions(): Promise<number> {
    return this.store.deleteExpiredSessions(this.iso());
  }
}

function tokenView(token: AccessToken): AccessTokenView {
  return { id: token.id, name: token.name, created_at: token.created_at, expires_at: token.expires_at, last_used_at: token.last_used_at };
}

/** How often sessions past their expiry are deleted. */
const SESSION_SWEEP_MS = 3600 * 1000;

/**
 * Team and hpc modes at start: the `admin` account from SERVICE_ADMIN_PASSWORD (created, or its password
 * reset), a warning when there is no account at all, and a periodic sweep of expired sessions.
 */
export async function prepareAccounts(auth: AuthService, adminPassword: string | undefined, logger: Logger): Promise<NodeJS.Timeout> {
  if (adminPassword !== undefined) {
    const { created, changed } = await auth.setAccount("admin", adminPassword, "admin", "SERVICE_ADMIN_PASSWORD");
    if (changed) logger.info(created ? "administrator 'admin' created from SERVICE_ADMIN_PASSWORD" : "administrator 'admin': password and role set from SERVICE_ADMIN_PASSWORD (its sessions and tokens ended)");
  } else if ((await auth.users()).length === 0) {
    logger.warn("no accounts yet: set SERVICE_ADMIN_PASSWORD or run `strand user add NAME --role admin` to create the first administrator");
  }
  await auth.sweepExpiredSessions();
  return setInterval(() => void auth.sweepExpiredSessions().catch((error: unknown) => logger.warn({ err: error }, "expired sessions not swept")), SESSION_SWEEP_MS);
}
