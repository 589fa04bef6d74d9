/**
 * HTTP adapter of runs: create and list, the detail and its views (status, dag-status, logs, results, report,
 * diagnostics), and the control operations (cancel, pause, resume, retry). Only administrators see server
 * paths in them (path-privacy.ts): for anyone else the workspace is null and paths in text say `<workspace>`.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyHook } from "../../body-hook.js";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { noteAudit } from "../../middleware/audit.js";
import { PathPrivacy } from "../../path-privacy.js";
import { engineWorkResponses, failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import type { RunStatus } from "../../store/runs/contract.js";
import {
  CreateRunBody,
  RunConflict,
  RunDagStatus,
  RunDetail,
  RunDiagnosticsView,
  RunFilesQuery,
  RunFolderView,
  RunIdParam,
  RunJobsPage,
  RunJobsQuery,
  RunListQuery,
  RunLogsQuery,
  RunLogsView,
  RunPageSchema,
  RunRefusal,
  RunResultsView,
  RunSchema,
  RunStatusView,
  RunViewQuery,
} from "./schemas.js";
import { cancelRun, createRun, pauseRun, resumeRun, retryRun, runDetail, runView, type ExecutionContext } from "./service.js";
import { runDagStatus, runDiagnostics, runJobs, runLogs, runResults, runStatus } from "./views.js";
import { runReport } from "./report-view.js";
import { runFileAnswer } from "./run-file-answers.js";

const TAGS = ["runs"];
const notFound = failureResponse("no such run (or not yours)");
const userLimitResponse = failureResponse(
  "USER_LIMIT: the caller's active runs (SERVICE_USER_MAX_RUNS) or their jobs at once (SERVICE_USER_MAX_THREADS) would go over the per-user limit (the body names the limit, allowed, in_use and requested); or RATE_LIMITED: too many requests from this client (with Retry-After)",
);

const createRunRoute = createRoute({
  method: "post",
  path: "/api/runs",
  operationId: "createRun",
  tags: TAGS,
  summary: "Start a run of pipeline text or of a saved pipeline; the pipeline is validated first",
  request: jsonBody(CreateRunBody),
  responses: {
    ...engineWorkResponses,
    201: jsonResponse(RunSchema, "the queued run"),
    400: jsonResponse(RunRefusal, "MISSING_FIELD, BAD_REQUEST, VALIDATE_ERROR (with findings) or RUN_ERROR (a target this server cannot use)"),
    404: failureResponse("pipeline_id names no pipeline you can read"),
    409: jsonResponse(RunConflict, "CONFLICT: another run of this saved pipeline is working in its shared workspace (running_run names it); wait, cancel it, or send fresh: true"),
    429: userLimitResponse,
  },
});

const listRunsRoute = createRoute({
  method: "get",
  path: "/api/runs",
  operationId: "listRuns",
  tags: TAGS,
  summary: "Runs, newest first, a page at a time (stable while runs are created)",
  request: { query: RunListQuery },
  responses: { 200: jsonResponse(RunPageSchema, "a page; next_cursor is null on the last"), 400: failureResponse("a cursor this server did not issue") },
});

const getRunRoute = createRoute({
  method: "get",
  path: "/api/runs/{id}",
  operationId: "getRun",
  tags: TAGS,
  summary: "A run with the tail of its engine log",
  request: { params: RunIdParam },
  responses: { 200: jsonResponse(RunDetail, "the run"), 404: notFound },
});

const viewResponses = <R>(ok: R) => ({ 200: ok, 404: notFound, ...engineWorkResponses });

/** A GET view of one run, `/api/runs/{id}/<path>`. */
const viewRoute = <S extends z.ZodType>(path: string, operationId: string, summary: string, schema: S) =>
  createRoute({ method: "get", path: `/api/runs/{id}/${path}`, operationId, tags: TAGS, summary, request: { params: RunIdParam }, responses: viewResponses(jsonResponse(schema, summary)) });

/** A status view of one run, with `?jobs=false` to leave its job list out. */
const statusViewRoute = <S extends z.ZodType>(path: string, operationId: string, summary: string, schema: S) =>
  createRoute({ method: "get", path: `/api/runs/{id}/${path}`, operationId, tags: TAGS, summary, request: { params: RunIdParam, query: RunViewQuery }, responses: viewResponses(jsonResponse(schema, summary)) });

const statusRoute = statusViewRoute("status", "getRunStatus", "Live status: nodes grouped by rule with job counts, the recent timeline, resources (and every job unless jobs=false)", RunStatusView);
const dagStatusRoute = statusViewRoute("dag-status", "getRunDagStatus", "The pipeline's DAG with per-node live status, job totals and an ETA (and every job unless jobs=false)", RunDagStatus);
const jobsRoute = createRoute({
  method: "get",
  path: "/api/runs/{id}/jobs",
  operationId: "listRunJobs",
  tags: TAGS,
  summary: "A page of the run's jobs, filtered and sorted on the server (a dry run: its plan)",
  description:
    "Each row has the job's position in the engine's order (`index`), status, the engine's reason, times, duration and exit code. " +
    "`total` counts the jobs the filters keep. Fast on runs of 100,000 jobs: the run's jobs are folded once and kept until its event log changes.",
  request: { params: RunIdParam, query: RunJobsQuery },
  responses: viewResponses(jsonResponse(RunJobsPage, "a page of jobs")),
});
const resultsRoute = viewRoute("results", "getRunResults", "Declared outputs that exist, with sizes", RunResultsView);
const diagnosticsRoute = viewRoute("diagnostics", "getRunDiagnostics", "Why jobs failed: one diagnosis per failed job from the rule engine", RunDiagnosticsView);
const reportRoute = createRoute({
  method: "get",
  path: "/api/runs/{id}/report",
  operationId: "getRunReport",
  tags: TAGS,
  summary: "The run's report: one self-contained HTML page (summary, rules, timeline, resources, failures with diagnoses, pipeline, environment)",
  request: { params: RunIdParam },
  responses: {
    200: { description: "an HTML document with inline CSS and SVG, no scripts and nothing loaded from elsewhere", content: { "text/html": { schema: z.string() } } },
    404: failureResponse("no such run (or not yours), or a run with no event log yet (not started, or a dry run)"),
    ...engineWorkResponses,
  },
});
const filesRoute = createRoute({
  method: "get",
  path: "/api/runs/{id}/files",
  operationId: "readRunFile",
  tags: TAGS,
  summary: "A file or folder of the run's workspace: a file's bytes (ranges supported), a folder's entries, or a folder as a zip",
  description:
    "A file is streamed with its Content-Type (by extension; HTML, XML and unknown text as text/plain), Content-Length, ETag, " +
    "Accept-Ranges and Content-Disposition (inline for text, JSON, images and PDF, attachment otherwise or with download=1); " +
    "a Range header answers 206 with Content-Range, or 416 outside the file. Every file answer carries X-Content-Type-Options: nosniff " +
    "and a Content-Security-Policy that sandboxes it (PDFs: default-src 'none' without sandbox), so nothing in a result runs script on this origin. " +
    "A folder answers JSON (RunFolder), or with format=zip an application/zip built while it is sent (at most 10,000 entries; links skipped). " +
    "The workspace is shared by runs of one saved pipeline: it shows the files as they are now. HEAD works too.",
  request: { params: RunIdParam, query: RunFilesQuery },
  responses: {
    200: {
      description: "a folder's entries (JSON), a folder as a zip, or a whole file",
      content: {
        "application/json": { schema: RunFolderView },
        "application/zip": { schema: z.string().openapi({ format: "binary" }) },
        "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    206: { description: "the requested range of a file (Content-Range says which)", content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } },
    304: { description: "the file has not changed (If-None-Match matched its ETag)" },
    400: failureResponse("format=zip for a file"),
    404: failureResponse("no such run (or not yours), or no such file or folder in its workspace (also for an absolute path, .., a link, or .strand)"),
    416: failureResponse("RANGE_NOT_SATISFIABLE: the range is outside the file (Content-Range: bytes */size)"),
  },
});
const logsRoute = createRoute({
  method: "get",
  path: "/api/runs/{id}/logs",
  operationId: "getRunLogs",
  tags: TAGS,
  summary: "A page of the engine's log or of one job's stdout/stderr",
  request: { params: RunIdParam, query: RunLogsQuery },
  responses: { ...viewResponses(jsonResponse(RunLogsView, "a page of lines")), 400: failureResponse("a stream that needs a job, or a job with the engine stream") },
});
const control = (action: "cancel" | "pause" | "resume" | "retry", summary: string) =>
  createRoute({
    method: "post",
    path: `/api/runs/{id}/${action}`,
    operationId: `${action}Run`,
    tags: TAGS,
    summary,
    request: { params: RunIdParam },
    responses: {
      [action === "retry" ? 201 : 200]: jsonResponse(RunSchema, action === "retry" ? "the new run" : "the run"),
      400: failureResponse(action === "retry" ? "RETRY_ERROR: the run's state does not allow it" : "RUN_ERROR: the run's state does not allow it"),
      404: notFound,
      ...(action === "retry" ? { 429: userLimitResponse } : {}),
    },
  });

/** The runs router. */
export function executionRoutes(context: ExecutionContext): OpenAPIHono {
  const router = new OpenAPIHono();
  const privacy = context.privacy ?? new PathPrivacy({ dataDir: context.dataDir });
  /** What a caller sees of a run's views: administrators everything; others no server paths (workspace null). */
  const shown = <T>(c: Context, value: T): T => {
    if (callerOf(c).admin) return value;
    const hidden = privacy.hideIn(value) as T & { workspace?: unknown };
    return hidden !== null && typeof hidden === "object" && "workspace" in hidden ? { ...hidden, workspace: null } : hidden;
  };
  const reportShown = (c: Context, html: string) => (callerOf(c).admin ? html : privacy.hide(html, { html: true }));
  router.openapi(
    createRunRoute,
    async (c) => {
      const body = c.req.valid("json");
      if (body.toml_content === undefined && body.pipeline_id === undefined) {
        throw new ServiceError("MISSING_FIELD", "missing required field: toml_content (or pipeline_id)", { suggestion: 'send {"toml_content": "<pipeline TOML>"} or {"pipeline_id": "<saved pipeline id>"}' });
      }
      if (body.toml_content !== undefined && body.pipeline_id !== undefined) {
        throw new ServiceError("BAD_REQUEST", "send toml_content or pipeline_id, not both", { suggestion: "pipeline_id runs a saved pipeline; toml_content runs the text you send" });
      }
      // A run on a remote cluster is audited as one, refused or not (its resource names the cluster).
      if (body.cluster_id) noteAudit(c, "run.create.remote", `cluster/${body.cluster_id}`);
      const run = await createRun(context, callerOf(c), body);
      noteAudit(c, run.remote ? "run.create.remote" : "run.create", run.remote ? `cluster/${run.remote.cluster_id}/run/${run.id}` : `run/${run.id}`);
      return c.json(shown(c, run), 201);
    },
    bodyHook,
  );
  router.openapi(listRunsRoute, async (c) => {
    const query = c.req.valid("query");
    const caller = callerOf(c);
    const page = await context.store.listRuns({ limit: query.limit, cursor: query.cursor, status: query.status as RunStatus | undefined, q: query.q, owner: caller.admin ? undefined : caller.id });
    return c.json({ items: page.items.map((run) => shown(c, runView(context, run))), next_cursor: page.next_cursor, total: page.total }, 200);
  });
  router.openapi(getRunRoute, async (c) => c.json(shown(c, await runDetail(context, callerOf(c), c.req.valid("param").id)), 200));
  router.openapi(statusRoute, async (c) => c.json(shown(c, await runStatus(context, callerOf(c), c.req.valid("param").id, { jobs: c.req.valid("query").jobs !== "false" })), 200));
  router.openapi(dagStatusRoute, async (c) => c.json(shown(c, await runDagStatus(context, callerOf(c), c.req.valid("param").id, { jobs: c.req.valid("query").jobs !== "false" })), 200));
  router.openapi(jobsRoute, async (c) => c.json(shown(c, await runJobs(context, callerOf(c), c.req.valid("param").id, c.req.valid("query"))), 200));
  router.openapi(logsRoute, async (c) => c.json(shown(c, await runLogs(context, callerOf(c), c.req.valid("param").id, c.req.valid("query"))), 200));
  router.openapi(resultsRoute, async (c) => c.json(shown(c, await runResults(context, callerOf(c), c.req.valid("param").id)), 200));
  router.openapi(diagnosticsRoute, async (c) => c.json(shown(c, await runDiagnostics(context, callerOf(c), c.req.valid("param").id)), 200));
  router.openapi(filesRoute, async (c) => (await runFileAnswer(context, callerOf(c), c.req.valid("param").id, c.req.valid("query"), c.req.raw)) as never);
  router.openapi(reportRoute, async (c) => c.html(reportShown(c, await runReport(context, callerOf(c), c.req.valid("param").id)), 200, { "Cache-Control": "no-cache" }) as never);
  const operations = { cancel: cancelRun, pause: pauseRun, resume: resumeRun } as const;
  for (const [action, operation] of Object.entries(operations)) {
    router.openapi(control(action as keyof typeof operations, `${action[0]!.toUpperCase()}${action.slice(1)} a run`), async (c) => {
      const { id } = c.req.valid("param");
      noteAudit(c, `run.${action}`, `run/${id}`);
      return c.json(shown(c, await operation(context, callerOf(c), id)), 200);
    });
  }
  router.openapi(control("retry", "Retry a failed or cancelled run: a new run re-executes failed jobs and their downstream only"), async (c) => {
    const { id } = c.req.valid("param");
    const run = await retryRun(context, callerOf(c), id);
    noteAudit(c, run.remote ? "run.retry.remote" : "run.retry", run.remote ? `cluster/${run.remote.cluster_id}/run/${run.id}` : `run/${run.id}`);
    return c.json(shown(c, run), 201);
  });
  return router;
}
