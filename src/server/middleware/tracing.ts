/**
 * Request tracing: a request id (the client's `X-Request-Id` when it is a sane token, else a new UUID) on
 * the context and the response, and one log line per request with method, path, status and latency —
 * INFO, except `/api/health` at DEBUG so health probes do not flood the log.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";

export type LogLevel = "debug" | "info";

export interface TracingOptions {
  /** Where lines go (default: stderr when the level is enabled). */
  log?: (level: LogLevel, line: string) => void;
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The level at which lines are printed: `SERVICE_LOG_LEVEL=debug` shows health checks too. */
function defaultLog(level: LogLevel, line: string): void {
  if (level === "debug" && process.env.SERVICE_LOG_LEVEL !== "debug") return;
  process.stderr.write(`${new Date().toISOString()} ${level.toUpperCase()} ${line}\n`);
}

/** The tracing middleware. */
export function tracing(options: TracingOptions = {}): MiddlewareHandler {
  const log = options.log ?? defaultLog;
  return async (c, next) => {
    const started = performance.now();
    const offered = c.req.header("X-Request-Id");
    const requestId = offered && SANE_ID.test(offered) ? offered : randomUUID();
    c.set("requestId", requestId);
    try {
      await next();
    } finally {
      c.res.headers.set("X-Request-Id", requestId);
      const path = new URL(c.req.url).pathname;
      const ms = (performance.now() - started).toFixed(1);
      log(path === "/api/health" ? "debug" : "info", `${c.req.method} ${path} ${c.res.status} ${ms}ms request_id=${requestId}`);
    }
  };
}
