/**
 * What a probe asks a cluster's login node, in one fixed script: its host name, which scheduler answers and
 * its version, the Node.js and strand versions there, and the free space where runs will go. The only value
 * in the script is the remote folder, validated when saved and single-quoted here.
 */
import { shellQuote } from "../../../engine/expand/shell-quote.js";
import type { ClusterScheduler } from "../../store/clusters/contract.js";

/** The script a probe runs; it prints `key=value` lines. */
export function probeScript(remoteDir: string): string {
  return [
    `printf 'hostname=%s\\n' "$(hostname)"`,
    "if command -v sbatch >/dev/null 2>&1; then printf 'scheduler=slurm\\nversion=%s\\n' \"$(sinfo --version 2>/dev/null | head -n 1)\";",
    "elif command -v bsub >/dev/null 2>&1; then printf 'scheduler=lsf\\nversion=%s\\n' \"$(lsid 2>/dev/null | head -n 1)\";",
    "elif command -v qsub >/dev/null 2>&1 && { [ -n \"${SGE_ROOT:-}\" ] || command -v qconf >/dev/null 2>&1; }; then printf 'scheduler=sge\\nversion=%s\\n' \"$(qstat -help 2>/dev/null | head -n 1)\";",
    "elif command -v qsub >/dev/null 2>&1; then printf 'scheduler=pbs\\nversion=%s\\n' \"$(qstat --version 2>&1 | head -n 1)\";",
    "else printf 'scheduler=none\\n'; fi",
    `printf 'node=%s\\n' "$(node --version 2>/dev/null)"`,
    `printf 'strand=%s\\n' "$(strand --version 2>/dev/null)"`,
    `d=${shellQuote(remoteDir)}; while [ ! -d "$d" ]; do d=$(dirname -- "$d"); done`,
    `printf 'free_kb=%s\\n' "$(df -Pk -- "$d" 2>/dev/null | awk 'NR == 2 { print $4 }')"`,
  ].join("\n");
}

/** What the probe script reported. */
export interface ProbeFacts {
  hostname: string | null;
  scheduler: Exclude<ClusterScheduler, "auto"> | null;
  version: string | null;
  node_version: string | null;
  strand_version: string | null;
  free_bytes: number | null;
}

const SCHEDULERS = new Set(["slurm", "pbs", "sge", "lsf", "none"]);

/** The facts of the script's output; absent or empty values are null. */
export function probeFacts(stdout: string): ProbeFacts {
  const values = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) values.set(line.slice(0, at), line.slice(at + 1).trim().slice(0, 200));
  }
  const text = (key: string) => values.get(key) || null;
  const scheduler = text("scheduler");
  const free = Number(text("free_kb"));
  return {
    hostname: text("hostname"),
    scheduler: scheduler && SCHEDULERS.has(scheduler) ? (scheduler as ProbeFacts["scheduler"]) : null,
    version: text("version"),
    node_version: text("node"),
    strand_version: text("strand")?.replace(/^strand\s+/, "") ?? null,
    free_bytes: text("free_kb") !== null && Number.isFinite(free) ? free * 1024 : null,
  };
}
