/**
 * Request and response types of the observability domain (they generate its part of the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";

export const ComponentStatus = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  detail: z.string().optional(),
});

export const HealthDocument = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    mode: z.enum(["personal", "team", "hpc"]),
    license: z.object({ type: z.string(), valid: z.boolean() }),
    components: z.record(z.string(), ComponentStatus),
    uptime_s: z.number(),
  })
  .openapi("Health");

export const ErrorBodySchema = z
  .object({
    code: z.string(),
    message: z.string(),
    detail: z.string().optional(),
    suggestion: z.string().optional(),
  })
  .openapi("Error");
