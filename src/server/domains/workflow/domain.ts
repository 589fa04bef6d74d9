/** The workflow domain as the app mounts it: the stateless pipeline tooling. */
import type { DomainMount } from "../../domain-mount.js";
import { toolingRoutes } from "./routes.js";

export { TOOLING_NAMES } from "./service.js";

/** The tooling endpoints (validate, parse, prepare, dag, format, lint, stats, diff, export). */
export function workflowDomain(): DomainMount {
  return { routers: [toolingRoutes()] };
}
