/**
 * Cross-site request forgery protection: a state-changing API request (POST, PUT, PATCH, DELETE under
 * /api/) that a browser sends on behalf of a page from another origin is refused with 403 CROSS_ORIGIN,
 * before any handler runs. Browsers say where a request comes from in `Origin` and `Sec-Fetch-Site`, and a
 * page cannot forge either; the session cookie would otherwise ride along (SameSite=Lax stops most of this,
 * but not sibling subdomains, which count as the same site, nor a personal service, which has no cookie and
 * no sign-in at all: any page the user visits could start runs on it).
 *
 * Allowed: requests from the service's own origin (its Host, or `SERVICE_PUBLIC_URL`), from an origin
 * named in `SERVICE_CORS_ORIGINS` (which may call with credentials), requests a browser marks same-origin or
 * user-initiated (`Sec-Fetch-Site: same-origin` or `none`), requests with neither header (curl and scripts
 * are not browsers), and scripts that authenticate with `Authorization: Bearer` and send no cookie: a page
 * cannot add that header to a cross-origin request without a CORS preflight, which the CORS policy refuses
 * to origins it does not name.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ServiceError } from "../errors.js";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface OriginCheckOptions {
  /** `SERVICE_PUBLIC_URL`: its origin is the service's own besides the request's Host. */
  publicUrl?: string;
  /** `SERVICE_CORS_ORIGINS`: origins allowed to call the API from a browser (`*` grants no credentials, so it does not count). */
  corsOrigins?: readonly string[];
  /** Whether the client reached the service over HTTPS (the scheme of its own origin). */
  https(c: Context): boolean;
}

/** An origin in canonical form (`scheme://host[:port]`, lower-case, default port dropped); undefined when it is not one. */
export function canonicalOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origin-check middleware. */
export function originCheck(options: OriginCheckOptions): MiddlewareHandler {
  const configured = new Set<string>();
  for (const origin of options.corsOrigins ?? []) {
    const canonical = origin === "*" ? undefined : canonicalOrigin(origin);
    if (canonical) configured.add(canonical);
  }
  const publicOrigin = options.publicUrl ? canonicalOrigin(options.publicUrl) : undefined;
  if (publicOrigin) configured.add(publicOrigin);

  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method) || !c.req.path.startsWith("/api/")) return next();
    // A script's bearer token without a cookie: not something a forged browser request can carry.
    if (/^Bearer\s/i.test(c.req.header("Authorization") ?? "") && c.req.header("Cookie") === undefined) return next();
    const site = c.req.header("Sec-Fetch-Site")?.trim().toLowerCase();
    if (site === "same-origin" || site === "none") return next();
    const origin = c.req.header("Origin");
    if (origin === undefined) {
      // No Origin: a browser would send one with any cross-site write; without both headers this is not a browser.
      if (site === "cross-site" || site === "same-site") refuse(`a ${site} request`);
      return next();
    }
    const canonical = canonicalOrigin(origin);
    const own = canonicalOrigin(`${options.https(c) ? "https" : "http"}://${c.req.header("Host") ?? new URL(c.req.url).host}`);
    if (canonical !== undefined && (canonical === own || configured.has(canonical))) return next();
    refuse(`a request from ${canonical ?? "an opaque origin"}`);
  };
}

function refuse(what: string): never {
  throw new ServiceError("CROSS_ORIGIN", `${what} may not change anything here: it came from a page of another site`, {
    detail: "state-changing requests are accepted from this service's own pages, from origins in SERVICE_CORS_ORIGINS, and from scripts",
    suggestion: "call the API from the service's own origin, or from a script with Authorization: Bearer <token> (an operator can allow a browser app's origin with SERVICE_CORS_ORIGINS)",
  });
}
