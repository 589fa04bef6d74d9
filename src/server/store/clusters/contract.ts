/**
 * The cluster registry: remote clusters the service submits runs to over SSH (docs/guide/hpc.md), as the
 * administrators registered them. Field names follow the API's JSON and the predecessor's (`ssh_host`,
 * `ssh_port`, `ssh_user`, `scheduler`, `remote_dir`, `enabled`); timestamps are RFC 3339 UTC strings.
 */

/** The schedulers a cluster can have: `auto` asks the login node at the first probe, `none` runs jobs on the login node. */
export const CLUSTER_SCHEDULERS = ["auto", "slurm", "pbs", "sge", "lsf", "none"] as const;

/** A cluster's scheduler setting. */
export type ClusterScheduler = (typeof CLUSTER_SCHEDULERS)[number];

/** What happens to a finished remote run's results: copied back to the service (default), or left where they are with their paths listed. */
export const CLUSTER_RESULTS = ["pull", "remote"] as const;

/** Where a remote run's results end up. */
export type ClusterResults = (typeof CLUSTER_RESULTS)[number];

/**
 * Where a remote run's engine runs: on the login node, detached in its own process group (default), or as a
 * job of the cluster's scheduler (sites that allow no long-running processes on their login nodes).
 */
export const CLUSTER_ENGINE_PLACEMENTS = ["login_node", "job"] as const;

/** Where a cluster runs a remote run's engine. */
export type ClusterEnginePlacement = (typeof CLUSTER_ENGINE_PLACEMENTS)[number];

/** Who may start runs on a cluster: everyone (both null), or the listed roles and users. */
export interface ClusterAccess {
  roles: string[] | null;
  users: string[] | null;
}

/** One registered cluster. The credential is either sealed key text or a path on the service host, never returned by the API. */
export interface ClusterRecord {
  /** A slug: letters, digits, `_` and `-`. */
  id: string;
  name: string;
  ssh_host: string;
  ssh_port: number;
  ssh_user: string;
  /** The private key as SecretBox.seal made it; never the plain key. */
  sealed_private_key: string | null;
  /** A private key file on the service host, read when connecting. */
  key_path: string | null;
  /** The pinned host key's SHA-256 fingerprint (`SHA256:…`); no run starts while it is null. */
  host_key_sha256: string | null;
  /** The host key a probe saw while none was pinned (or a different one), for an administrator to confirm. */
  seen_host_key_sha256: string | null;
  scheduler: ClusterScheduler;
  /** An absolute folder on the cluster; per-user and per-run folders are made under it. */
  remote_dir: string;
  results: ClusterResults;
  /** Where the engine of a run on this cluster runs (`job` needs a scheduler other than `none`). */
  engine_placement: ClusterEnginePlacement;
  /** More options for the submit command of the engine's job (`--partition=long`, `--time=7-00:00:00`), each one word; empty: the scheduler's defaults. */
  engine_job_options: string[];
  /** At most this many runs of one user on the cluster at once (null: the service's own per-user limit). */
  max_runs_per_user: number | null;
  access: ClusterAccess;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  /** The id of the caller who saved it last (null for clusters declared in the configuration file). */
  updated_by: string | null;
}

/** What a caller saves: everything but the timestamps. */
export type ClusterInput = Omit<ClusterRecord, "created_at" | "updated_at">;

/** The cluster registry: what the services may read and change. */
export interface ClusterStore {
  /** Every registered cluster, by name then id. */
  listClusters(): Promise<ClusterRecord[]>;

  /** One cluster, or null when no cluster has that id. */
  getCluster(id: string): Promise<ClusterRecord | null>;

  /** Saves a cluster by id (the predecessor's upsert): created_at is kept when it exists, updated_at is now. */
  putCluster(input: ClusterInput): Promise<ClusterRecord>;

  /** Saves a cluster only when no cluster has its id (clusters declared at start never overwrite the registry); true when it was added. */
  addClusterIfAbsent(input: ClusterInput): Promise<boolean>;

  /** Records the host key a probe saw; null when no cluster has that id. */
  recordSeenHostKey(id: string, sha256: string): Promise<ClusterRecord | null>;

  /** Removes a cluster; false when there was none. */
  deleteCluster(id: string): Promise<boolean>;
}
