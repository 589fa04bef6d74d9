/**
 * `GET /api/runs/{id}/report`: the run's self-contained HTML report (engine/tools/report.ts), the same
 * file `strand report` writes. A big run's event log and checkpoint are read and folded in an engine
 * worker, never on the event loop.
 */
import { engineTasks } from "../../engine-pool.js";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { runFiles } from "../../runner/engine-command.js";
import { lstatInWorkspace } from "../../runner/workspace-reader.js";
import { readableRun, type ExecutionContext } from "./service.js";
import type { ExecutionTasks } from "./tasks.js";

const work = engineTasks<ExecutionTasks>(new URL("./worker.js", import.meta.url));

/** The HTML report of a run the caller may read; 404 for an unknown run and for one with no event log yet. */
export async function runReport(context: ExecutionContext, caller: Caller, id: string): Promise<string> {
  const run = await readableRun(context, caller, id);
  const files = run.workspace ? runFiles(run.workspace, run.id) : undefined;
  if (!files || !lstatInWorkspace(files.workspace, files.events)?.isFile()) {
    throw new ServiceError("NOT_FOUND", `run ${id} has no event log to report on (it has not started, or it was a dry run)`, {
      suggestion: "wait until the run has started; a dry run's plan is in GET /api/runs/{id}/status",
    });
  }
  // The pipeline text the run ran: its own copy in its folder, else the workspace's (runs made before runs kept one).
  const pipelinePaths = [files.pipeline, files.workspacePipeline];
  return work("report", { runDir: files.dir, eventsPath: files.events, workspace: files.workspace, metricsPath: files.metrics, pipelinePaths, status: run.status }, "writing the run's report");
}
