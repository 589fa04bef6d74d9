/**
 * Request and response types of the runs endpoints (they generate this part of the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";
import { JOB_ROW_STATUSES, NODE_STATUSES } from "../../runner/job-states.js";
import { CONTAINER_RUNTIMES, TARGET_TYPES } from "../../runner/run-targets.js";
import { RUN_ACTIONS, RUN_STATUSES } from "../../store/runs/run-states.js";
import { DagResult, ErrorBodySchema, FindingSchema, SamplesSchema } from "../../openapi-shapes.js";

/** One line of text for an engine argument: no line breaks or NUL bytes. */
const argumentText = (max: number) => z.string().min(1).max(max).regex(/^[^\r\n\0]+$/, "must be one line of text");

export const RunTargetSchema = z
  .object({
    type: z.enum(TARGET_TYPES).openapi({ description: "where the jobs run (default local)" }),
    partition: argumentText(200).optional().openapi({ description: "scheduler partition (slurm) or queue" }),
    queue: argumentText(200).optional().openapi({ description: "scheduler queue (pbs, sge, lsf); same as partition" }),
    account: argumentText(200).optional(),
    walltime: argumentText(64).optional().openapi({ description: "default time limit per scheduler job, e.g. 01:00:00" }),
    extra_args: z.array(argumentText(500)).max(32).optional().openapi({ description: "extra submission options, e.g. --qos=short" }),
    max_submitted: z.number().int().min(1).max(100_000).optional().openapi({ description: "scheduler jobs in flight at once" }),
    poll_interval: z.union([z.number().int().min(1).max(3600), argumentText(32)]).optional().openapi({ description: "how often to ask the scheduler (seconds or 5s, 1m)" }),
    image: argumentText(500).optional().openapi({ description: "container target: the image every rule without its own environment runs in" }),
    runtime: z.enum(CONTAINER_RUNTIMES).optional().openapi({ description: "container target: the program that runs the image" }),
  })
  .strict()
  .openapi("RunTarget");

export const CreateRunBody = z
  .object({
    toml_content: z.string().max(5_000_000).optional().openapi({ description: "pipeline TOML text (or give pipeline_id)" }),
    pipeline_id: z.string().min(1).max(128).optional().openapi({ description: "a saved pipeline to run (its current revision is recorded)" }),
    target: RunTargetSchema.optional(),
    jobs: z.number().int().min(1).max(1024).optional().openapi({ description: "jobs at once (default 1)" }),
    keep_going: z.boolean().optional().openapi({ description: "keep running independent jobs after a failure" }),
    dry_run: z.boolean().optional().openapi({ description: "plan only: nothing executes; every job would_run or would_skip with the engine's reason, in …/status, …/dag-status and …/logs" }),
    fresh: z.boolean().optional().openapi({
      description: "a saved pipeline's run in an empty workspace of its own; without it, runs of one saved pipeline by one owner share a workspace and skip what is up to date",
    }),
    samples: SamplesSchema.optional(),
    cluster_id: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "run on this registered remote cluster (GET /api/clusters lists the ones you may use); null or empty: on this service's machine. target may then carry the cluster scheduler's options" }),
    targets: z.array(argumentText(200)).max(1000).optional().openapi({ description: "run only these rules (prefix match) and what they need" }),
    config: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, "a config key: letters, digits, _ . -"), z.union([z.string().max(10_000).regex(/^[^\0]*$/, "no NUL bytes"), z.number(), z.boolean()]))
      .optional()
      .openapi({ description: "config overrides, like --arg KEY=VALUE" }),
  })
  .strict()
  .openapi("CreateRun");

export const RunCountsSchema = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), running: z.number().int(), skipped: z.number().int(), pending: z.number().int() }).openapi("RunCounts");

export const RunRemoteSchema = z
  .object({
    cluster_id: z.string(),
    workspace: z.string().nullable().openapi({ description: "the run's workspace on the cluster (under its remote folder, per user and per run or pipeline)" }),
    scheduler: z.string().nullable().openapi({ description: "the scheduler the remote engine submits jobs to (none: the login node runs them); null until the run started" }),
    results: z.enum(["pull", "remote"]).openapi({ description: "pull: results are brought back when the run ends; remote: they stay in the remote workspace" }),
    phase: z.enum(["staging", "running", "collecting", "done"]),
    engine_job: z
      .object({ id: z.string(), state: z.enum(["queued", "running", "ended"]) })
      .nullable()
      .openapi({ description: "the scheduler job the remote engine runs in, on a cluster that places engines in jobs (null: it runs on the login node); queued until the scheduler starts it" }),
    connection: z
      .object({
        state: z.enum(["connecting", "connected", "reconnecting", "refused", "closed"]),
        since: z.string(),
        attempts: z.number().int(),
        error: z.string().nullable(),
        retry_at: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "the link to the login node while the service follows the run (null once it ended)" }),
  })
  .openapi("RunRemote");

export const RunSchema = z
  .object({
    id: z.string(),
    status: z.enum(RUN_STATUSES),
    pipeline_id: z.string().nullable(),
    pipeline_revision: z.number().int().nullable(),
    workflow_name: z.string(),
    owner: z.string(),
    target: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    exit_code: z.number().int().nullable(),
    counts: RunCountsSchema,
    retry_of: z.string().nullable(),
    dry_run: z.boolean(),
    actions: z.array(z.enum(RUN_ACTIONS)).openapi({ description: "what the run's state allows now (POST /api/runs/{id}/<action>): pause a running run, resume a paused one, cancel one that has not ended, retry a failed or cancelled one that was not a dry run" }),
    workspace: z.string().nullable().openapi({ description: "the run's working folder on the server; shown to administrators only (null for other callers, whose views say <workspace> for it)" }),
    error: z.string().nullable().openapi({ description: "why the run failed or was cancelled" }),
    remote: RunRemoteSchema.nullable().openapi({ description: "where a run on a remote cluster is (null for runs on this service's machine)" }),
  })
  .openapi("Run");

export const RunDetail = RunSchema.extend({ log_tail: z.array(z.string()).openapi({ description: "the last 100 lines of the engine's log" }) }).openapi("RunDetail");

export const RunPageSchema = z.object({ items: z.array(RunSchema), next_cursor: z.string().nullable(), total: z.number().int() }).openapi("RunPage");

export const RunListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "page size (default 50, at most 500)" }),
  cursor: z.string().max(500).optional().openapi({ description: "next_cursor of the previous page" }),
  status: z.enum(RUN_STATUSES).optional(),
  q: z.string().max(200).optional().openapi({ description: "part of the workflow name" }),
});

export const RunIdParam = z.object({ id: z.string().min(1).max(128).openapi({ param: { name: "id", in: "path" }, description: "run id" }) });

/** A 409 answer to a new run of a saved pipeline while another run of it works in its workspace. */
export const RunConflict = z
  .object({ ...ErrorBodySchema.shape, running_run: z.string().optional().openapi({ description: "the run in the way" }) })
  .openapi("RunConflict");

const RuleJobsSchema = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), running: z.number().int(), skipped: z.number().int() });
const NodeStatusSchema = z.enum(NODE_STATUSES).openapi({ description: "the rule's state in this run; a dry run's rules are would_run (a job of it would run) or would_skip" });

/** The engine's reason for running or skipping a job. */
const JobReasonSchema = z.object({ code: z.string().openapi({ description: "never-completed, config-changed, rule-changed, downstream, up-to-date, …" }), text: z.string() });

/** Every job of a run with its state and the engine's reason for it. */
const RunJobsSchema = z
  .array(
    z.object({
      job: z.string(),
      rule: z.string(),
      status: z.enum(JOB_ROW_STATUSES).openapi({ description: "would_run and would_skip: a dry run's plan" }),
      reason: JobReasonSchema.nullable().openapi({ description: "why the engine runs (or would run) the job, or skips it; null when it did not say (a job stopped by a cancel keeps the reason it was started for)" }),
    }),
  )
  .openapi({ description: "the jobs the engine has named so far, in its order; empty with ?jobs=false (GET /api/runs/{id}/jobs pages them)" });

/** `?jobs=false` on the status views: leave the job list out (the run page pages it through `…/jobs`). */
export const RunViewQuery = z.object({
  jobs: z.enum(["true", "false"]).optional().openapi({ description: "false: `jobs` is returned empty (page the jobs with GET /api/runs/{id}/jobs instead); default true" }),
});

export const RunJobsQuery = z.object({
  offset: z.coerce.number().int().min(0).optional().openapi({ description: "rows to skip (default 0)" }),
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: "rows in the page (default 100, at most 1000)" }),
  sort: z.enum(["order", "job", "rule", "status", "started_at", "duration_ms"]).optional().openapi({ description: "the column to sort by (default order: the engine's order); ties keep the engine's order, rows without a value come last" }),
  order: z.enum(["asc", "desc"]).optional().openapi({ description: "default asc" }),
  q: z.string().max(500).optional().openapi({ description: "only jobs whose id or rule contains this text (case-insensitive)" }),
  status: z.enum(JOB_ROW_STATUSES).optional().openapi({ description: "only jobs in this status" }),
  rule: z.string().min(1).max(500).optional().openapi({ description: "only jobs of this rule" }),
});

export const RunJobRowSchema = z
  .object({
    index: z.number().int().openapi({ description: "the job's position in the engine's order (0 first)" }),
    job: z.string(),
    rule: z.string(),
    status: z.enum(JOB_ROW_STATUSES).openapi({ description: "would_run and would_skip: a dry run's plan" }),
    reason: JobReasonSchema.nullable().openapi({ description: "why the engine runs (or would run) the job, or skips it; null when it did not say" }),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    duration_ms: z.number().nullable(),
    exit_code: z.number().int().nullable(),
  })
  .openapi("RunJobRow");

export const RunJobsPage = z
  .object({
    items: z.array(RunJobRowSchema),
    total: z.number().int().openapi({ description: "jobs the filters keep (all pages)" }),
    offset: z.number().int(),
    limit: z.number().int(),
  })
  .openapi("RunJobsPage");

export const RunStatusView = z
  .object({
    status: z.string(),
    nodes: z.array(z.object({ rule: z.string(), status: NodeStatusSchema, jobs: RuleJobsSchema, duration_ms: z.number().nullable() })),
    jobs: RunJobsSchema,
    timeline: z
      .array(z.object({ time: z.string(), type: z.string(), rule: z.string().nullable(), job: z.string().nullable(), message: z.string() }))
      .openapi({ description: "the most recent entries, oldest first (at most 500; timeline_total counts them all)" }),
    timeline_total: z.number().int().openapi({ description: "entries of the whole timeline, those left out of `timeline` included" }),
    resources: z.object({ cpu_pct: z.number(), memory_mb: z.number(), peak_memory_mb: z.number(), disk_mb: z.number() }),
  })
  .openapi("RunStatusView");

const JobCounts = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), running: z.number().int(), skipped: z.number().int() });

export const RunDagStatus = DagResult.extend({
  nodes: z.array(
    DagResult.shape.nodes.element.extend({
      status: NodeStatusSchema,
      jobs: JobCounts.openapi({ description: "the node's jobs by state (one job for a job node)" }),
    }),
  ),
  status: z.string(),
  completed: z.number().int(),
  failed: z.number().int(),
  running: z.number().int(),
  pending: z.number().int(),
  skipped: z.number().int(),
  jobs: RunJobsSchema,
  eta_ms: z.number().int().nullable().openapi({ description: "estimated time to finish (null until a job has finished; 0 once the run has ended)" }),
}).openapi("RunDagStatus");

export const RunLogsQuery = z.object({
  job: z.string().min(1).max(500).optional().openapi({ description: "a job of the run (default: the engine's log)" }),
  stream: z.enum(["stdout", "stderr", "engine"]).optional().openapi({ description: "default: stderr with a job, engine without" }),
  offset: z.coerce.number().int().min(0).optional().openapi({ description: "byte offset: next_offset of the previous page" }),
  limit: z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: "lines (default 1000)" }),
});

export const RunLogsView = z
  .object({ job: z.string().nullable(), stream: z.string(), lines: z.array(z.string()), next_offset: z.number().int(), eof: z.boolean() })
  .openapi("RunLogs");

export const RunResultsView = z
  .object({
    files: z.array(z.object({ path: z.string(), size_bytes: z.number().int(), rule: z.string(), modified_at: z.string() })),
    total_size_bytes: z.number().int(),
    truncated: z.boolean().openapi({ description: "true when more outputs exist than one answer lists (10,000)" }),
    remote: z
      .object({ cluster_id: z.string(), workspace: z.string() })
      .nullable()
      .openapi({ description: "results left on a remote cluster (its results = remote): the paths are relative to this workspace there, and cannot be previewed or downloaded here" }),
  })
  .openapi("RunResults");

export const RunDiagnosticsView = z
  .object({
    failures: z.array(
      z.object({
        rule: z.string().nullable(),
        job: z.string().nullable(),
        exit_code: z.number().int().nullable(),
        pattern: z.string(),
        category: z.string(),
        likely_cause: z.string(),
        suggestions: z.array(z.string()),
        log_excerpt: z.array(z.string()),
      }),
    ),
    warnings: z.array(z.record(z.string(), z.unknown())),
    bottlenecks: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi("RunDiagnostics");

export const RunRefusal = z
  .object({ ...ErrorBodySchema.shape, findings: z.array(FindingSchema).optional() })
  .openapi("RunRefusal");

export const RunFilesQuery = z.object({
  path: z.string().max(4096).optional().openapi({ description: "a file or folder, relative to the run's workspace with / between parts (absent: the top); absolute paths, .., links and the engine's .strand folder answer 404" }),
  download: z.enum(["0", "1", "true", "false"]).optional().openapi({ description: "1: Content-Disposition attachment even for a file a browser could show" }),
  format: z.enum(["json", "zip"]).optional().openapi({ description: "for a folder: json (default) lists it; zip streams it as a zip archive" }),
});

export const RunFolderView = z
  .object({
    path: z.string().openapi({ description: "the folder, relative to the workspace (empty: its top)" }),
    entries: z.array(
      z.object({
        name: z.string(),
        path: z.string().openapi({ description: "relative to the workspace: the path to ask for next" }),
        type: z.enum(["file", "folder"]),
        size_bytes: z.number().int().openapi({ description: "a file's size (0 for a folder)" }),
        modified_at: z.string(),
      }),
    ),
    truncated: z.boolean().openapi({ description: "true when the folder has more entries than one answer lists (5,000; folders first, then files, by name)" }),
  })
  .openapi("RunFolder");
