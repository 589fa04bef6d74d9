/**
 * The audit trail: every state-changing `/api` request (POST, PUT, PATCH, DELETE other than the stateless
 * tooling), every refused one — 401 and 403 on any method, reads included, and 429 from a per-user limit or
 * the sign-in throttle — and so every sign-in attempt, is appended to the store's audit log once it has
 * been answered, with the acting user (null when anonymous), the client address, the request id, the
 * outcome (success; failure for a wrong password and other errors; denied for other 401s, 403 and 429) and
 * what was done to what.
 * Handlers name the action and resource with `noteAudit` (which also records a read, such as the callback
 * of a sign-in with an identity provider); otherwise the entry says `<METHOD> <path>`.
 * Request bodies, headers and query strings are never recorded (a password, a token, a license or a
 * pipeline is not audit material), and neither is a credential in the path: a share link's token is
 * recorded as `{token}` (a refused revocation would otherwise keep a live link in the log).
 */
import type { Context, MiddlewareHandler } from "hono";
import { callerOf } from "../caller.js";
import { ServiceError } from "../errors.js";
import type { AuditResult, AuditStore } from "../store/audit/contract.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a handler says it did, for the audit entry. */
export interface AuditNote {
  action: string;
  resource?: string;
  /** The outcome, when the status does not tell it (a refused sign-in that answers with a redirect). */
  result?: AuditResult;
}

/**
 * Names the action and resource of the request being handled (e.g. `pipeline.create`, `pipeline/<id>`); a
 * request so named is recorded whatever its method (a sign-in through an identity provider is a GET).
 */
export function noteAudit(c: Context, action: string, resource?: string, result?: AuditResult): void {
  c.set("audit", { action, resource, result } satisfies AuditNote);
}

export interface AuditOptions {
  store: AuditStore;
  /** The client address, as the rate limiter sees it. */
  clientAddress(c: Context): string | undefined;
  /** POST paths that change nothing (checks, searches), which are not audited. */
  stateless: RegExp;
  /** Where a failure to write the audit log is reported (the request itself is not failed by it). */
  warn?: (line: string) => void;
}

/**
 * The routes with a credential in their path, as segments: `*` is any one segment, `{token}` the credential.
 * Matched on the decoded segments, case-insensitively and as a prefix, so every spelling that reaches (or
 * nearly reaches) such a route is masked.
 */
const CREDENTIAL_ROUTES = [
  ["api", "share", "{token}"],
  ["api", "pipelines", "*", "share", "{token}"],
];

/** A segment shaped like a share token (24 random bytes in base64url), wherever it appears. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path as the audit log keeps it: every credential segment replaced by `{token}`. */
export function auditedPath(path: string): string {
  const raw = path.split("/");
  // Indexes of the non-empty segments, so `/api//share/x` is judged as `/api/share/x`.
  const present = raw.flatMap((segment, index) => (segment === "" ? [] : [index]));
  const masked = new Set(present.filter((index) => TOKEN_SHAPE.test(decoded(raw[index]!))));
  for (const route of CREDENTIAL_ROUTES) {
    const matches = route.every((part, at) => {
      const index = present[at];
      if (index === undefined) return part === "{token}"; // the route's own path without its token holds none
      return part === "*" || part === "{token}" || decoded(raw[index]!).toLowerCase() === part;
    });
    if (matches) route.forEach((part, at) => part === "{token}" && present[at] !== undefined && masked.add(present[at]));
  }
  return raw.map((segment, index) => (masked.has(index) ? "{token}" : segment)).join("/");
}

/** Refusals: no or bad credentials, a role or origin not allowed, a limit reached. */
const DENIED = new Set([401, 403, 429]);

/** The outcome: a wrong password (AUTH_FAILED) is a failed attempt; other 401s, 403s and 429s are refusals. */
function resultOf(c: Context): AuditResult {
  if (c.error instanceof ServiceError && c.error.code === "AUTH_FAILED") return "failure";
  if (DENIED.has(c.res.status)) return "denied";
  return c.res.status < 400 ? "success" : "failure";
}

/** The audit middleware. */
export function auditTrail(options: AuditOptions): MiddlewareHandler {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  return async (c, next) => {
    await next();
    // The path the router matched (its canonical spelling), not the one sent.
    const path = c.req.path;
    if (!path.startsWith("/api/")) return;
    const note = c.get("audit") as AuditNote | undefined;
    // A refused request, and one its handler named, is recorded whatever its method; of the rest, only what may change something.
    const refused = c.res.status === 401 || c.res.status === 403;
    if (!refused && note === undefined && (!MUTATING.has(c.req.method) || options.stateless.test(path))) return;
    try {
      await options.store.appendAudit({
        actor: callerOf(c).id || null,
        method: c.req.method,
        path: auditedPath(path),
        status: c.res.status,
        result: note?.result ?? resultOf(c),
        action: note?.action,
        resource: note?.resource ?? null,
        ip: options.clientAddress(c) ?? null,
        detail: (c.get("requestId") as string | undefined) ?? null,
      });
    } catch (error) {
      warn(`WARN audit entry for ${c.req.method} ${auditedPath(path)} not written: ${(error as Error).message}`);
    }
  };
}
