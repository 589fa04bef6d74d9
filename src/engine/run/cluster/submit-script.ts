/**
 * `submit.sh` for `strand cluster submit --with-dependencies`: submits every job script in topological
 * order, captures each job id and makes every job wait for the jobs it needs to succeed, with the
 * scheduler's own dependency syntax.
 */
import { schedulerNamed, type BackendName } from "./scheduler-registry.js";
import { shellQuote } from "../../expand/shell-quote.js";

/** One job script to submit, with the names of the jobs it waits for (all earlier in the list). */
export interface SubmitEntry {
  name: string;
  /** The script's file name, relative to the folder submit.sh is in. */
  script: string;
  after: string[];
}

/** The text of `submit.sh` for the given jobs (already in topological order). */
export function renderSubmitScript(backend: BackendName, entries: SubmitEntry[], options: { workflow: string; logFolder: string }): string {
  const lines = [
    "#!/bin/bash",
    `# Submits the ${entries.length} job(s) of ${options.workflow} to ${backend.toUpperCase()} in dependency order;`,
    "# each job starts only after the jobs it needs have succeeded. Written by `strand cluster submit`.",
    "set -euo pipefail",
    'cd "$(dirname "$0")"',
    // The scheduler opens the log files before the job script runs, so their folder must exist already.
    `mkdir -p ${shellQuote(options.logFolder)}`,
    "declare -A ids",
    "",
    // submit_job NAME SCRIPT [ID…], in the scheduler's own dependency syntax (its module in schedulers/).
    ...schedulerNamed(backend).submitFunction,
    "",
  ];
  for (const entry of entries) {
    const after = entry.after.map((name) => `"\${ids[${shellQuote(name)}]}"`);
    lines.push(["submit_job", shellQuote(entry.name), shellQuote(entry.script), ...after].join(" "));
  }
  lines.push("");
  return lines.join("\n");
}
