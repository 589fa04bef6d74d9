/**
 * Who is signed in, as the whole app shares it: the service's mode (from the health answer the header already
 * asks), the current user (one TanStack Query key, so the gate and the user menu ask once), and the rules for
 * sending a caller to the sign-in page and back.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api, ApiError, dataOf } from "../api/client.js";
import type { components } from "../../client/api-types.js";

/** The signed-in caller as `GET /api/auth/me` answers it. */
export type CurrentUser = components["schemas"]["CurrentUser"];

/** The health answer's query key, shared with the header's service state. */
export const HEALTH_KEY = ["health"] as const;

/** The current user's query key: `null` data means signed out. */
export const CURRENT_USER_KEY = ["auth", "me"] as const;

/** Where the app goes after signing in when no page was asked for. */
export const DEFAULT_LANDING = "/pipelines";

/** The service's mode (`undefined` while the health answer is on its way), from the shared health query. */
export function useServiceMode() {
  const health = useQuery({ queryKey: HEALTH_KEY, queryFn: async () => dataOf(await api.GET("/api/health")) });
  return { mode: health.data?.mode, health };
}

/** Whether an error means the caller's session is missing or over (not a wrong password: that is AUTH_FAILED). */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.body.code !== "AUTH_FAILED";
}

/**
 * The current user in team and hpc modes, or null when signed out (a 401 is an answer here, not a failure).
 * `enabled` is false in personal mode and on the sign-in page, where asking would only earn a 401.
 */
export function useCurrentUser(enabled: boolean) {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    enabled,
    retry: false,
    staleTime: 60_000,
    queryFn: async (): Promise<CurrentUser | null> => {
      try {
        return dataOf(await api.GET("/api/auth/me"));
      } catch (error) {
        if (isSessionEnded(error)) return null;
        throw error;
      }
    },
  });
}

/** Marks the caller signed out in the cache, so the gate sends them to the sign-in page. */
export function noteSignedOut(client: QueryClient): void {
  client.setQueryData(CURRENT_USER_KEY, null);
}

/**
 * A `return_to` as a path inside this app, or the default landing: only `/path` (not `//host`, `/\host`, a
 * scheme or control characters), never the sign-in page itself.
 */
export function safeReturnPath(value: string | null): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\") || [...value].some((char) => char <= " " || char === "\u007f")) return DEFAULT_LANDING;
  const probe = "http://app.invalid";
  let url: URL;
  try {
    url = new URL(value, probe);
  } catch {
    return DEFAULT_LANDING;
  }
  if (url.origin !== probe || url.pathname === "/sign-in") return DEFAULT_LANDING;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The failed OAuth callback's parameters (`auth_error`, `auth_reason`, `auth_provider`), carried to the sign-in page. */
export const OAUTH_FAILURE_PARAMS = ["auth_error", "auth_reason", "auth_provider"] as const;

/** The sign-in page's address for a caller who was on `path` + `search` (the OAuth failure parameters move along). */
export function signInPath(path: string, search: string): string {
  const current = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of OAUTH_FAILURE_PARAMS) {
    const value = current.get(name);
    if (value !== null) {
      kept.set(name, value);
      current.delete(name);
    }
  }
  const rest = current.toString();
  const back = `${path}${rest ? `?${rest}` : ""}`;
  const params = new URLSearchParams(back === "/" ? {} : { return_to: back });
  for (const [name, value] of kept) params.set(name, value);
  const query = params.toString();
  return `/sign-in${query ? `?${query}` : ""}`;
}
