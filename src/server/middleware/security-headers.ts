/**
 * Security headers on every response: a content security policy suited to the single-page app (a run's
 * file keeps the stricter one it was given, see run-file-answers.ts),
 * `nosniff`, no referrer, no framing, and HSTS when the request came over HTTPS — directly, or through a
 * trusted reverse proxy (`SERVICE_TRUSTED_PROXY`) that says so with `X-Forwarded-Proto: https`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { isTrustedProxy, transportPeer } from "./rate-limit.js";

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** Sets the security headers on a response. */
export function applySecurityHeaders(headers: Headers, https: boolean): void {
  // A run's file carries a stricter policy of its own (default-src 'none', sandboxed): it stays.
  if (!headers.get("Content-Security-Policy")?.includes("default-src 'none'")) headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("X-Frame-Options", "DENY");
  if (https) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

/** Whether the client reached the service over HTTPS: the request's own scheme, or a trusted proxy's word. */
export function servedOverHttps(c: Context, trustedProxies: readonly string[]): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  const forwarded = c.req.header("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https" && isTrustedProxy(transportPeer(c), trustedProxies);
}

/** The security-headers middleware. */
export function securityHeaders(trustedProxies: readonly string[] = []): MiddlewareHandler {
  return async (c, next) => {
    await next();
    applySecurityHeaders(c.res.headers, servedOverHttps(c, trustedProxies));
  };
}
