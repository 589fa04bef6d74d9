/**
 * CORS: same origin only by default (no CORS headers at all); `SERVICE_CORS_ORIGINS` (comma-separated
 * origins, or `*`) lets browser apps on other origins call the API.
 *
 * A named origin gets its own name back with `Access-Control-Allow-Credentials: true`, so a browser app
 * there can use the session cookie. `*` lets any page read the API without credentials: the answer is the
 * literal `*` (browsers then refuse to send or expose cookies), never the caller's origin reflected. Any
 * other origin gets no CORS header at all, credentials included, and its preflight is not answered.
 */
import type { MiddlewareHandler } from "hono";
import { canonicalOrigin } from "./origin-check.js";

const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id, Last-Event-ID";
const EXPOSE_HEADERS = "X-Request-Id, X-Service-Version, X-Service-License, Retry-After";

/** The CORS middleware for a list of allowed origins (empty: same origin only). */
export function corsPolicy(origins: string[]): MiddlewareHandler {
  if (origins.length === 0) return async (_c, next) => next();
  const anyOrigin = origins.includes("*");
  const named = new Set(origins.map((origin) => canonicalOrigin(origin)).filter((origin): origin is string => origin !== undefined));
  return async (c, next) => {
    const origin = c.req.header("Origin");
    const canonical = origin === undefined ? undefined : canonicalOrigin(origin);
    const grant: Record<string, string> | undefined =
      canonical !== undefined && named.has(canonical)
        ? { "Access-Control-Allow-Origin": canonical, "Access-Control-Allow-Credentials": "true" }
        : origin !== undefined && anyOrigin
          ? { "Access-Control-Allow-Origin": "*" }
          : undefined;
    if (grant && c.req.method === "OPTIONS" && c.req.header("Access-Control-Request-Method") !== undefined) {
      return new Response(null, {
        status: 204,
        headers: { ...grant, "Access-Control-Allow-Methods": ALLOW_METHODS, "Access-Control-Allow-Headers": ALLOW_HEADERS, "Access-Control-Max-Age": "600", Vary: "Origin" },
      });
    }
    await next();
    // The answer depends on Origin whenever origins are named: caches must keep one copy per origin.
    c.res.headers.append("Vary", "Origin");
    if (!grant) return;
    for (const [name, value] of Object.entries(grant)) c.res.headers.set(name, value);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  };
}

