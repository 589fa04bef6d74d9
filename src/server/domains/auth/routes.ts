/**
 * HTTP adapter of sign-in and accounts: `POST /api/auth/login`, `/logout`, `GET /api/auth/me`, the caller's
 * sessions (`GET /api/auth/sessions`, `DELETE /api/auth/sessions/{id}`), password (`POST /api/auth/password`)
 * and personal access tokens (`/api/auth/tokens`), and accounts for administrators (`/api/users`). Who may
 * call each is in `access-policy.ts`. In personal mode there is no sign-in: these answer 404, except
 * `/api/auth/me`, which names the local administrator.
 */
import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyHook } from "../../body-hook.js";
import { callerOf, setCaller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { noteAudit } from "../../middleware/audit.js";
import { authenticationOf, clearedSessionCookie, sessionCookie } from "../../middleware/authentication.js";
import { Deleted, failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import type { User } from "../../store/accounts/contract.js";
import {
  AccessTokenSchema,
  CreatedAccessToken,
  CurrentUser,
  LoggedOut,
  LoginAnswer,
  LoginBody,
  NewAccessTokenBody,
  NewUserBody,
  PasswordChangeBody,
  PasswordChanged,
  SessionIdParam,
  SessionSchema,
  TokenIdParam,
  UserIdParam,
  UserPatchBody,
  UserSchema,
} from "./schemas.js";
import { callerFromUser, type AuthService, type RequestOrigin } from "./service.js";

const tags = ["auth"];

const routes = {
  login: createRoute({
    method: "post",
    path: "/api/auth/login",
    operationId: "login",
    tags,
    summary: "Sign in with a username and password: a session token, and the session cookie for the browser",
    request: jsonBody(LoginBody),
    responses: {
      200: jsonResponse(LoginAnswer, "signed in"),
      401: failureResponse("wrong username or password (AUTH_FAILED)"),
      404: failureResponse("personal mode has no sign-in"),
      429: failureResponse("too many failed sign-ins for this account or address; wait (RATE_LIMITED, with Retry-After)"),
    },
  }),
  logout: createRoute({
    method: "post",
    path: "/api/auth/logout",
    operationId: "logout",
    tags,
    summary: "Sign out: end this session and clear the cookie",
    responses: { 200: jsonResponse(LoggedOut, "signed out"), 404: failureResponse("personal mode has no sign-in") },
  }),
  me: createRoute({
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentUser",
    tags,
    summary: "Who you are signed in as, and until when",
    responses: { 200: jsonResponse(CurrentUser, "the current account") },
  }),
  sessions: createRoute({
    method: "get",
    path: "/api/auth/sessions",
    operationId: "listSessions",
    tags,
    summary: "Your sessions (signed-in browsers and scripts), the current one marked",
    responses: { 200: jsonResponse(SessionSchema.array(), "your sessions, newest first"), 404: failureResponse("personal mode has no sign-in") },
  }),
  revokeSession: createRoute({
    method: "delete",
    path: "/api/auth/sessions/{id}",
    operationId: "revokeSession",
    tags,
    summary: "End one of your sessions",
    request: { params: SessionIdParam },
    responses: { 200: jsonResponse(Deleted, "the session ended"), 404: failureResponse("no such session of yours") },
  }),
  password: createRoute({
    method: "post",
    path: "/api/auth/password",
    operationId: "changePassword",
    tags,
    summary: "Change your password (your other sessions end)",
    request: jsonBody(PasswordChangeBody),
    responses: {
      200: jsonResponse(PasswordChanged, "changed"),
      401: failureResponse("the current password is wrong (AUTH_FAILED)"),
      404: failureResponse("personal mode has no sign-in"),
    },
  }),
  createToken: createRoute({
    method: "post",
    path: "/api/auth/tokens",
    operationId: "createAccessToken",
    tags,
    summary: "Create a personal access token for scripts (shown once)",
    request: jsonBody(NewAccessTokenBody),
    responses: { 201: jsonResponse(CreatedAccessToken, "the token, shown this once"), 404: failureResponse("personal mode has no sign-in") },
  }),
  listTokens: createRoute({
    method: "get",
    path: "/api/auth/tokens",
    operationId: "listAccessTokens",
    tags,
    summary: "Your personal access tokens (never their secrets)",
    responses: { 200: jsonResponse(AccessTokenSchema.array(), "your tokens, newest first"), 404: failureResponse("personal mode has no sign-in") },
  }),
  deleteToken: createRoute({
    method: "delete",
    path: "/api/auth/tokens/{id}",
    operationId: "deleteAccessToken",
    tags,
    summary: "Revoke one of your personal access tokens",
    request: { params: TokenIdParam },
    responses: { 200: jsonResponse(Deleted, "the token revoked"), 404: failureResponse("no such token of yours") },
  }),
  listUsers: createRoute({
    method: "get",
    path: "/api/users",
    operationId: "listUsers",
    tags,
    summary: "Every account (administrators)",
    responses: { 200: jsonResponse(UserSchema.array(), "accounts by username"), 404: failureResponse("personal mode has no accounts") },
  }),
  createUser: createRoute({
    method: "post",
    path: "/api/users",
    operationId: "createUser",
    tags,
    summary: "Create an account with a password (administrators)",
    request: jsonBody(NewUserBody),
    responses: { 201: jsonResponse(UserSchema, "the new account"), 404: failureResponse("personal mode has no accounts"), 409: failureResponse("the username is taken, or looks like a taken one") },
  }),
  updateUser: createRoute({
    method: "patch",
    path: "/api/users/{id}",
    operationId: "updateUser",
    tags,
    summary: "Change an account's role or reset its password (administrators; effective on the account's next request)",
    request: { params: UserIdParam, ...jsonBody(UserPatchBody) },
    responses: { 200: jsonResponse(UserSchema, "the account"), 404: failureResponse("no such account"), 409: failureResponse("the last administrator cannot be demoted") },
  }),
  deleteUser: createRoute({
    method: "delete",
    path: "/api/users/{id}",
    operationId: "deleteUser",
    tags,
    summary: "Delete an account; its sessions and tokens stop working at once (administrators)",
    request: { params: UserIdParam },
    responses: { 200: jsonResponse(Deleted, "the account deleted"), 404: failureResponse("no such account"), 409: failureResponse("the last administrator cannot be deleted") },
  }),
};

export interface AuthRouteOptions {
  auth: AuthService;
  mode: "personal" | "team" | "hpc";
  /** Whether the client reached the service over HTTPS (the cookie is then `Secure`). */
  https(c: Context): boolean;
  /** The client address, as the rate limiter sees it. */
  clientAddress(c: Context): string | null;
  /** Called before a password is checked; throws RATE_LIMITED when this account or address failed too often. */
  beforeSignIn?(username: string, address: string | null): void;
  /** Called with the outcome of a password check. */
  afterSignIn?(username: string, address: string | null, succeeded: boolean): void;
}

/** The account fields every answer shows. */
function userView(user: User): z.infer<typeof UserSchema> {
  return { id: user.id, username: user.username, role: user.role, created_at: user.created_at, updated_at: user.updated_at, has_password: user.has_password };
}

/** The sign-in and accounts router. */
export function authRoutes(options: AuthRouteOptions): OpenAPIHono {
  const { auth } = options;
  const router = new OpenAPIHono();
  const signInOff = () => {
    if (options.mode === "personal") {
      throw new ServiceError("NOT_FOUND", "personal mode has no sign-in", { suggestion: "start the service with SERVICE_MODE=team to share it with accounts" });
    }
  };
  const origin = (c: Context): RequestOrigin => ({ ip: options.clientAddress(c), userAgent: c.req.header("User-Agent") ?? null });
  /** Runs a check of `username`'s password under the sign-in throttle: refused when throttled, counted when wrong. */
  const passwordCheck = async <T>(c: Context, username: string, check: () => Promise<T>): Promise<T> => {
    const address = options.clientAddress(c);
    options.beforeSignIn?.(username, address);
    let result: T;
    try {
      result = await check();
    } catch (error) {
      if (error instanceof ServiceError && error.code === "AUTH_FAILED") options.afterSignIn?.(username, address, false);
      throw error;
    }
    options.afterSignIn?.(username, address, true);
    return result;
  };
  /** The id of the signed-in account, for the self-service routes. */
  const userId = (c: Context): string => {
    signInOff();
    return callerOf(c).id;
  };

  router.openapi(
    routes.login,
    async (c) => {
      signInOff();
      const { username, password } = c.req.valid("json");
      noteAudit(c, "auth.login", `user/${username.slice(0, 64)}`);
      const signedIn = await passwordCheck(c, username, () => auth.login(username, password, origin(c)));
      setCaller(c, callerFromUser(signedIn.user));
      c.header("Set-Cookie", sessionCookie(signedIn.token, signedIn.expires_at, options.https(c)), { append: true });
      c.header("Cache-Control", "no-store");
      return c.json({ token: signedIn.token, expires_at: signedIn.expires_at, user: signedIn.user }, 200);
    },
    bodyHook,
  );

  router.openapi(routes.logout, async (c) => {
    signInOff();
    noteAudit(c, "auth.logout", `user/${callerOf(c).id}`);
    const current = authenticationOf(c);
    if (current?.via === "access-token") {
      throw new ServiceError("BAD_REQUEST", "a personal access token is not a session: signing out does not end it", { suggestion: `revoke the token with DELETE /api/auth/tokens/${current.token.id}` });
    }
    if (current?.via === "session") await auth.logout(current.session.id);
    c.header("Set-Cookie", clearedSessionCookie(options.https(c)), { append: true });
    return c.json({ logged_out: true as const }, 200);
  });

  router.openapi(routes.me, async (c) => {
    const caller = callerOf(c);
    const current = authenticationOf(c);
    if (options.mode === "personal" || !current) {
      return c.json({ user: { id: caller.id, username: caller.username, role: "admin" as const }, expires_at: null, mode: options.mode, via: "personal" as const }, 200);
    }
    const user = await auth.account(caller.id);
    const expires_at = current.via === "session" ? current.session.expires_at : current.token.expires_at;
    return c.json({ user: { id: user.id, username: user.username, role: user.role }, expires_at, mode: options.mode, via: current.via }, 200);
  });

  router.openapi(routes.sessions, async (c) => {
    const id = userId(c);
    const current = authenticationOf(c);
    return c.json(await auth.sessions(id, current?.via === "session" ? current.session.id : null), 200);
  });

  router.openapi(routes.revokeSession, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "auth.session.revoke", `session/${id}`);
    await auth.revokeSession(userId(c), id);
    return c.json({ deleted: id }, 200);
  });

  router.openapi(
    routes.password,
    async (c) => {
      const id = userId(c);
      noteAudit(c, "auth.password.change", `user/${id}`);
      const body = c.req.valid("json");
      const current = authenticationOf(c);
      // The current password is checked like a sign-in: a stolen session must not guess it at speed.
      const result = await passwordCheck(c, callerOf(c).username, () =>
        auth.changePassword(id, current?.via === "session" ? current.session.id : null, body.current_password, body.new_password),
      );
      return c.json({ changed: true as const, ...result }, 200);
    },
    bodyHook,
  );

  router.openapi(
    routes.createToken,
    async (c) => {
      const id = userId(c);
      // A token cannot mint tokens: whoever holds one leaked token must not make more that outlive its revocation.
      if (authenticationOf(c)?.via === "access-token") {
        throw new ServiceError("ACCESS_DENIED", "personal access tokens are created from a signed-in session, not with another token", { suggestion: "sign in with POST /api/auth/login and create the token with that session" });
      }
      const body = c.req.valid("json");
      const created = await auth.createAccessToken(id, body.name, body.expires_in_days ?? null);
      noteAudit(c, "auth.token.create", `token/${created.id}`);
      c.header("Cache-Control", "no-store");
      return c.json(created, 201);
    },
    bodyHook,
  );

  router.openapi(routes.listTokens, async (c) => c.json(await auth.accessTokens(userId(c)), 200));

  router.openapi(routes.deleteToken, async (c) => {
    const { id } = c.req.valid("param");
    noteAudit(c, "auth.token.delete", `token/${id}`);
    await auth.deleteAccessToken(userId(c), id);
    return c.json({ deleted: id }, 200);
  });

  router.openapi(routes.listUsers, async (c) => {
    signInOff();
    return c.json((await auth.users()).map(userView), 200);
  });

  router.openapi(
    routes.createUser,
    async (c) => {
      signInOff();
      const body = c.req.valid("json");
      const user = await auth.createUser(body.username, body.password, body.role);
      noteAudit(c, "user.create", `user/${user.id}`);
      return c.json(userView(user), 201);
    },
    bodyHook,
  );

  router.openapi(
    routes.updateUser,
    async (c) => {
      signInOff();
      const { id } = c.req.valid("param");
      noteAudit(c, "user.update", `user/${id}`);
      const patch = c.req.valid("json");
      const user = await auth.updateUser(id, patch);
      // A reset password is the way out of a lock-out: the account's failed sign-ins are forgotten.
      if (patch.password !== undefined) options.afterSignIn?.(user.username, null, true);
      return c.json(userView(user), 200);
    },
    bodyHook,
  );

  router.openapi(routes.deleteUser, async (c) => {
    signInOff();
    const { id } = c.req.valid("param");
    noteAudit(c, "user.delete", `user/${id}`);
    await auth.deleteUser(id);
    return c.json({ deleted: id }, 200);
  });

  return router;
}
