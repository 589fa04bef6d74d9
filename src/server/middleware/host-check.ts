/**
 * Protection of a personal service against DNS rebinding: a web page on `evil.example` whose name is made to
 * resolve to 127.0.0.1 could otherwise call this service from the user's browser (save pipelines, start
 * runs, which run commands). Such requests carry the attacker's name in `Host`, so a request is served only
 * when its Host is an IP address (a rebinding needs a name), `localhost` or a `*.localhost` name, the name
 * the service listens on, the host of `SERVICE_PUBLIC_URL`, or a name in `SERVICE_ALLOWED_HOSTS`.
 * Everything else is 421 MISDIRECTED_REQUEST.
 */
import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { ServiceError } from "../errors.js";

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower-cased, without a trailing dot. */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  const name = value.startsWith("[") ? value.slice(1, value.indexOf("]") >>> 0) : value.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/** Whether a request naming `host` may be served, given the extra names allowed. */
export function isAllowedHost(host: string, allowed: ReadonlySet<string>): boolean {
  const name = hostName(host);
  return isIP(name) !== 0 || name === "localhost" || name.endsWith(".localhost") || allowed.has(name);
}

/** The host-check middleware; `names` are the listen address, the public URL's host and the operator's list. */
export function hostCheck(names: (string | undefined)[]): MiddlewareHandler {
  const allowed = new Set(names.filter((name): name is string => !!name).map(hostName));
  return async (c, next) => {
    // Behind @hono/node-server the URL's host is the Host header; requests built in-process may carry only the URL.
    const host = c.req.header("Host") ?? new URL(c.req.url).host;
    if (!isAllowedHost(host, allowed)) {
      const shown = hostName(host).slice(0, 100);
      throw new ServiceError("MISDIRECTED_REQUEST", `this personal service answers requests for localhost and its own addresses, not for '${shown}'`, {
        detail: "a page on another site may be trying to reach this service through its name (DNS rebinding)",
        suggestion: "open the service at http://127.0.0.1 or http://localhost; an operator can allow more names with SERVICE_ALLOWED_HOSTS",
      });
    }
    await next();
  };
}
