/** Request and response shapes of sign-in, sessions, personal access tokens and accounts (docs/guide/team-and-security.md). */
import { z } from "@hono/zod-openapi";

export const RoleSchema = z.enum(["admin", "user", "viewer"]).openapi({ description: "admin: everything; user: own pipelines and runs; viewer: reads only" });

/** The account fields a sign-in shows. */
export const UserSummary = z.object({ id: z.string(), username: z.string(), role: RoleSchema }).openapi("UserSummary");

/** An account as administrators list it. */
export const UserSchema = UserSummary.extend({
  created_at: z.string(),
  updated_at: z.string(),
  has_password: z.boolean().openapi({ description: "false for accounts that sign in only through GitHub or ORCID" }),
}).openapi("User");

export const LoginBody = z
  .object({ username: z.string().min(1).max(128), password: z.string().min(1).max(1024) })
  .openapi("LoginRequest");

export const LoginAnswer = z
  .object({
    token: z.string().openapi({ description: "send as Authorization: Bearer <token>; the browser gets it as the HttpOnly session cookie too" }),
    expires_at: z.string().openapi({ description: "renewed while the session is used" }),
    user: UserSummary,
  })
  .openapi("LoginAnswer");

export const CurrentUser = z
  .object({
    user: UserSummary,
    expires_at: z.string().nullable().openapi({ description: "when the session or token expires; null for a token without expiry and in personal mode" }),
    mode: z.enum(["personal", "team", "hpc"]),
    via: z.enum(["session", "access-token", "personal"]).openapi({ description: "how this request was authenticated" }),
  })
  .openapi("CurrentUser");

export const SessionSchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    last_seen_at: z.string(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    current: z.boolean().openapi({ description: "the session of this request" }),
  })
  .openapi("Session");

export const PasswordChangeBody = z
  .object({ current_password: z.string().max(1024), new_password: z.string().min(1).max(1024) })
  .openapi("PasswordChange");

export const PasswordChanged = z.object({ changed: z.literal(true), sessions_ended: z.number().int().openapi({ description: "your other sessions, ended by the change" }) });

export const NewAccessTokenBody = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ description: "what the token is for, e.g. nightly-ci" }),
    expires_in_days: z.number().int().min(1).max(3650).optional().openapi({ description: "omit for a token that does not expire" }),
  })
  .openapi("NewAccessToken");

export const AccessTokenSchema = z
  .object({ id: z.string(), name: z.string(), created_at: z.string(), expires_at: z.string().nullable(), last_used_at: z.string().nullable() })
  .openapi("AccessToken");

export const CreatedAccessToken = AccessTokenSchema.extend({
  token: z.string().openapi({ description: "shown this once; only a hash is kept" }),
}).openapi("CreatedAccessToken");

export const NewUserBody = z
  .object({
    username: z
      .string()
      .min(1)
      .max(64)
      .openapi({ description: "letters and digits with single dots, dashes or underscores between them; 409 when taken or when it looks like an existing name (compared without case and marks)" }),
    password: z.string().min(1).max(1024),
    role: RoleSchema.default("user"),
  })
  .openapi("NewUser");

export const UserPatchBody = z
  .object({ role: RoleSchema.optional(), password: z.string().min(1).max(1024).optional().openapi({ description: "a new password (ends the account's sessions)" }) })
  .openapi("UserPatch");

const idParam = (description: string) => z.object({ id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" }, description }) });
export const SessionIdParam = idParam("session id");
export const TokenIdParam = idParam("token id");
export const UserIdParam = idParam("user id");

export const LoggedOut = z.object({ logged_out: z.literal(true) });
