/**
 * Response types of the cluster domain (they generate its part of the OpenAPI document): the local
 * scheduler's partitions, nodes and jobs as `GET /api/hpc` reports them.
 */
import { z } from "@hono/zod-openapi";

const Duration = z.string().openapi({ description: 'as the scheduler prints it: "[days-]hours:minutes:seconds", "minutes:seconds", "UNLIMITED"…' });
const Seconds = z.number().int().nullable().openapi({ description: "the same duration in seconds; null when unlimited or not set" });

export const PartitionSchema = z
  .object({
    name: z.string(),
    state: z.string().openapi({ description: "up, down, drain or inactive (sinfo's AVAIL)" }),
    default: z.boolean().openapi({ description: "whether jobs that name no partition go here" }),
    nodes: z.number().int(),
    nodes_allocated: z.number().int(),
    nodes_idle: z.number().int(),
    cpus_total: z.number().int(),
    cpus_allocated: z.number().int(),
    cpus_idle: z.number().int(),
    time_limit: Duration,
    time_limit_s: Seconds,
  })
  .openapi("HpcPartition");

export const NodeSchema = z
  .object({
    name: z.string(),
    state: z.string().openapi({ description: "idle, mixed, allocated, down, drained…, as sinfo prints it (a trailing * means the node does not answer)" }),
    cpus_total: z.number().int(),
    cpus_allocated: z.number().int(),
    cpus_idle: z.number().int(),
    memory_total_mb: z.number().int().nullable(),
    memory_allocated_mb: z.number().int().nullable(),
    memory_free_mb: z.number().int().nullable().openapi({ description: "free memory as the node's operating system reports it" }),
    partitions: z.array(z.string()),
    reason: z.string().nullable().openapi({ description: "why the node is down or drained, when it is" }),
  })
  .openapi("HpcNode");

export const JobSchema = z
  .object({
    id: z.string().openapi({ description: "the job id (array tasks as 123_4)" }),
    name: z.string(),
    user: z.string().openapi({ description: "the Unix user the job runs as" }),
    partition: z.string(),
    state: z.string().openapi({ description: "PENDING, RUNNING, COMPLETING…, as squeue prints it" }),
    elapsed: Duration,
    elapsed_s: Seconds,
    time_limit: Duration,
    time_limit_s: Seconds,
    node_count: z.number().int(),
    cpus: z.number().int(),
    nodes: z.string().nullable().openapi({ description: "the nodes it runs on (SLURM's list syntax, e.g. node[01-04]); null while pending" }),
    reason: z.string().nullable().openapi({ description: "why it waits (Priority, Resources…); null when none" }),
    submitted_at: z.string().nullable(),
  })
  .openapi("HpcJob");

export const HpcStatusSchema = z
  .object({
    available: z.boolean().openapi({ description: "whether the scheduler answered; when false, message says why and the lists are empty" }),
    scheduler: z.enum(["slurm"]).nullable().openapi({ description: "the scheduler found on this host; null when none is installed" }),
    version: z.string().nullable(),
    message: z.string().nullable().openapi({ description: "why the scheduler could not be read (null when it was)" }),
    checked_at: z.string().openapi({ description: "when the scheduler was read (answers are shared for 2 seconds)" }),
    partitions: z.array(PartitionSchema),
    nodes: z.array(NodeSchema),
    jobs: z.array(JobSchema).openapi({ description: "jobs in the queue the caller may see, in squeue's order (at most 1,000)" }),
    total_jobs: z.number().int().openapi({ description: "jobs in the queue the caller may see, including those beyond the list" }),
    jobs_truncated: z.boolean(),
    jobs_visibility: z.enum(["all", "own"]).openapi({ description: "all: every job in the queue (administrators); own: the jobs of the caller's own runs only" }),
    other_jobs: z.number().int().openapi({ description: "jobs in the queue the caller does not see (other users' runs, jobs from outside strand), counted without any detail; 0 for administrators" }),
  })
  .openapi("HpcStatus");

/** The body of `GET /api/hpc`. */
export type HpcStatus = z.infer<typeof HpcStatusSchema>;
/** One partition of the scheduler. */
export type HpcPartition = z.infer<typeof PartitionSchema>;
/** One compute node. */
export type HpcNode = z.infer<typeof NodeSchema>;
/** One job in the queue. */
export type HpcJob = z.infer<typeof JobSchema>;
