/** The observability domain as the app mounts it: health, system, metrics and the audit log. */
import type { DomainMount } from "../../domain-mount.js";
import type { MetricSources } from "./metrics.js";
import { ServiceMetrics, type PrometheusSources } from "./prometheus.js";
import { observabilityRoutes, type ObservabilityContext } from "./routes.js";
import { sharedCheck } from "./service.js";

export { ServiceMetrics } from "./prometheus.js";
export type { InstanceView } from "./service.js";

/** The service's Prometheus instruments, made first: the request tracing and the AI's calls write to them. */
export function serviceMetrics(sources: PrometheusSources): ServiceMetrics {
  return new ServiceMetrics(sources);
}

/** The observability endpoints; the database check is shared, so a burst of health probes makes one round trip. */
export function observabilityDomain(context: Omit<ObservabilityContext, "pingDatabase">, sources: MetricSources): DomainMount {
  return { routers: [observabilityRoutes({ ...context, pingDatabase: sharedCheck(() => context.store.ping()) }, sources)] };
}
