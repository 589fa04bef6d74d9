/**
 * The observability domain's logic, free of HTTP: the health document.
 */
import type { z } from "@hono/zod-openapi";
import type { HealthDocument } from "./schemas.js";

export interface HealthContext {
  version: string;
  mode: "personal" | "team" | "hpc";
  startedAt: number;
  /** Checks of the parts the service depends on, by name. */
  components: Record<string, () => { status: "ok" | "degraded" | "down"; detail?: string }>;
}

/** The health document: overall status is degraded as soon as one component is not ok. */
export function healthDocument(context: HealthContext): z.infer<typeof HealthDocument> {
  const components: z.infer<typeof HealthDocument>["components"] = {};
  for (const [name, check] of Object.entries(context.components)) {
    try {
      components[name] = check();
    } catch (error) {
      components[name] = { status: "down", detail: (error as Error).message };
    }
  }
  const degraded = Object.values(components).some((component) => component.status !== "ok");
  return {
    status: degraded ? "degraded" : "ok",
    version: context.version,
    mode: context.mode,
    license: { type: "academic", valid: true },
    components,
    uptime_s: Math.round((Date.now() - context.startedAt) / 1000),
  };
}
