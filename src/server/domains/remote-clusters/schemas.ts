/**
 * Request and response shapes of the cluster registry (`GET/POST /api/clusters`, `DELETE /api/clusters/{id}`):
 * the predecessor's field names (`ssh_host`, `ssh_port`, `ssh_user`, `scheduler`, `remote_dir`, `enabled`),
 * plus what pinned host keys and sealed credentials need. A credential is written, never read back.
 */
import { z } from "@hono/zod-openapi";
import { USER_ROLES } from "../../store/accounts/contract.js";
import { CLUSTER_ENGINE_PLACEMENTS, CLUSTER_RESULTS, CLUSTER_SCHEDULERS } from "../../store/clusters/contract.js";

/** Characters no registry field may hold: control characters and invisible format characters. */
const NO_CONTROL = /^[^\p{Cc}\p{Cf}]*$/u;

/** A cluster id: a slug the administrator chose. */
const ClusterId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a cluster id: 1 to 64 letters, digits, '_' or '-'");

export const ClusterIdParam = z.object({ id: ClusterId.openapi({ param: { name: "id", in: "path" }, example: "hpc-main" }) });

/** A SHA-256 host key fingerprint as OpenSSH prints it (`ssh-keygen -lf`, `ssh-keyscan | ssh-keygen -lf -`). */
export const HostKeyFingerprint = z
  .string()
  .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, "a SHA-256 fingerprint as ssh-keygen -l prints it: SHA256: and 43 base64 characters")
  .openapi({ example: "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s" });

const Access = z
  .object({
    roles: z.array(z.enum(USER_ROLES as [string, ...string[]])).max(3).nullable().optional(),
    users: z.array(z.string().min(1).max(128)).max(1000).nullable().optional().openapi({ description: "user ids" }),
  })
  .openapi({ description: "who may start runs on it: every signed-in user when both are null or absent; else the listed roles and users (administrators always)" });

export const SaveClusterBody = z
  .object({
    id: ClusterId.openapi({ example: "hpc-main" }),
    name: z.string().trim().min(1).max(200).regex(NO_CONTROL, "no control characters").optional().openapi({ description: "default: the id" }),
    ssh_host: z
      .string()
      .regex(/^(?!-)[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/, "a host name or an IP address (no user@, no port, no spaces)")
      .optional()
      .openapi({ description: "the login node; required when the cluster is new" }),
    ssh_port: z.number().int().min(1).max(65535).optional().openapi({ description: "default 22" }),
    ssh_user: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/, "a user name: letters, digits, '_', '.' or '-', starting with a letter or '_'")
      .optional()
      .openapi({ description: "the account on the login node; required when the cluster is new" }),
    private_key: z
      .string()
      .max(16_384)
      .regex(/^-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----\s*$/, "an unencrypted private key in PEM or OpenSSH form (-----BEGIN … PRIVATE KEY-----)")
      .optional()
      .openapi({ description: "write-only: stored sealed, never returned or logged; replaces key_path" }),
    key_path: z
      .string()
      .max(1024)
      .regex(/^\/[^\p{Cc}\p{Cf}]*$/u, "an absolute path on the service's host")
      .optional()
      .openapi({ description: "write-only: a private key file on the service's host, read when connecting; replaces private_key" }),
    host_key_sha256: HostKeyFingerprint.nullable().optional().openapi({ description: "pins the host key (null unpins it); a run starts only on a cluster with a pinned key" }),
    confirm_host_key: z.boolean().optional().openapi({ description: "pins the host key the last probe saw" }),
    scheduler: z.enum(CLUSTER_SCHEDULERS).optional().openapi({ description: "default auto (found by the probe); none runs jobs on the login node" }),
    remote_dir: z
      .string()
      .max(1024)
      .regex(/^\/[A-Za-z0-9._/+@~-]*$/, "an absolute folder of letters, digits and . _ / + @ ~ -")
      .refine((dir) => !dir.split("/").includes(".."), "no .. in the folder")
      .optional()
      .openapi({ description: "required when the cluster is new: per-user and per-run folders are made under it" }),
    results: z.enum(CLUSTER_RESULTS).optional().openapi({ description: "pull (default): results are copied back when a run ends; remote: left there, their paths listed" }),
    engine_placement: z
      .enum(CLUSTER_ENGINE_PLACEMENTS)
      .optional()
      .openapi({ description: "login_node (default): a run's engine runs on the login node, detached; job: it is submitted as a job of the cluster's scheduler (for sites that allow no long-running processes on login nodes)" }),
    engine_job_options: z
      .array(z.string().min(1).max(200).regex(NO_CONTROL, "no control characters"))
      .max(32)
      .optional()
      .openapi({ description: "more options for the submit command of the engine's job, one word each (e.g. [\"--partition=long\", \"--time=7-00:00:00\"]); default none", example: ["--time=2-00:00:00", "--mem=4G"] }),
    max_runs_per_user: z.number().int().min(1).max(10_000).nullable().optional(),
    access: Access.optional(),
    enabled: z.boolean().optional().openapi({ description: "default true" }),
  })
  .strict()
  .openapi("SaveCluster");

const HostKeyState = z
  .object({
    pinned: z.string().nullable().openapi({ description: "the pinned SHA-256 fingerprint" }),
    seen: z.string().nullable().openapi({ description: "what the last probe saw, when it is not the pinned one" }),
    state: z.enum(["pinned", "unconfirmed", "changed", "unknown"]).openapi({
      description: "pinned: runs may start; unconfirmed: a probe saw a key for an administrator to confirm; changed: the host's key differs from the pinned one (runs refused); unknown: no key pinned or seen yet",
    }),
  })
  .openapi("ClusterHostKey");

export const ClusterSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    ssh_host: z.string(),
    ssh_port: z.number().int(),
    ssh_user: z.string().optional().openapi({ description: "administrators only" }),
    credential: z.enum(["key", "path", "none"]).optional().openapi({ description: "administrators only: which kind of credential is stored (never the key or its path)" }),
    host_key: HostKeyState,
    scheduler: z.enum(CLUSTER_SCHEDULERS),
    remote_dir: z.string().optional().openapi({ description: "administrators only" }),
    results: z.enum(CLUSTER_RESULTS),
    engine_placement: z.enum(CLUSTER_ENGINE_PLACEMENTS).openapi({ description: "where a run's engine runs: on the login node, or as a scheduler job" }),
    engine_job_options: z.array(z.string()).optional().openapi({ description: "administrators only: the engine job's submit options" }),
    max_runs_per_user: z.number().int().nullable(),
    access: z.object({ roles: z.array(z.string()).nullable(), users: z.array(z.string()).nullable() }).optional().openapi({ description: "administrators only" }),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Cluster");

export const ClusterListSchema = z.array(ClusterSchema).openapi("ClusterList");

export const DeletedClusterSchema = z.object({ deleted: z.string() }).openapi("DeletedCluster");

export const ClusterProbeSchema = z
  .object({
    ok: z.boolean().openapi({ description: "the login node answered the probe" }),
    cluster: z.string(),
    hostname: z.string().nullable(),
    scheduler: z.enum(["slurm", "pbs", "sge", "lsf", "none"]).nullable().openapi({ description: "the scheduler whose commands answer there" }),
    version: z.string().nullable().openapi({ description: "the scheduler's version, as it prints it" }),
    node_version: z.string().nullable(),
    strand_version: z.string().nullable(),
    engine: z.string().nullable().openapi({ description: "what runs would use there, or what to install" }),
    free_bytes: z.number().nullable().openapi({ description: "free space where the remote folder is (or would be)" }),
    latency_ms: z.number().int().nullable().openapi({ description: "one round trip of a command" }),
    duration_ms: z.number().int(),
    host_key: HostKeyState,
    error: z.string().nullable().openapi({ description: "why the probe failed: an unpinned or changed host key (with the key seen), an unreachable host, a refused key" }),
  })
  .openapi("ClusterProbe");
