/**
 * CORS: same origin only by default (no CORS headers at all); `SERVICE_CORS_ORIGINS` (comma-separated
 * origins, or `*`) lets browser apps on other origins call the API.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** The CORS middleware for a list of allowed origins (empty: same origin only). */
export function corsPolicy(origins: string[]): MiddlewareHandler {
  if (origins.length === 0) return async (_c, next) => next();
  const any = origins.includes("*");
  return cors({
    origin: (origin) => (any ? origin || "*" : origins.includes(origin) ? origin : null),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Content-Type", "Authorization", "X-Request-Id", "Last-Event-ID"],
    exposeHeaders: ["X-Request-Id", "X-Service-Version", "X-Service-License", "Retry-After"],
    credentials: !any,
    maxAge: 600,
  });
}

/** Reads `SERVICE_CORS_ORIGINS`. */
export function corsOriginsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.SERVICE_CORS_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter(Boolean);
}
