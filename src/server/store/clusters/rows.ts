/** Complete rows of the cluster registry from what callers supply, shared by both implementations. */
import type { ClusterInput, ClusterRecord } from "./contract.js";

/** A cluster as saved now, keeping `created_at` when it replaces one. */
export function clusterRow(input: ClusterInput, now: string, createdAt: string = now): ClusterRecord {
  return {
    id: input.id,
    name: input.name,
    ssh_host: input.ssh_host,
    ssh_port: input.ssh_port,
    ssh_user: input.ssh_user,
    sealed_private_key: input.sealed_private_key ?? null,
    key_path: input.key_path ?? null,
    host_key_sha256: input.host_key_sha256 ?? null,
    seen_host_key_sha256: input.seen_host_key_sha256 ?? null,
    scheduler: input.scheduler,
    remote_dir: input.remote_dir,
    results: input.results,
    engine_placement: input.engine_placement,
    engine_job_options: [...input.engine_job_options],
    max_runs_per_user: input.max_runs_per_user ?? null,
    access: { roles: input.access.roles ?? null, users: input.access.users ?? null },
    enabled: input.enabled,
    created_at: createdAt,
    updated_at: now,
    updated_by: input.updated_by ?? null,
  };
}
