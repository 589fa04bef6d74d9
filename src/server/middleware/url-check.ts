/**
 * Malformed URLs are the client's mistake: a path with a bad percent-escape (`/assets/%`, `/%E0%A4%A`) is
 * 400 BAD_REQUEST with the error body, before any handler tries to decode it.
 */
import type { MiddlewareHandler } from "hono";
import { ServiceError } from "../errors.js";

/** The URL-check middleware. */
export function urlCheck(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const path = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
    if (path.includes("%")) {
      try {
        decodeURIComponent(path);
      } catch {
        throw new ServiceError("BAD_REQUEST", "the URL's path has a malformed percent-escape", { suggestion: "escape '%' as %25 and write every escape as % and two hex digits of UTF-8" });
      }
    }
    await next();
  };
}
