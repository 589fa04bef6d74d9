/**
 * `strand report [RUN_DIR|WORKDIR] [-o FILE] [--run ID]`: one self-contained HTML report of a run, read
 * from what the run left on disk. `strand run --report FILE` writes the same report when its run ends.
 */
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { discoverWorkflow } from "../../engine/format/load.js";
import { renderRunReport } from "../../engine/tools/report.js";
import { isRunFolder, loadRunReport, runFolderOf, type RunReportSources } from "../../engine/tools/run-report.js";
import { optionValue, UsageError, type OptionSpec } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, type Output } from "../print.js";
import type { Command } from "./command.js";

/** Where a report goes when `-o` is not given. */
export const DEFAULT_REPORT_FILE = "report.html";

const REPORT_OPTIONS: OptionSpec[] = [
  { name: "output", short: "o", value: true, placeholder: "FILE", description: `write the report here (default ${DEFAULT_REPORT_FILE}; - for stdout)` },
  { name: "run", value: true, placeholder: "ID", description: "report this run of the workdir instead of the latest" },
  { name: "workdir", short: "d", value: true, placeholder: "DIR", description: "the workdir whose run to report" },
];

/** Renders the report of the run in `runDir` and writes it to `file` (`-` is stdout); returns what it wrote. */
export async function writeRunReport(runDir: string, file: string, output: Output, sources: RunReportSources = {}): Promise<{ path: string | null; status: string; failures: number }> {
  const report = await loadRunReport(runDir, sources);
  const html = renderRunReport(report);
  if (file === "-") {
    output.out(html.trimEnd());
    return { path: null, status: report.run.status, failures: report.failures.length };
  }
  const path = resolve(output.cwd, file);
  await writeFile(path, html);
  return { path, status: report.run.status, failures: report.failures.length };
}

/** The run folder a `strand report` argument names: a run folder itself, or a workdir (or workflow) and its latest run. */
function runFolderFor(target: string | undefined, workdir: string | undefined, runId: string | undefined, cwd: string): string {
  if (workdir) return runFolderOf(resolve(cwd, workdir), runId);
  const path = resolve(cwd, target ?? ".");
  if (runId === undefined && existsSync(path) && statSync(path).isDirectory() && isRunFolder(path)) return path;
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (existsSync(join(path, ".strand"))) return runFolderOf(path, runId);
    try {
      return runFolderOf(dirname(discoverWorkflow(path)), runId);
    } catch {
      return runFolderOf(path, runId);
    }
  }
  return runFolderOf(dirname(path), runId);
}

export const reportCommand: Command = {
  usage: "strand report [RUN_DIR|WORKDIR|WORKFLOW] [-o FILE] [--run ID]",
  options: REPORT_OPTIONS,
  async run(args, output) {
    const runDir = runFolderFor(args.positionals[0], optionValue(args, "workdir"), optionValue(args, "run"), output.cwd);
    const file = optionValue(args, "output") ?? DEFAULT_REPORT_FILE;
    if (file === "-" && args.flags.has("json")) throw new UsageError("--json and -o - would both print on stdout", "write the report to a file with -o FILE");
    const written = await writeRunReport(runDir, file, output);
    if (args.flags.has("json")) {
      printEnvelope(output, "report", { ok: true, data: { report: written.path, run_dir: runDir, status: written.status, failures: written.failures } });
    } else if (written.path) {
      output.err(`wrote ${displayPath(output, written.path)} (run ${displayPath(output, runDir)}: ${written.status}${written.failures > 0 ? `, ${written.failures} failure(s)` : ""})`);
    }
    return 0;
  },
};
