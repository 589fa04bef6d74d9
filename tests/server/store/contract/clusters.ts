/** The store contract of the cluster registry, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import type { ClusterInput } from "../../../../src/server/store/clusters/contract.js";
import { type FreshStore } from "./harness.js";

/** A cluster as an administrator registers it. */
function cluster(id: string, overrides: Partial<ClusterInput> = {}): ClusterInput {
  return {
    id,
    name: `Cluster ${id}`,
    ssh_host: "login.example.org",
    ssh_port: 22,
    ssh_user: "strand",
    sealed_private_key: "v1:aXY:dGFn:Y2lwaGVy",
    key_path: null,
    host_key_sha256: null,
    seen_host_key_sha256: null,
    scheduler: "slurm",
    remote_dir: "/scratch/strand",
    results: "pull",
    engine_placement: "login_node",
    engine_job_options: [],
    max_runs_per_user: null,
    access: { roles: null, users: null },
    enabled: true,
    updated_by: "admin-id",
    ...overrides,
  };
}

/** Registers the clusters area's contract tests. */
export function clusterContract(fresh: FreshStore): void {
  describe("the cluster registry", () => {
    it("saves by id, keeps created_at on replace, lists by name, and deletes", async () => {
      const { store } = await fresh();
      expect(await store.listClusters()).toEqual([]);
      const hpc = await store.putCluster(cluster("hpc", { name: "Zeta" }));
      expect(hpc).toEqual({ ...cluster("hpc", { name: "Zeta" }), created_at: "2026-11-21T09:00:00.000Z", updated_at: "2026-11-21T09:00:00.000Z" });
      await store.putCluster(cluster("lab-1", { name: "Alpha", scheduler: "none", results: "remote", engine_placement: "job", engine_job_options: ["--partition=long", "--time=7-00:00:00"], max_runs_per_user: 2, access: { roles: ["admin"], users: ["u-1"] }, enabled: false }));
      expect((await store.listClusters()).map((entry) => entry.id)).toEqual(["lab-1", "hpc"]);

      const replaced = await store.putCluster(cluster("hpc", { name: "Zeta", ssh_port: 2222, sealed_private_key: null, key_path: "/etc/strand/id_ed25519", host_key_sha256: "SHA256:abc" }));
      expect(replaced.created_at).toBe(hpc.created_at);
      expect(replaced.updated_at > hpc.updated_at).toBe(true);
      expect(replaced).toMatchObject({ ssh_port: 2222, sealed_private_key: null, key_path: "/etc/strand/id_ed25519", host_key_sha256: "SHA256:abc" });
      expect(await store.getCluster("hpc")).toEqual(replaced);
      expect(await store.getCluster("lab-1")).toMatchObject({ scheduler: "none", results: "remote", engine_placement: "job", engine_job_options: ["--partition=long", "--time=7-00:00:00"], max_runs_per_user: 2, access: { roles: ["admin"], users: ["u-1"] }, enabled: false });

      expect(await store.deleteCluster("hpc")).toBe(true);
      expect(await store.deleteCluster("hpc")).toBe(false);
      expect(await store.getCluster("hpc")).toBeNull();
    });

    it("adds a declared cluster only when its id is free, and records a seen host key without pinning it", async () => {
      const { store } = await fresh();
      expect(await store.addClusterIfAbsent(cluster("hpc", { updated_by: null }))).toBe(true);
      const edited = await store.putCluster(cluster("hpc", { name: "Edited by an administrator" }));
      expect(await store.addClusterIfAbsent(cluster("hpc", { updated_by: null }))).toBe(false);
      expect(await store.getCluster("hpc")).toEqual(edited);

      const seen = await store.recordSeenHostKey("hpc", "SHA256:seen");
      expect(seen).toMatchObject({ seen_host_key_sha256: "SHA256:seen", host_key_sha256: null });
      expect(await store.recordSeenHostKey("nope", "SHA256:seen")).toBeNull();
    });
  });
}
