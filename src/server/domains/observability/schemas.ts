/**
 * Request and response types of the observability domain (they generate its part of the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";

export const HealthDocument = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    mode: z.enum(["personal", "team", "hpc"]),
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
    }),
  })
  .openapi("Health");

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "page size (default 50)" }),
  cursor: z.string().max(512).optional().openapi({ description: "next_cursor of the previous page" }),
  user: z.string().max(256).optional().openapi({ description: "only this user's entries" }),
  action: z.string().max(256).optional().openapi({ description: "only this action, e.g. pipeline.create" }),
});

export const AuditEntrySchema = z
  .object({
    id: z.string(),
    time: z.string(),
    user: z.string().nullable(),
    action: z.string(),
    resource: z.string().nullable(),
    result: z.enum(["success", "failure", "denied"]),
    ip: z.string().nullable(),
  })
  .openapi("AuditEntry");

export const AuditPage = z.object({ items: z.array(AuditEntrySchema), next_cursor: z.string().nullable() }).openapi("AuditPage");
