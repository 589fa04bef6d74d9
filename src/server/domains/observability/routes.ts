/**
 * HTTP adapter of the observability domain: `GET /api/health` (503 when the database is unreachable),
 * `GET /api/system`, `GET /api/metrics` (JSON, or the Prometheus text format with `?format=prometheus` or an
 * `Accept` of text/plain or OpenMetrics) and `GET /api/audit` (administrators; the personal-mode user is one).
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { failureResponse } from "../../openapi-shapes.js";
import { PathPrivacy } from "../../path-privacy.js";
import type { AccountStore } from "../../store/accounts/contract.js";
import type { AuditStore } from "../../store/audit/contract.js";
import type { RunStore } from "../../store/runs/contract.js";
import type { StoreConnection } from "../../store/store.js";
import { MetricsCollector, systemDocument, type MetricSources } from "./metrics.js";
import { describeSandbox } from "../../runner/sandbox.js";
import type { ServiceMetrics } from "./prometheus.js";
import { auditEntryView, auditQuery } from "./audit-listing.js";
import { AuditPage, AuditQuerySchema, HealthDocument } from "./schemas.js";
import { healthDocument, type HealthContext } from "./service.js";

const healthRoute = createRoute({
  method: "get",
  path: "/api/health",
  operationId: "getHealth",
  tags: ["observability"],
  summary: "Availability: version, mode, license and the status of each component",
  responses: {
    200: { description: "the health document", content: { "application/json": { schema: HealthDocument } } },
    503: { description: "the database cannot be reached (the same document, status degraded)", content: { "application/json": { schema: HealthDocument } } },
  },
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
    memory_free_mb: z.number(),
    data_dir: z.string().nullable().openapi({ description: "the service's data folder; administrators only (null for other callers)" }),
    storage: z.enum(["sqlite", "postgres"]),
    started_at: z.string(),
    engine: z.object({ version: z.string(), executors: z.array(z.string()) }),
    sandbox: z
      .object({
        kind: z.enum(["bwrap", "none"]).openapi({ description: "bwrap: runs' engines and jobs run in bubblewrap; none: unsandboxed (SERVICE_SANDBOX)" }),
        hidden: z.array(z.string()).nullable().openapi({ description: "folders jobs see empty; administrators only (null for other callers)" }),
        data_roots: z.array(z.string()).nullable().openapi({ description: "SERVICE_DATA_ROOTS, readable by jobs; administrators only (null for other callers)" }),
      })
      .openapi({ description: "the job sandbox in use" }),
  })
  .openapi("System");

const systemRoute = createRoute({
  method: "get",
  path: "/api/system",
  operationId: "getSystem",
  tags: ["observability"],
  summary: "The machine and process the service runs on",
  responses: { 200: { description: "system information", content: { "application/json": { schema: SystemDocument } } } },
});

const MetricsDocumentSchema = z
  .object({
    cpu_pct: z.number(),
    load_average_1m: z.number(),
    memory_total_mb: z.number(),
    memory_free_mb: z.number(),
    memory_used_mb: z.number(),
    rss_mb: z.number(),
    heap_used_mb: z.number(),
    active_runs: z.number().int(),
    queued_runs: z.number().int(),
    requests_total: z.number().int(),
    sse_subscribers: z.number().int(),
    event_loop_lag_ms: z.number(),
    uptime_s: z.number(),
  })
  .openapi("Metrics");

const metricsRoute = createRoute({
  method: "get",
  path: "/api/metrics",
  operationId: "getMetrics",
  tags: ["observability"],
  summary: "Runtime metrics as JSON, or in the Prometheus text format with ?format=prometheus or Accept: text/plain",
  request: { query: z.object({ format: z.enum(["json", "prometheus"]).optional().openapi({ description: "prometheus: the Prometheus text exposition format (as Accept: text/plain)" }) }) },
  responses: {
    200: {
      description: "the metrics",
      content: { "application/json": { schema: MetricsDocumentSchema }, "text/plain": { schema: z.string() } },
    },
  },
});

const auditRoute = createRoute({
  method: "get",
  path: "/api/audit",
  operationId: "listAudit",
  tags: ["observability"],
  summary: "The audit log, newest first: sign-in attempts, refused requests and state-changing requests (administrators), filtered by user, action, result, resource and time",
  request: { query: AuditQuerySchema },
  responses: {
    200: { description: "one page of audit entries", content: { "application/json": { schema: AuditPage } } },
    400: failureResponse("a bad limit, cursor or result, or a since or until that is not an RFC 3339 time (the message names it)"),
    403: failureResponse("the caller is not an administrator"),
  },
});

export interface ObservabilityContext extends HealthContext {
  store: AuditStore & AccountStore & RunStore & Pick<StoreConnection, "kind" | "ping">;
  dataDir: string;
  /** How server paths are hidden from callers who are not administrators (default: the data folder's rule). */
  privacy?: PathPrivacy;
  /** The Prometheus registry the service's instruments write to. */
  prometheus: ServiceMetrics;
}

/** Whether a metrics request asks for the Prometheus text format (by query, or by Accept without JSON). */
function wantsPrometheus(format: string | undefined, accept: string): boolean {
  if (format !== undefined) return format === "prometheus";
  return /text\/plain|application\/openmetrics-text/.test(accept) && !/application\/json/.test(accept);
}

/** The observability router. */
export function observabilityRoutes(context: ObservabilityContext, sources: MetricSources): OpenAPIHono {
  const router = new OpenAPIHono();
  const collector = new MetricsCollector(sources);
  const privacy = context.privacy ?? new PathPrivacy({ dataDir: context.dataDir });
  router.openapi(healthRoute, async (c) => {
    // Public: a component's detail (a missing engine program, say) must not spell out server paths.
    const health = privacy.forCaller(callerOf(c), await healthDocument(context));
    return c.json(health, health.components.database.status === "ok" ? 200 : 503);
  });
  router.openapi(systemRoute, (c) => {
    const system = systemDocument(context.version, context.mode, context.startedAt, { kind: context.store.kind, dataDir: context.dataDir });
    const admin = callerOf(c).admin;
    const sandbox = context.sandbox?.() ?? describeSandbox(undefined);
    return c.json({ ...system, data_dir: admin ? system.data_dir : null, sandbox: { kind: sandbox.kind, hidden: admin ? sandbox.hidden : null, data_roots: admin ? sandbox.data_roots : null } }, 200);
  });
  router.openapi(auditRoute, async (c) => {
    if (!callerOf(c).admin) throw new ServiceError("ACCESS_DENIED", "the audit log is for administrators");
    const page = await context.store.listAudit(await auditQuery(context.store, c.req.valid("query")));
    return c.json({ items: page.items.map(auditEntryView), next_cursor: page.next_cursor }, 200);
  });
  router.openapi(metricsRoute, async (c) => {
    if (wantsPrometheus(c.req.valid("query").format, c.req.header("Accept") ?? "")) {
      const { text, contentType } = await context.prometheus.exposition();
      // The typed helper expects JSON; the Prometheus text is a plain Response the route also documents.
      return new Response(text, { status: 200, headers: { "Content-Type": contentType } }) as never;
    }
    return c.json(collector.snapshot(), 200);
  });
  return router;
}
