/**
 * Authentication and the route access table, in team and hpc modes: the caller is recognised from
 * `Authorization: Bearer <token>` (scripts: a session token or a personal access token) or the `session`
 * cookie (the browser app), then the `ROUTE_ACCESS` entry of the operation whose handler the router runs
 * for the request decides (the matched route itself, so no other spelling of a path can name another
 * operation than the one that answers). An `/api` handler without an entry answers 403 to everyone, in
 * every mode: a route nobody wrote a policy for is nobody's. No credentials on a
 * protected operation is 401 AUTH_REQUIRED; credentials that are unknown, expired or revoked are 401
 * TOKEN_EXPIRED; a role below the operation's level is 403 ACCESS_DENIED. Public operations ignore stale
 * credentials (an old cookie must not break the health check or the sign-in page). Tokens are never read
 * from the URL. In personal mode every request is the local administrator.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { ROUTE_ACCESS, roleAllows } from "../access-policy.js";
import { ANONYMOUS, LOCAL_USER, type Caller } from "../caller.js";
import { ServiceError } from "../errors.js";
import type { ApiRoutes } from "../api-routes.js";
import type { AccessToken, Session } from "../store/accounts/contract.js";

/** The outcome of checking a presented token (the auth domain computes it). */
export type Authentication =
  | { ok: true; caller: Caller; via: "session"; session: Session; renewed: boolean }
  | { ok: true; caller: Caller; via: "access-token"; token: AccessToken }
  | { ok: false };

/** What checks a presented session token or personal access token. */
export interface Authenticator {
  authenticate(token: string): Promise<Authentication>;
}

/** The cookie that carries the browser's session token. */
export const SESSION_COOKIE = "session";

export interface AuthenticationOptions {
  mode: "personal" | "team" | "hpc";
  auth: Authenticator;
  /** The app's routes: which operation the matched route is. */
  routes: ApiRoutes;
  /** Whether the client reached the service over HTTPS (the cookie is then `Secure`). */
  https(c: Context): boolean;
}

/** The `Set-Cookie` value that stores a session token until `expiresAt`. */
export function sessionCookie(token: string, expiresAt: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The credentials a request presents, and where. */
function presentedCredentials(c: Context): { token: string; from: "bearer" | "cookie" } | { malformed: true } | null {
  const header = c.req.header("Authorization");
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ? { token: match[1], from: "bearer" } : { malformed: true };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? { token: cookie, from: "cookie" } : null;
}

/** How the current request was authenticated, for the auth routes (logout, sessions, me); null when anonymous or personal. */
export function authenticationOf(c: Context): Extract<Authentication, { ok: true }> | null {
  return (c.get("authentication") as Extract<Authentication, { ok: true }> | undefined) ?? null;
}

/** The access level of an API route's operation; a route without one is refused to everyone (a test keeps the table complete). */
function policyOf(route: { method: string; path: string }, operationId: string | undefined): (typeof ROUTE_ACCESS)[string] {
  const access = operationId === undefined ? undefined : ROUTE_ACCESS[operationId];
  if (access === undefined) {
    throw new ServiceError("ACCESS_DENIED", `${route.method} ${route.path} has no access policy, so nobody may call it`, {
      suggestion: "this is a defect of the service: report it (every operation needs an entry in src/server/access-policy.ts)",
    });
  }
  return access;
}

/** The authentication middleware. */
export function authentication(options: AuthenticationOptions): MiddlewareHandler {
  return async (c, next) => {
    // No handler (404 and 405 answer) and the static app carry no policy.
    const matched = options.routes.operationOf(c);
    const access = matched && matched.route.path.startsWith("/api/") ? policyOf(matched.route, matched.operation?.operationId) : undefined;
    if (options.mode === "personal") {
      c.set("caller", LOCAL_USER);
      return next();
    }
    c.set("caller", ANONYMOUS);
    const presented = presentedCredentials(c);
    let rejected = false;
    let fromCookie = false;
    if (presented && "token" in presented) {
      fromCookie = presented.from === "cookie";
      const result = await options.auth.authenticate(presented.token);
      if (result.ok) {
        c.set("caller", result.caller);
        c.set("authentication", result);
        if (result.via === "session" && result.renewed && fromCookie) {
          c.header("Set-Cookie", sessionCookie(presented.token, result.session.expires_at, options.https(c)), { append: true });
        }
      } else rejected = true;
    } else if (presented) rejected = true;
    if (access === undefined || access === "public") return next();
    const caller = c.get("caller") as typeof ANONYMOUS;
    if (caller.role === "anonymous") {
      if (rejected) {
        throw new ServiceError("TOKEN_EXPIRED", "the session or token is unknown, expired or revoked", {
          suggestion: "sign in again at POST /api/auth/login (or create a new personal access token)",
          headers: fromCookie ? { "Set-Cookie": clearedSessionCookie(options.https(c)), "WWW-Authenticate": 'Bearer error="invalid_token"' } : { "WWW-Authenticate": 'Bearer error="invalid_token"' },
        });
      }
      throw new ServiceError("AUTH_REQUIRED", "sign in first", {
        suggestion: "log in at POST /api/auth/login and send the token as Authorization: Bearer <token> (or use the session cookie)",
        headers: { "WWW-Authenticate": 'Bearer realm="strand"' },
      });
    }
    if (!roleAllows(access, caller.role)) {
      const needed = access === "admin" ? "an administrator" : "a user or an administrator";
      throw new ServiceError("ACCESS_DENIED", `this needs ${needed}; your role is ${caller.role}`, { suggestion: "ask an administrator to change your role" });
    }
    return next();
  };
}
