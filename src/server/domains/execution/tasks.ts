/**
 * The execution domain's engine tasks by name: what `worker.ts` runs in an engine worker. Inputs and
 * answers are plain data (they cross a thread). A finished run's event log can hold hundreds of thousands
 * of events, so it is read and folded here, never on the event loop.
 */
import { readDryRunPlan } from "../../runner/dry-run-plan.js";
import { EVENT_LOG_MAX_BYTES, readWorkspaceEventLog } from "../../runner/event-log-follower.js";
import { PIPELINE_TEXT_MAX_BYTES } from "../../runner/engine-command.js";
import { readWorkspaceTail, readWorkspaceText } from "../../runner/workspace-reader.js";
import { progressOf } from "../../runner/run-progress.js";
import { diagnoseRun } from "../../../engine/run/diagnosis/diagnosis.js";
import { renderRunReport } from "../../../engine/tools/report.js";
import { loadRunReport } from "../../../engine/tools/run-report.js";
import { readMetrics } from "../../runner/metrics-file.js";
import { existingOutputs, folderBytes } from "./run-files.js";
import { JobTable } from "./job-table.js";
import { compactJobs } from "./run-folds.js";

/** The most of a run's files the report reads whole (its record, checkpoint and journal; the event log has its own cap). */
const REPORT_FILE_BYTES = 64 * 1024 * 1024;

export const tasks = {
  existingOutputs,
  folderBytes: (input: { root: string }) => folderBytes(input.root),
  /** A dry run's plan from its saved `strand dry-run --json` output (undefined until it has one). */
  readPlan: (input: { root: string; path: string }) => readDryRunPlan(input.root, input.path),
  /** A finished run's event log, folded, with its job table's order for every sort (sorting 100,000 jobs is work too). */
  foldEvents: (input: { root: string; path: string }) => {
    const progress = progressOf(readWorkspaceEventLog(input.root, input.path));
    const { jobs, ...rest } = progress.snapshot();
    return { snapshot: { ...rest, jobs: [] }, jobs: compactJobs(jobs), orders: JobTable.fromProgress(progress).allOrders() };
  },
  /** The diagnosis of a run from its event log and its jobs' stderr (read inside the workspace only). */
  diagnose: (input: { eventsPath: string; workspace: string; declaredMemoryMb: Record<string, number> }) =>
    diagnoseRun(readWorkspaceEventLog(input.workspace, input.eventsPath), (path: string) => readWorkspaceTail(input.workspace, path, 64 * 1024) || undefined, { declaredMemoryMb: (rule) => input.declaredMemoryMb[rule] }),
  /**
   * The run's HTML report from its folder, metrics file and the first of `pipelinePaths` that exists. Every
   * file is read inside the workspace only (workspace-reader.ts), the event log is the run's own whatever its
   * record names, and the pipeline is loaded detached (nothing it names is read).
   */
  report: async (input: { runDir: string; eventsPath: string; workspace: string; metricsPath: string; pipelinePaths: string[]; status: string }) =>
    renderRunReport(
      await loadRunReport(input.runDir, {
        workdir: input.workspace,
        eventsPath: input.eventsPath,
        pipelineText: input.pipelinePaths.map((path) => readWorkspaceText(input.workspace, path, PIPELINE_TEXT_MAX_BYTES)).find((text) => text !== undefined) ?? null,
        detached: true,
        status: input.status,
        resources: readMetrics(input.workspace, input.metricsPath),
        readLogTail: (path, bytes) => readWorkspaceTail(input.workspace, path, bytes) || undefined,
        readText: (path) => (path === input.eventsPath ? readWorkspaceText(input.workspace, path, EVENT_LOG_MAX_BYTES) : readWorkspaceText(input.workspace, path, REPORT_FILE_BYTES)),
      }),
    ),
};

export type ExecutionTasks = typeof tasks;
