/**
 * Which external identity providers (GitHub, ORCID) a team or hpc service signs in with, read from the
 * environment: `SERVICE_OAUTH_<PROVIDER>_CLIENT_ID` / `_CLIENT_SECRET` switch a provider on,
 * `SERVICE_OAUTH_<PROVIDER>_BASE_URL` points it at another server (GitHub Enterprise, ORCID's sandbox, a
 * test's local identity provider) and `SERVICE_OAUTH_GITHUB_API_URL` names GitHub's API when it is not the
 * default. OAuth needs `SERVICE_PUBLIC_URL`: the callback address registered with the provider is built from
 * it, never from a request's Host header. Client secrets are wrapped so they print as `[redacted]`.
 */
import { inspect } from "node:util";
import type { OAuthEnvironment } from "../../settings.js";

/** The providers strand signs in with. */
export const OAUTH_PROVIDER_IDS = ["github", "orcid"] as const;

/** A provider strand signs in with. */
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

/** A value kept out of logs, error messages and JSON: it prints as `[redacted]` and only `reveal()` gives it. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself, for the one place that sends it (the provider's token endpoint). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return "[redacted]";
  }

  toJSON(): string {
    return "[redacted]";
  }

  [inspect.custom](): string {
    return "[redacted]";
  }
}

/** One provider's client registration and where it lives. */
export interface OAuthClientSettings {
  clientId: string;
  clientSecret: Secret;
  /** Where the provider's authorization and token endpoints are (https://github.com, https://orcid.org). */
  baseUrl: string;
  /** GitHub only: where its REST API is (https://api.github.com; `<base>/api/v3` on GitHub Enterprise). */
  apiUrl?: string;
}

/** The providers switched on, by id. */
export type OAuthSettings = Partial<Record<OAuthProviderId, OAuthClientSettings>>;

/** Each provider's public address and, for GitHub, its API. */
export const OAUTH_DEFAULTS: Record<OAuthProviderId, { baseUrl: string; apiUrl?: string }> = {
  github: { baseUrl: "https://github.com", apiUrl: "https://api.github.com" },
  orcid: { baseUrl: "https://orcid.org" },
};

/** The environment variable of a provider's setting, e.g. `SERVICE_OAUTH_GITHUB_CLIENT_ID`. */
export function oauthVariable(provider: OAuthProviderId, setting: "CLIENT_ID" | "CLIENT_SECRET" | "BASE_URL" | "API_URL"): keyof OAuthEnvironment {
  return `SERVICE_OAUTH_${provider.toUpperCase()}_${setting}` as keyof OAuthEnvironment;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** An http(s) URL without a trailing slash; an error naming the variable otherwise. */
function baseUrl(value: string, variable: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an absolute URL such as https://github.com, got '${value}'`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${variable} must be an http(s) URL, got '${value}'`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`${variable} must be a plain base URL without query, fragment or credentials`);
  return url.href.replace(/\/+$/, "");
}

/**
 * The providers the settings (settings.ts OAUTH_VARIABLES) switch on. A client id without its secret (or the reverse), a malformed
 * base URL, or a provider without `SERVICE_PUBLIC_URL` is an error that names the variable (never a value
 * of a secret).
 */
export function oauthSettingsOf(values: OAuthEnvironment): OAuthSettings {
  const settings: OAuthSettings = {};
  for (const provider of OAUTH_PROVIDER_IDS) {
    const idVariable = oauthVariable(provider, "CLIENT_ID");
    const secretVariable = oauthVariable(provider, "CLIENT_SECRET");
    const clientId = nonEmpty(values[idVariable]);
    const clientSecret = nonEmpty(values[secretVariable]);
    if (clientId === undefined && clientSecret === undefined) continue;
    if (clientId === undefined) throw new Error(`${secretVariable} is set but ${idVariable} is not: set both to sign in with ${provider}, or neither`);
    if (clientSecret === undefined) throw new Error(`${idVariable} is set but ${secretVariable} is not: set both to sign in with ${provider}, or neither`);
    if (nonEmpty(values.SERVICE_PUBLIC_URL) === undefined) {
      throw new Error(
        `${idVariable} is set but SERVICE_PUBLIC_URL is not: signing in with ${provider} needs the address users reach the service at (the callback registered with the provider is SERVICE_PUBLIC_URL/api/auth/oauth/${provider}/callback)`,
      );
    }
    const baseVariable = oauthVariable(provider, "BASE_URL");
    const base = nonEmpty(values[baseVariable]);
    const entry: OAuthClientSettings = { clientId, clientSecret: new Secret(clientSecret), baseUrl: base ? baseUrl(base, baseVariable) : OAUTH_DEFAULTS[provider].baseUrl };
    if (provider === "github") {
      const apiVariable = oauthVariable(provider, "API_URL");
      const api = nonEmpty(values[apiVariable]);
      // GitHub Enterprise Server serves its API under /api/v3 of its own address.
      entry.apiUrl = api ? baseUrl(api, apiVariable) : base ? `${entry.baseUrl}/api/v3` : OAUTH_DEFAULTS.github.apiUrl;
    }
    settings[provider] = entry;
  }
  return settings;
}
