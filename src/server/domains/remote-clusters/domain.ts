/** The remote-clusters domain as the app mounts it: the registry of clusters reached over SSH. */
import type { DomainMount } from "../../domain-mount.js";
import { lazySealer, SecretBox, type KeySealer } from "../../secret-box.js";
import type { ClusterStore } from "../../store/clusters/contract.js";
import { remoteClusterRoutes } from "./routes.js";
import { ClusterRegistry } from "./service.js";

export { ClusterRegistry, clusterChange, type ClusterProbe, type ClusterView } from "./service.js";
export { declareClusters, type DeclaredClusters } from "./declared.js";

/** The registry's routes; credentials are sealed with the service's secret key (made on first use). */
export function remoteClusterDomain(deps: { store: ClusterStore; secretKey?: string; configDir: string }): DomainMount & { registry: ClusterRegistry; sealer: KeySealer } {
  const sealer = lazySealer(() => SecretBox.fromConfig({ secretKey: deps.secretKey, configDir: deps.configDir }));
  const registry = new ClusterRegistry(deps.store, sealer);
  return { routers: [remoteClusterRoutes(registry)], registry, sealer };
}
