/**
 * Request tracing: a request id (a trusted proxy's `X-Request-Id` when it is a sane token, else a new
 * UUID) on the context, on the response and on every log line written while the request is handled; and
 * one log line per request with method, route pattern (never the raw path, which may hold a share token),
 * status and latency — INFO, except `/api/health` at DEBUG so health probes do not flood the log.
 */
import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { withRequestContext, type Logger } from "../logger.js";
import { isTrustedProxy, transportPeer } from "./rate-limit.js";

/** What the tracing middleware reports when a request ends (the metrics count it). */
export interface RequestRecord {
  method: string;
  /** The route pattern that answered (`/api/pipelines/{id}`), or `(unmatched)` for unknown paths. */
  route: string;
  status: number;
  seconds: number;
}

export interface TracingOptions {
  logger: Logger;
  /** Addresses whose `X-Request-Id` is believed (`SERVICE_TRUSTED_PROXY`); other clients get a fresh id. */
  trustedProxies?: string[];
  /** Called once per request when it has been answered. */
  onRequest?: (record: RequestRecord) => void;
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The pattern of the route that handled a request, in OpenAPI's `{param}` form. */
export function routePattern(c: Context): string {
  const handler = [...c.req.matchedRoutes].reverse().find((route) => route.method !== "ALL");
  if (!handler) return "(unmatched)";
  return handler.path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

/** The tracing middleware. */
export function tracing(options: TracingOptions): MiddlewareHandler {
  const trusted = options.trustedProxies ?? [];
  return async (c, next) => {
    const started = performance.now();
    const offered = c.req.header("X-Request-Id");
    const fromProxy = isTrustedProxy(transportPeer(c), trusted);
    const requestId = fromProxy && offered && SANE_ID.test(offered) ? offered : randomUUID();
    c.set("requestId", requestId);
    await withRequestContext(requestId, async () => {
      try {
        await next();
      } finally {
        c.res.headers.set("X-Request-Id", requestId);
        const route = routePattern(c);
        const seconds = (performance.now() - started) / 1000;
        const line = { method: c.req.method, route, status: c.res.status, latency_ms: Math.round(seconds * 10_000) / 10 };
        const message = `${c.req.method} ${route} ${c.res.status}`;
        if (c.req.path === "/api/health") options.logger.debug(line, message);
        else options.logger.info(line, message);
        options.onRequest?.({ method: c.req.method, route, status: c.res.status, seconds });
      }
    });
  };
}
