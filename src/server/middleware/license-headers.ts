/**
 * The informational headers on every response: `X-Service-Version` (the package version) and
 * `X-Service-License` (one line naming each component's license and a contact).
 */
import type { MiddlewareHandler } from "hono";

export const LICENSE_LINE = "engine, cli, ai: Apache-2.0; web server: academic/commercial dual license; contact licensing@strand.example";

/** Sets the version and license headers on a response. */
export function applyLicenseHeaders(headers: Headers, version: string): void {
  headers.set("X-Service-Version", version);
  headers.set("X-Service-License", LICENSE_LINE);
}

/** The license-header middleware (innermost). */
export function licenseHeaders(version: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    applyLicenseHeaders(c.res.headers, version);
  };
}
