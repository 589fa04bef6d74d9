/**
 * HTTP adapter of the observability domain: `GET /api/health`, `GET /api/system`, `GET /api/metrics`
 * (JSON, or the Prometheus text format for `Accept: text/plain`).
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { MetricsCollector, prometheusText, systemDocument, type MetricSources } from "./metrics.js";
import { HealthDocument } from "./schemas.js";
import { healthDocument, type HealthContext } from "./service.js";

const healthRoute = createRoute({
  method: "get",
  path: "/api/health",
  tags: ["observability"],
  summary: "Availability: version, mode, license and the status of each component",
  responses: { 200: { description: "the health document", content: { "application/json": { schema: HealthDocument } } } },
});

const SystemDocument = z
  .object({
    version: z.string(),
    mode: z.string(),
    node_version: z.string(),
    platform: z.string(),
    arch: z.string(),
    hostname: z.string(),
    pid: z.number(),
    cpus: z.number(),
    cpu_model: z.string().nullable(),
    memory_total_mb: z.number(),
    started_at: z.string(),
    engine: z.object({ version: z.string(), executors: z.array(z.string()) }),
  })
  .openapi("System");

const systemRoute = createRoute({
  method: "get",
  path: "/api/system",
  tags: ["observability"],
  summary: "The machine and process the service runs on",
  responses: { 200: { description: "system information", content: { "application/json": { schema: SystemDocument } } } },
});

const MetricsDocumentSchema = z.record(z.string(), z.number()).openapi("Metrics");

const metricsRoute = createRoute({
  method: "get",
  path: "/api/metrics",
  tags: ["observability"],
  summary: "Runtime metrics as JSON, or in the Prometheus text format with Accept: text/plain",
  responses: {
    200: {
      description: "the metrics",
      content: { "application/json": { schema: MetricsDocumentSchema }, "text/plain": { schema: z.string() } },
    },
  },
});

/** The observability router. */
export function observabilityRoutes(context: HealthContext, sources: MetricSources): OpenAPIHono {
  const router = new OpenAPIHono();
  const collector = new MetricsCollector(sources);
  router.openapi(healthRoute, (c) => c.json(healthDocument(context), 200));
  router.openapi(systemRoute, (c) => c.json(systemDocument(context.version, context.mode, context.startedAt), 200));
  router.openapi(metricsRoute, (c) => {
    const metrics = collector.snapshot();
    const accept = c.req.header("Accept") ?? "";
    if (/text\/plain/.test(accept) && !/application\/json/.test(accept)) {
      // The typed helper expects JSON; the Prometheus text is a plain Response the route also documents.
      return new Response(prometheusText(metrics), { status: 200, headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" } }) as never;
    }
    return c.json(metrics as unknown as Record<string, number>, 200);
  });
  return router;
}
