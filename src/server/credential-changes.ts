/**
 * What the auth domain tells whoever holds access beyond a single request (the open event streams): which
 * credential a request came with, and which credentials ended or which accounts changed. Kept below the
 * domains so that the event streams need not know the auth domain, only these facts.
 */

/** A credential a request was authenticated with, by id (never its secret). */
export type CredentialRef = { via: "session"; id: string } | { via: "access-token"; id: string };

/**
 * What stopped granting what it granted: a session signed out or revoked, a token revoked, an account's
 * other sessions ended (its password changed), or an account whose every credential must be looked at
 * again (its role changed, its password was reset, it was deleted).
 */
export type CredentialChange =
  | { kind: "session-ended"; sessionId: string }
  | { kind: "token-revoked"; tokenId: string }
  | { kind: "sessions-ended"; userId: string; exceptSessionId: string | null }
  | { kind: "account-changed"; userId: string };
