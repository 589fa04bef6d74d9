/**
 * The rules for sending a caller to the sign-in page and back: where the app lands after signing in, which
 * `return_to` it follows (a path inside this app only), and the sign-in page's address for the page a caller
 * was on (the failed OAuth callback's parameters carried along). Who is signed in: api/account.ts.
 */

/** Where the app goes after signing in when no page was asked for. */
export const DEFAULT_LANDING = "/pipelines";

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
