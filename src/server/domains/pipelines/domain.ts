/** The pipelines domain as the app mounts it: saved pipelines, their revisions and search. */
import type { DomainMount } from "../../domain-mount.js";
import type { PipelineStore, StorageQuota } from "../../store/pipelines/contract.js";
import type { TemplateStore } from "../../store/templates/contract.js";
import { savedPipelineRoutes } from "./routes.js";

/** Saved pipelines over `store`, revisions kept within `quota`. */
export function pipelinesDomain(deps: { store: PipelineStore & TemplateStore; quota?: StorageQuota }): DomainMount {
  return { routers: [savedPipelineRoutes(deps.store, { quota: deps.quota })] };
}
