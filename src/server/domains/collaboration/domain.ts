/** The collaboration domain as the app mounts it: forks, share links and imports. */
import type { DomainMount } from "../../domain-mount.js";
import type { PipelineStore, StorageQuota } from "../../store/pipelines/contract.js";
import type { ShareStore } from "../../store/shares/contract.js";
import type { RemoteFetchOptions } from "./remote-fetch.js";
import { collaborationRoutes } from "./routes.js";

export type { RemoteFetchOptions } from "./remote-fetch.js";

/** What the collaboration domain needs. */
export interface CollaborationDependencies {
  store: PipelineStore & ShareStore;
  /** `SERVICE_PUBLIC_URL`'s origin, when set: share links name its host. */
  publicUrl?: string;
  /** How imports fetch remote pipelines. */
  fetch: RemoteFetchOptions;
  quota?: StorageQuota;
}

/** Forks, share links and imports over `store`. */
export function collaborationDomain(deps: CollaborationDependencies): DomainMount {
  return { routers: [collaborationRoutes(deps.store, { publicUrl: deps.publicUrl, fetch: deps.fetch, quota: deps.quota })] };
}
