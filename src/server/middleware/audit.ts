/**
 * The audit trail: every state-changing `/api` request (POST, PUT, PATCH, DELETE other than the stateless
 * tooling) is appended to the store's audit log once it has been answered, with the acting user, the client
 * address, the outcome (success, failure, or denied for 401/403) and what was done to what. Handlers name
 * the action and resource with `noteAudit`; otherwise the entry says `<METHOD> <path>`. Request bodies are
 * never recorded (a license or a pipeline is not audit material).
 */
import type { Context, MiddlewareHandler } from "hono";
import { callerOf } from "../caller.js";
import type { AuditResult, Store } from "../store/store.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a handler says it did, for the audit entry. */
export interface AuditNote {
  action: string;
  resource?: string;
}

/** Names the action and resource of the request being handled (e.g. `pipeline.create`, `pipeline/<id>`). */
export function noteAudit(c: Context, action: string, resource?: string): void {
  c.set("audit", { action, resource } satisfies AuditNote);
}

export interface AuditOptions {
  store: Store;
  /** The client address, as the rate limiter sees it. */
  clientAddress(c: Context): string | undefined;
  /** POST paths that change nothing (checks, searches), which are not audited. */
  stateless: RegExp;
  /** Where a failure to write the audit log is reported (the request itself is not failed by it). */
  warn?: (line: string) => void;
}

function resultOf(status: number): AuditResult {
  if (status === 401 || status === 403) return "denied";
  return status < 400 ? "success" : "failure";
}

/** The audit middleware. */
export function auditTrail(options: AuditOptions): MiddlewareHandler {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  return async (c, next) => {
    await next();
    const path = new URL(c.req.url).pathname;
    if (!MUTATING.has(c.req.method) || !path.startsWith("/api/") || options.stateless.test(path)) return;
    const note = c.get("audit") as AuditNote | undefined;
    try {
      await options.store.appendAudit({
        actor: callerOf(c).id || null,
        method: c.req.method,
        path,
        status: c.res.status,
        result: resultOf(c.res.status),
        action: note?.action,
        resource: note?.resource ?? null,
        ip: options.clientAddress(c) ?? null,
        detail: (c.get("requestId") as string | undefined) ?? null,
      });
    } catch (error) {
      warn(`WARN audit entry for ${c.req.method} ${path} not written: ${(error as Error).message}`);
    }
  };
}
