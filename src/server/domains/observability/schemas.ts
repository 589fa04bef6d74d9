/**
 * Request and response types of the observability domain (they generate its part of the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";

export const HealthDocument = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    mode: z.enum(["personal", "team", "hpc"]),
    instance_id: z.string().openapi({ description: "this process among the instances serving the database (SERVICE_INSTANCE_ID, or made at start)" }),
    peers: z
      .array(
        z.object({
          instance_id: z.string(),
          host: z.string(),
          pid: z.number().int(),
          version: z.string(),
          started_at: z.string(),
          heartbeat_at: z.string().openapi({ description: "when it last said it was alive (every 5 s while it runs)" }),
          alive: z.boolean().openapi({ description: "its heartbeat is fresh (within 30 s)" }),
        }),
      )
      .openapi({ description: "the other instances registered on this database, as this one's last heartbeat read them (empty with SQLite, which one process serves)" }),
    uptime_s: z.number(),
    license: z.object({ type: z.string(), valid: z.boolean() }),
    components: z.object({
      database: z.object({ status: z.enum(["ok", "down"]), latency_ms: z.number().nullable(), detail: z.string().optional() }),
      engine: z.object({
        status: z.enum(["ok", "down"]),
        version: z.string(),
        active_runs: z.number().int().openapi({ description: "runs whose engine this service supervises (running or paused)" }),
        queued_runs: z.number().int(),
        detail: z.string().optional(),
      }),
      ai: z.object({ status: z.enum(["ok", "not_configured"]), provider: z.string().nullable() }),
      sandbox: z
        .object({
          status: z.enum(["ok", "off"]).openapi({ description: "off: runs are not sandboxed (personal mode, or SERVICE_SANDBOX=off)" }),
          kind: z.enum(["bwrap", "none"]),
          capabilities: z.enum(["none", "the service's"]).openapi({ description: "jobs' capabilities: none (their own user namespace, every capability dropped)" }),
          runs_as: z.enum(["the service's account", "an unprivileged account"]).openapi({ description: "a root service's jobs run under an unprivileged account (SERVICE_SANDBOX_USER)" }),
          network: z.enum(["none", "host"]).openapi({ description: "jobs' network: their own empty one, or the host's (SERVICE_JOB_NETWORK)" }),
          limits: z.enum(["cgroup-v2", "rlimits", "none"]).openapi({ description: "what holds each job to its declared memory, its CPUs and the process cap" }),
          processes_per_job: z.number().int().nullable().openapi({ description: "SERVICE_JOB_MAX_PROCESSES" }),
          workspace_quota_mb: z.number().int().nullable().openapi({ description: "each user's workspace quota (SERVICE_USER_WORKSPACE_MB); null: none" }),
        })
        .openapi({ description: "the job sandbox and how jobs are limited" }),
    }),
  })
  .openapi("Health");

/** An RFC 3339 time in a query (checked by the handler, which names the field in its 400). */
const QueryTime = (description: string) => z.string().max(64).optional().openapi({ description, format: "date-time", example: "2025-01-31T00:00:00Z" });

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "page size (default 50)" }),
  cursor: z.string().max(512).optional().openapi({ description: "next_cursor of the previous page (keep the same filters)" }),
  user: z.string().max(256).optional().openapi({ description: "only this user's entries: a user id or a username" }),
  action: z.string().max(256).optional().openapi({ description: "only this action, e.g. pipeline.create or auth.login" }),
  result: z.enum(["success", "failure", "denied"]).optional().openapi({ description: "only entries with this outcome" }),
  resource: z.string().max(512).optional().openapi({ description: "only entries about this resource, e.g. run/<id> or user/<name>" }),
  since: QueryTime("only entries at or after this time (RFC 3339)"),
  until: QueryTime("only entries before this time (RFC 3339)"),
});

export const AuditEntrySchema = z
  .object({
    id: z.string(),
    time: z.string(),
    user: z.string().nullable(),
    action: z.string(),
    resource: z.string().nullable(),
    result: z.enum(["success", "failure", "denied"]),
    ip: z.string().nullable().openapi({ description: "the client address (behind a trusted proxy, the address it forwarded)" }),
    status: z.number().int().openapi({ description: "the HTTP status of the answer" }),
    request_id: z.string().nullable().openapi({ description: "the request's X-Request-Id, as in the service's log" }),
  })
  .openapi("AuditEntry");

export const AuditPage = z.object({ items: z.array(AuditEntrySchema), next_cursor: z.string().nullable() }).openapi("AuditPage");
