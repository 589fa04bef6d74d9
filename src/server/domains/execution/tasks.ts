/**
 * The execution domain's engine tasks by name: what `worker.ts` runs in an engine worker. Inputs and
 * answers are plain data (they cross a thread). A finished run's event log can hold hundreds of thousands
 * of events, so it is read and folded here, never on the event loop.
 */
import { existsSync } from "node:fs";
import { readEventLog } from "../../../engine/run/event-log.js";
import { readDryRunPlan } from "../../runner/dry-run-plan.js";
import { progressOf } from "../../runner/run-progress.js";
import { diagnoseRun } from "../../../engine/run/diagnosis.js";
import { renderRunReport } from "../../../engine/tools/report.js";
import { loadRunReport } from "../../../engine/tools/run-report.js";
import { readMetrics } from "../../runner/metrics-file.js";
import { tailTextInside } from "./log-pages.js";
import { existingOutputs, folderBytes } from "./run-files.js";
import { JobTable } from "./job-table.js";
import { compactJobs } from "./run-folds.js";

/** The events of a run's log, or none when it is missing. */
const eventsOf = (path: string) => (existsSync(path) ? readEventLog(path) : []);

/** The most of a pipeline file a report quotes (the service refuses bigger pipelines anyway). */
const PIPELINE_TEXT_BYTES = 4 * 1024 * 1024;

export const tasks = {
  existingOutputs,
  folderBytes: (input: { root: string }) => folderBytes(input.root),
  /** A dry run's plan from its saved `strand dry-run --json` output (undefined until it has one). */
  readPlan: (input: { path: string }) => readDryRunPlan(input.path),
  /** A finished run's event log, folded, with its job table's order for every sort (sorting 100,000 jobs is work too). */
  foldEvents: (input: { path: string }) => {
    const progress = progressOf(eventsOf(input.path));
    const { jobs, ...rest } = progress.snapshot();
    return { snapshot: { ...rest, jobs: [] }, jobs: compactJobs(jobs), orders: JobTable.fromProgress(progress).allOrders() };
  },
  /** The diagnosis of a run from its event log and its jobs' stderr (read inside the workspace only). */
  diagnose: (input: { eventsPath: string; workspace: string; declaredMemoryMb: Record<string, number> }) =>
    diagnoseRun(eventsOf(input.eventsPath), (path: string) => tailTextInside(input.workspace, path, 64 * 1024) || undefined, { declaredMemoryMb: (rule) => input.declaredMemoryMb[rule] }),
  /** The run's HTML report from its folder, metrics file and the first of `pipelinePaths` that exists; files are read inside the workspace only. */
  report: async (input: { runDir: string; workspace: string; metricsPath: string; pipelinePaths: string[]; status: string }) =>
    renderRunReport(
      await loadRunReport(input.runDir, {
        workdir: input.workspace,
        pipelineText: input.pipelinePaths.map((path) => tailTextInside(input.workspace, path, PIPELINE_TEXT_BYTES)).find((text) => text !== "") ?? null,
        detached: true,
        status: input.status,
        resources: readMetrics(input.metricsPath),
        readLogTail: (path, bytes) => tailTextInside(input.workspace, path, bytes) || undefined,
      }),
    ),
};

export type ExecutionTasks = typeof tasks;
