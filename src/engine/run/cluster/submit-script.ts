/**
 * `submit.sh` for `strand cluster submit --with-dependencies`: submits every job script in topological
 * order, captures each job id and makes every job wait for the jobs it needs to succeed, with the
 * scheduler's own dependency syntax.
 */
import type { BackendName } from "./backends.js";
import { shellQuote } from "../../expand/shell-quote.js";

/** One job script to submit, with the names of the jobs it waits for (all earlier in the list). */
export interface SubmitEntry {
  name: string;
  /** The script's file name, relative to the folder submit.sh is in. */
  script: string;
  after: string[];
}

/**
 * The bash function `submit_job NAME SCRIPT [ID…]` per backend: submits SCRIPT after the given job ids,
 * prints `NAME ID` and stores the id in `ids[NAME]`.
 */
const SUBMIT_FUNCTION: Record<BackendName, string[]> = {
  slurm: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=("--dependency=afterok:$(IFS=:; echo "$*")"); fi',
    "  local out",
    '  out=$(sbatch --parsable "${after[@]}" "$script")',
    '  ids[$name]=${out%%;*}   # "123;cluster" on federated clusters',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  pbs: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=(-W "depend=afterok:$(IFS=:; echo "$*")"); fi',
    '  ids[$name]=$(qsub "${after[@]}" "$script")',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  sge: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=()",
    '  if [ $# -gt 0 ]; then after=(-hold_jid "$(IFS=,; echo "$*")"); fi',
    "  local out",
    '  out=$(qsub -terse "${after[@]}" "$script")',
    '  ids[$name]=${out%%.*}   # array jobs answer "123.1-10:1"',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
  lsf: [
    "submit_job() {",
    "  local name=$1 script=$2; shift 2",
    "  local after=() condition=() id",
    '  for id in "$@"; do condition+=("done($id)"); done',
    '  if [ $# -gt 0 ]; then after=(-w "$(printf "%s && " "${condition[@]}" | sed "s/ && $//")"); fi',
    "  local out",
    '  out=$(bsub "${after[@]}" < "$script")   # bsub reads #BSUB lines only from stdin',
    '  ids[$name]=$(echo "$out" | sed -n "s/^Job <\\([0-9]*\\)> is submitted.*/\\1/p")',
    '  echo "$name ${ids[$name]}"',
    "}",
  ],
};

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
    ...SUBMIT_FUNCTION[backend],
    "",
  ];
  for (const entry of entries) {
    const after = entry.after.map((name) => `"\${ids[${shellQuote(name)}]}"`);
    lines.push(["submit_job", shellQuote(entry.name), shellQuote(entry.script), ...after].join(" "));
  }
  lines.push("");
  return lines.join("\n");
}
