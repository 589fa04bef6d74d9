/**
 * The OAuth2 protocol of each identity provider, with arctic: the authorization URL (state, PKCE S256
 * challenge, the configured redirect URI), the code exchange (with the PKCE verifier and the same redirect
 * URI) and who signed in.
 *
 * - GitHub: arctic's generic `OAuth2Client` with GitHub's endpoints under the base URL (arctic's `GitHub`
 *   class sends no PKCE; GitHub accepts S256 since July 2025), client credentials by HTTP Basic as arctic's
 *   `GitHub` does, no scope (the public profile is enough), then `GET <api>/user` → `id`, `login`. GitHub
 *   answers a refused exchange with 200 and an `error` field, which counts as a refusal here.
 * - ORCID: `/oauth/authorize` with scope `/authenticate`, and `/oauth/token` with the client id and secret in
 *   the form body as ORCID documents; the token answer itself carries the ORCID iD (`orcid`) and the
 *   record's `name` (null when private), so no user endpoint is read. ORCID ignores the PKCE parameters
 *   where it does not support them (RFC 6749: unknown parameters are ignored); state and the client
 *   secret still bind the exchange.
 *
 * Every failure of the provider is an `OAuthProviderFailure` naming the provider and the OAuth error code,
 * never a secret, code or token.
 */
import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError, OAuth2Tokens } from "arctic";
import type { OAuthClientSettings, OAuthProviderId, OAuthSettings } from "./oauth-settings.js";
import { OAUTH_PROVIDER_IDS } from "./oauth-settings.js";

/** How long one request to a provider may take. */
const PROVIDER_TIMEOUT_MS = 15_000;

/** Who signed in at the provider. */
export interface ExternalIdentity {
  /** The provider's stable id of the account (GitHub's numeric id, the ORCID iD): what identities are linked by. */
  providerUserId: string;
  /** The provider's login or display name, shown and used to propose a username, never to match an account. */
  login: string | null;
}

/** A provider refused or failed (the user denied access, a bad code, a PKCE mismatch, an unreachable server). */
export class OAuthProviderFailure extends Error {
  constructor(
    readonly provider: OAuthProviderId,
    /** The OAuth error code (`access_denied`, `invalid_grant`, …) or what went wrong (`unreachable`, `bad_answer`). */
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** One identity provider strand signs in with. */
export interface OAuthProvider {
  id: OAuthProviderId;
  /** The name a sign-in button shows. */
  name: string;
  /** Where the browser is sent to sign in. */
  authorizationUrl(state: string, codeVerifier: string): URL;
  /** Exchanges the code (with the PKCE verifier) and reads who signed in. */
  identify(code: string, codeVerifier: string): Promise<ExternalIdentity>;
}

/** The sign-in buttons' names. */
export const PROVIDER_NAMES: Record<OAuthProviderId, string> = { github: "GitHub", orcid: "ORCID" };

/** Settles like `promise`, or fails as unreachable after the provider time-out. */
async function withDeadline<T>(provider: OAuthProviderId, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OAuthProviderFailure(provider, "unreachable", `${PROVIDER_NAMES[provider]} did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s`)), PROVIDER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** An arctic or network failure as a provider failure. */
function providerFailure(provider: OAuthProviderId, error: unknown): OAuthProviderFailure {
  if (error instanceof OAuthProviderFailure) return error;
  if (error instanceof OAuth2RequestError) return new OAuthProviderFailure(provider, error.code, `${PROVIDER_NAMES[provider]} refused the sign-in (${error.code})`);
  return new OAuthProviderFailure(provider, "unreachable", `${PROVIDER_NAMES[provider]} could not be asked (${error instanceof Error ? error.message.slice(0, 200) : "unknown error"})`);
}

/** Refuses a token answer that carries an OAuth error (GitHub answers refusals with 200). */
function checkTokens(provider: OAuthProviderId, tokens: OAuth2Tokens): OAuth2Tokens {
  const data = tokens.data as Record<string, unknown>;
  if (typeof data.error === "string") throw new OAuthProviderFailure(provider, data.error.slice(0, 64), `${PROVIDER_NAMES[provider]} refused the sign-in (${data.error.slice(0, 64)})`);
  if (typeof data.access_token !== "string" || data.access_token === "") throw new OAuthProviderFailure(provider, "bad_answer", `${PROVIDER_NAMES[provider]} answered without an access token`);
  return tokens;
}

function github(settings: OAuthClientSettings, redirectUri: string): OAuthProvider {
  const client = new OAuth2Client(settings.clientId, settings.clientSecret.reveal(), redirectUri);
  const authorizeEndpoint = `${settings.baseUrl}/login/oauth/authorize`;
  const tokenEndpoint = `${settings.baseUrl}/login/oauth/access_token`;
  return {
    id: "github",
    name: PROVIDER_NAMES.github,
    authorizationUrl: (state, codeVerifier) => client.createAuthorizationURLWithPKCE(authorizeEndpoint, state, CodeChallengeMethod.S256, codeVerifier, []),
    async identify(code, codeVerifier) {
      let tokens: OAuth2Tokens;
      try {
        tokens = checkTokens("github", await withDeadline("github", client.validateAuthorizationCode(tokenEndpoint, code, codeVerifier)));
      } catch (error) {
        throw providerFailure("github", error);
      }
      let response: Response;
      try {
        response = await fetch(`${settings.apiUrl}/user`, {
          headers: { Authorization: `Bearer ${tokens.accessToken()}`, Accept: "application/vnd.github+json", "User-Agent": "strand", "X-GitHub-Api-Version": "2022-11-28" },
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        throw providerFailure("github", error);
      }
      const user = (await response.json().catch(() => null)) as { id?: unknown; login?: unknown } | null;
      if (!response.ok || !user || typeof user.id !== "number" || !Number.isSafeInteger(user.id) || typeof user.login !== "string") {
        throw new OAuthProviderFailure("github", "bad_answer", `GitHub's user endpoint answered ${response.status} without an account id and login`);
      }
      return { providerUserId: String(user.id), login: user.login.slice(0, 100) };
    },
  };
}

/** An ORCID iD: four groups of four digits, the last character a check digit or X. */
const ORCID_ID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

function orcid(settings: OAuthClientSettings, redirectUri: string): OAuthProvider {
  const client = new OAuth2Client(settings.clientId, settings.clientSecret.reveal(), redirectUri);
  const authorizeEndpoint = `${settings.baseUrl}/oauth/authorize`;
  const tokenEndpoint = `${settings.baseUrl}/oauth/token`;
  return {
    id: "orcid",
    name: PROVIDER_NAMES.orcid,
    authorizationUrl: (state, codeVerifier) => client.createAuthorizationURLWithPKCE(authorizeEndpoint, state, CodeChallengeMethod.S256, codeVerifier, ["/authenticate"]),
    async identify(code, codeVerifier) {
      const body = new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.clientSecret.reveal(),
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      });
      let response: Response;
      try {
        response = await fetch(tokenEndpoint, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json", "User-Agent": "strand" },
          body,
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        throw providerFailure("orcid", error);
      }
      const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (data === null || typeof data !== "object") throw new OAuthProviderFailure("orcid", "bad_answer", `ORCID's token endpoint answered ${response.status} without JSON`);
      if (!response.ok && typeof data.error !== "string") throw new OAuthProviderFailure("orcid", "bad_answer", `ORCID's token endpoint answered ${response.status}`);
      checkTokens("orcid", new OAuth2Tokens(data));
      if (typeof data.orcid !== "string" || !ORCID_ID.test(data.orcid)) throw new OAuthProviderFailure("orcid", "bad_answer", "ORCID's token answer carries no ORCID iD");
      const name = typeof data.name === "string" && data.name.trim() !== "" ? data.name.trim().slice(0, 100) : null;
      return { providerUserId: data.orcid, login: name };
    },
  };
}

/** The providers the settings switch on; `redirectUri` is the configured callback of each. */
export function oauthProviders(settings: OAuthSettings, redirectUri: (provider: OAuthProviderId) => string): Map<OAuthProviderId, OAuthProvider> {
  const providers = new Map<OAuthProviderId, OAuthProvider>();
  for (const id of OAUTH_PROVIDER_IDS) {
    const entry = settings[id];
    if (!entry) continue;
    providers.set(id, id === "github" ? github(entry, redirectUri(id)) : orcid(entry, redirectUri(id)));
  }
  return providers;
}
