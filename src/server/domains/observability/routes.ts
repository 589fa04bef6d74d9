/**
 * HTTP adapter of the observability domain: `GET /api/health`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { HealthDocument } from "./schemas.js";
import { healthDocument, type HealthContext } from "./service.js";

const healthRoute = createRoute({
  method: "get",
  path: "/api/health",
  tags: ["observability"],
  summary: "Availability: version, mode, license and the status of each component",
  responses: { 200: { description: "the health document", content: { "application/json": { schema: HealthDocument } } } },
});

/** The observability router. */
export function observabilityRoutes(context: HealthContext): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(healthRoute, (c) => c.json(healthDocument(context), 200));
  return router;
}
