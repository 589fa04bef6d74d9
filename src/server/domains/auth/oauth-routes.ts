/**
 * HTTP adapter of signing in with GitHub or ORCID (docs/guide/team-and-security.md), all public:
 *
 * - `GET /api/auth/providers`: the sign-in methods configured, so the app shows only working buttons.
 * - `GET /api/auth/oauth/{provider}/authorize[?return_to=/path]`: 302 to the provider with a fresh `state`
 *   and PKCE S256 challenge; the state, verifier and return path go in the short-lived state cookie.
 * - `GET /api/auth/oauth/{provider}/callback`: checks the state against the cookie, exchanges the code with
 *   the verifier, links the identity (by provider user id, never by name) or creates a `user` account, opens
 *   a session, sets the session cookie and redirects into the app.
 *
 * The redirect URI is `SERVICE_PUBLIC_URL` + base path + `api/auth/oauth/<provider>/callback`, the same in
 * the authorization request and the code exchange, never built from a request's Host. Configuration
 * problems (unknown provider, provider not configured, a `return_to` that is not a path inside the app)
 * answer the error body. A browser lands on the callback, so a failed sign-in there redirects to the app
 * with `?auth_error=<CODE>&auth_reason=<reason>`: `BAD_REQUEST` when the state cookie is missing, expired,
 * tampered with or does not match, `AUTH_FAILED` when the provider refused (the user denied access, a bad
 * code, a PKCE mismatch) or could not be reached. In personal mode all three answer 404.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { generateCodeVerifier, generateState } from "arctic";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { setCaller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { noteAudit } from "../../middleware/audit.js";
import { sessionCookie } from "../../middleware/authentication.js";
import { failureResponse, jsonResponse } from "../../openapi-shapes.js";
import type { AccountStore } from "../../store/accounts/contract.js";
import type { AuditStore } from "../../store/audit/contract.js";
import { accountForIdentity } from "./oauth-accounts.js";
import { OAuthProviderFailure, oauthProviders, type OAuthProvider } from "./oauth-providers.js";
import { OAUTH_PROVIDER_IDS, oauthVariable, type OAuthProviderId, type OAuthSettings } from "./oauth-settings.js";
import { clearedStateCookie, OAUTH_STATE_COOKIE, OAuthStateSeal, stateCookie } from "./oauth-state.js";
import { callerFromUser, type AuthService } from "./service.js";

const tags = ["auth"];

const SignInMethods = z
  .object({
    password: z.boolean().openapi({ description: "whether POST /api/auth/login signs in with a username and password" }),
    oauth: z
      .array(
        z.object({
          id: z.enum(OAUTH_PROVIDER_IDS),
          name: z.string().openapi({ description: "what the sign-in button says, e.g. GitHub" }),
          authorize_url: z.string().openapi({ description: "where the browser goes to sign in (a path under the base path; add ?return_to=/path to land there afterwards)" }),
        }),
      )
      .openapi({ description: "the external identity providers configured (none when no SERVICE_OAUTH_* client is set)" }),
  })
  .openapi("SignInMethods");

const ProviderParam = z.object({ provider: z.string().max(32).openapi({ param: { name: "provider", in: "path" }, description: "github or orcid", example: "github" }) });

const routes = {
  providers: createRoute({
    method: "get",
    path: "/api/auth/providers",
    operationId: "listSignInMethods",
    tags,
    summary: "The sign-in methods this service offers (password, and GitHub or ORCID when configured)",
    responses: { 200: jsonResponse(SignInMethods, "the sign-in methods"), 404: failureResponse("personal mode has no sign-in") },
  }),
  authorize: createRoute({
    method: "get",
    path: "/api/auth/oauth/{provider}/authorize",
    operationId: "startOAuthSignIn",
    tags,
    summary: "Start signing in with GitHub or ORCID: a redirect to the provider (state and PKCE verifier kept in a 10-minute cookie)",
    request: {
      params: ProviderParam,
      query: z.object({
        return_to: z.string().max(1024).optional().openapi({ description: "a path inside the app to land on after signing in (default /); never another site", example: "/runs" }),
      }),
    },
    responses: {
      302: { description: "to the provider's sign-in page" },
      400: failureResponse("return_to is not a path inside the app (BAD_REQUEST)"),
      404: failureResponse("no such provider, the provider is not configured (the suggestion names its variables), or personal mode"),
    },
  }),
  callback: createRoute({
    method: "get",
    path: "/api/auth/oauth/{provider}/callback",
    operationId: "finishOAuthSignIn",
    tags,
    summary: "Where the provider sends the browser back: signs in (creating a user account at the first sign-in) and redirects into the app",
    request: {
      params: ProviderParam,
      query: z.object({
        code: z.string().max(2048).optional(),
        state: z.string().max(512).optional(),
        error: z.string().max(256).optional().openapi({ description: "the provider's refusal, e.g. access_denied" }),
        error_description: z.string().max(2048).optional(),
      }),
    },
    responses: {
      302: {
        description:
          "signed in: the session cookie is set and the browser goes to the return path (default the app's start page); failed: the browser goes to the app's start page with ?auth_error=BAD_REQUEST (state cookie missing, expired or not matching) or ?auth_error=AUTH_FAILED (the provider refused or failed), and auth_reason",
      },
      404: failureResponse("no such provider, the provider is not configured, or personal mode"),
    },
  }),
};

export interface OAuthRouteOptions {
  auth: AuthService;
  store: AccountStore & AuditStore;
  mode: "personal" | "team" | "hpc";
  /** The providers switched on (`SERVICE_OAUTH_*`). */
  settings: OAuthSettings;
  /** `SERVICE_PUBLIC_URL`: the redirect URIs are built from its origin. Required when a provider is configured. */
  publicUrl: string | undefined;
  /** `SERVICE_BASE_PATH` (normalised, `/` or `/prefix/`): where the app and API are mounted. */
  basePath: string;
  /** Whether the client reached the service over HTTPS (cookies are then `Secure`). */
  https(c: Context): boolean;
  /** The client address, kept with the session. */
  clientAddress(c: Context): string | null;
  logger: Logger;
  /** How long a sign-in may take at the provider (default 10 minutes; tests shorten it). */
  stateTtlMs?: number;
}

/** A `return_to` as the app path to land on, or null when it is not a plain path inside this site. */
export function appPath(value: string | undefined): string | null {
  if (value === undefined || value === "") return "/";
  // Only "/path": not "//host" or "/\host" (browsers read both as another host), no scheme, no control characters.
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || [...value].some((char) => char <= " " || char === "\u007f")) return null;
  const probe = "http://app.invalid";
  let url: URL;
  try {
    url = new URL(value, probe);
  } catch {
    return null;
  }
  if (url.origin !== probe) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in with GitHub and ORCID router. */
export function oauthRoutes(options: OAuthRouteOptions): OpenAPIHono {
  const { basePath } = options;
  const router = new OpenAPIHono();
  const configured = Object.keys(options.settings).length > 0;
  if (configured && options.mode !== "personal" && !options.publicUrl) {
    throw new Error("signing in with GitHub or ORCID needs SERVICE_PUBLIC_URL: the callback registered with the provider is built from it");
  }
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : "";
  const callbackPath = (provider: OAuthProviderId) => `${basePath}api/auth/oauth/${provider}/callback`;
  const providers = oauthProviders(options.settings, (provider) => `${publicOrigin}${callbackPath(provider)}`);
  const seals = new Map([...providers.keys()].map((id) => [id, new OAuthStateSeal(id, options.settings[id]!.clientSecret, options.stateTtlMs)]));

  const signInOff = () => {
    if (options.mode === "personal") {
      throw new ServiceError("NOT_FOUND", "personal mode has no sign-in", { suggestion: "start the service with SERVICE_MODE=team to share it with accounts" });
    }
  };
  /** The configured provider of the path, or 404 naming what to set. */
  const providerOf = (name: string): { provider: OAuthProvider; seal: OAuthStateSeal } => {
    signInOff();
    if (!(OAUTH_PROVIDER_IDS as readonly string[]).includes(name)) {
      throw new ServiceError("NOT_FOUND", `no sign-in provider '${name.slice(0, 32)}'`, { suggestion: `providers: ${OAUTH_PROVIDER_IDS.join(", ")} (GET /api/auth/providers lists the configured ones)` });
    }
    const id = name as OAuthProviderId;
    const provider = providers.get(id);
    if (!provider) {
      throw new ServiceError("NOT_FOUND", `signing in with ${id} is not configured on this service`, {
        suggestion: `an administrator sets ${oauthVariable(id, "CLIENT_ID")} and ${oauthVariable(id, "CLIENT_SECRET")} (and SERVICE_PUBLIC_URL) and restarts the service`,
      });
    }
    return { provider, seal: seals.get(id)! };
  };
  /** Where the browser goes inside the app (the base path, then the app path without its leading slash). */
  const inApp = (path: string) => `${basePath}${path.slice(1)}`;

  router.openapi(routes.providers, (c) => {
    signInOff();
    const oauth = [...providers.values()].map((provider) => ({ id: provider.id, name: provider.name, authorize_url: `${basePath}api/auth/oauth/${provider.id}/authorize` }));
    return c.json({ password: true, oauth }, 200);
  });

  router.openapi(
    routes.authorize,
    (c) => {
      const { provider, seal } = providerOf(c.req.valid("param").provider);
      const returnTo = appPath(c.req.valid("query").return_to);
      if (returnTo === null) {
        throw new ServiceError("BAD_REQUEST", "return_to must be a path inside this app, such as /runs", { suggestion: "give a path starting with a single /; another site is never a place to return to" });
      }
      const state = generateState();
      const codeVerifier = generateCodeVerifier();
      c.header("Set-Cookie", stateCookie(seal.seal({ state, codeVerifier, returnTo }), callbackPath(provider.id), seal.maxAgeSeconds, options.https(c)), { append: true });
      c.header("Cache-Control", "no-store");
      return c.redirect(provider.authorizationUrl(state, codeVerifier).href, 302) as never;
    },
  );

  router.openapi(routes.callback, async (c) => {
    const { provider, seal } = providerOf(c.req.valid("param").provider);
    const query = c.req.valid("query");
    const secure = options.https(c);
    // A state is good for one callback, whatever its outcome.
    c.header("Set-Cookie", clearedStateCookie(callbackPath(provider.id), secure), { append: true });
    c.header("Cache-Control", "no-store");
    const refuse = (code: "BAD_REQUEST" | "AUTH_FAILED", reason: string) => {
      noteAudit(c, "auth.oauth.refused", `oauth/${provider.id}`, "failure");
      options.logger.warn({ provider: provider.id, reason }, "sign-in with an identity provider refused");
      const params = new URLSearchParams({ auth_error: code, auth_reason: reason, auth_provider: provider.id });
      return c.redirect(`${inApp("/")}?${params}`, 302) as never;
    };

    const pending = seal.open(getCookie(c, OAUTH_STATE_COOKIE), query.state);
    if ("refused" in pending) return refuse("BAD_REQUEST", `state_${pending.refused}`);
    if (query.error !== undefined) return refuse("AUTH_FAILED", query.error.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64) || "provider_error");
    if (!query.code) return refuse("AUTH_FAILED", "no_code");
    let identity;
    try {
      identity = await provider.identify(query.code, pending.codeVerifier);
    } catch (error) {
      if (error instanceof OAuthProviderFailure) {
        options.logger.warn({ provider: provider.id, reason: error.reason, detail: error.message }, "identity provider refused the code");
        return refuse("AUTH_FAILED", error.reason.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64) || "provider_error");
      }
      throw error;
    }
    const { user, created } = await accountForIdentity(options.store, provider.id, identity);
    const signedIn = await options.auth.openSession(user, { ip: options.clientAddress(c), userAgent: c.req.header("User-Agent") ?? null });
    setCaller(c, callerFromUser(user));
    noteAudit(c, created ? "auth.oauth.signup" : "auth.oauth.login", `user/${user.id}`);
    options.logger.info({ provider: provider.id, user: user.id, created }, created ? "account created at a first sign-in with an identity provider" : "signed in with an identity provider");
    c.header("Set-Cookie", sessionCookie(signedIn.token, signedIn.expires_at, secure), { append: true });
    return c.redirect(inApp(pending.returnTo), 302) as never;
  });

  return router;
}
