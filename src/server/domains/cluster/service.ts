/**
 * The local scheduler's status for `GET /api/hpc`: SLURM's partitions, nodes and jobs, read with `sinfo`
 * and `squeue` through their fixed-column `--Format` output (stable across SLURM
 * releases, unlike `--json`, whose shape changes with each data-parser version). Fields are split on the
 * ASCII unit separator, which job names and node reasons do not hold, and free-text fields come last.
 *
 * Every command runs as a subprocess with a time-out, so a hung controller never holds a request or the
 * event loop; one reading is shared by every request for a couple of seconds (and by requests that arrive
 * while it is under way), so a room of viewers refreshing their pages spawns a few processes, not hundreds.
 *
 * Job names are shown only to whom they concern: administrators see the whole queue; everyone else sees the
 * jobs of their own runs (the engine names a run's jobs `strand-<run id>-<n>`, see the engine's
 * scheduler-job-names.ts) and a count of the others, without names, users or anything else about them.
 */
import { execa } from "execa";
import { runIdOfJobName } from "../../../engine/run/cluster/scheduler-job-names.js";
import type { Caller } from "../../caller.js";
import type { HpcJob, HpcNode, HpcPartition, HpcStatus } from "./schemas.js";

/** Field separator of the format strings (ASCII 0x1f, "unit separator"). */
const SEP = "\x1f";

/** At most this many jobs are listed; `total_jobs` counts them all. */
export const MAX_LISTED_JOBS = 1000;

const PARTITION_FIELDS = ["Partition", "Available", "NodeAIOT", "CPUsState", "Time"];
const NODE_FIELDS = ["NodeList", "StateLong", "CPUsState", "Memory", "AllocMem", "FreeMem", "PartitionName", "Reason"];
const JOB_FIELDS = ["JobArrayID", "UserName", "Partition", "State", "TimeUsed", "TimeLimit", "NumNodes", "NumCPUs", "NodeList", "Reason", "SubmitTime", "Name"];

/** A `--Format` argument: each field at full width (`:0`), followed by the separator. */
function formatArgument(fields: string[]): string {
  return `--Format=${fields.map((field, index) => `${field}:0${index < fields.length - 1 ? SEP : ""}`).join(",")}`;
}

/** What one reading of the scheduler holds, before it is cut to what a caller may see. */
export interface SchedulerSnapshot {
  available: boolean;
  scheduler: "slurm" | null;
  version: string | null;
  message: string | null;
  checkedAt: string;
  partitions: HpcPartition[];
  nodes: HpcNode[];
  jobs: HpcJob[];
}

export interface SchedulerReaderOptions {
  /** Environment of the commands (its PATH finds them); default: the service's. */
  env?: NodeJS.ProcessEnv;
  /** Time-out of each command (default 10 s). */
  timeoutMs?: number;
  /** How long one reading answers every request (default 2 s). */
  cacheMs?: number;
}

/** A scheduler command that failed, with the reason the API reports. */
class SchedulerFailure extends Error {
  constructor(
    message: string,
    readonly absent = false,
  ) {
    super(message);
  }
}

/** Reads the local SLURM scheduler, sharing each reading between requests for `cacheMs`. */
export class SchedulerReader {
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private last: { at: number; snapshot: Promise<SchedulerSnapshot> } | undefined;
  private version: string | undefined;
  /** How many readings were started (tests check that concurrent viewers share one). */
  readings = 0;

  constructor(options: SchedulerReaderOptions = {}) {
    this.env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.cacheMs = options.cacheMs ?? 2_000;
  }

  /** The latest reading, or a new one when the last is older than `cacheMs` (requests meanwhile share it). */
  read(): Promise<SchedulerSnapshot> {
    const now = Date.now();
    if (this.last && now - this.last.at < this.cacheMs) return this.last.snapshot;
    const snapshot = this.readNow();
    this.last = { at: now, snapshot };
    // The cache window starts when the reading is done, so a slow controller is not asked again at once.
    void snapshot.then(() => {
      if (this.last?.snapshot === snapshot) this.last.at = Date.now();
    });
    return snapshot;
  }

  private async readNow(): Promise<SchedulerSnapshot> {
    this.readings++;
    const checkedAt = new Date().toISOString();
    const empty = { checkedAt, partitions: [], nodes: [], jobs: [] };
    try {
      const [partitions, nodes, jobs] = await Promise.all([
        this.run("sinfo", ["--noheader", formatArgument(PARTITION_FIELDS)]),
        this.run("sinfo", ["--Node", "--noheader", formatArgument(NODE_FIELDS)]),
        this.run("squeue", ["--noheader", "--all", formatArgument(JOB_FIELDS)]),
      ]);
      this.version ??= (await this.run("sinfo", ["--version"])).replace(/^slurm(-wlm)?\s+/i, "").trim() || undefined;
      return {
        available: true,
        scheduler: "slurm",
        version: this.version ?? null,
        message: null,
        checkedAt,
        partitions: parsePartitions(partitions),
        nodes: parseNodes(nodes),
        jobs: parseJobs(jobs),
      };
    } catch (error) {
      if (!(error instanceof SchedulerFailure)) throw error;
      return { ...empty, available: false, scheduler: error.absent ? null : "slurm", version: error.absent ? null : (this.version ?? null), message: error.message };
    }
  }

  /** One command's standard output; a SchedulerFailure saying why when it is missing, fails or hangs. */
  private async run(command: string, args: string[]): Promise<string> {
    const result = await execa(command, args, { env: this.env, extendEnv: false, timeout: this.timeoutMs, forceKillAfterDelay: 1000, reject: false, stdin: "ignore", maxBuffer: 64 * 1024 * 1024 });
    if ((result as { code?: string }).code === "ENOENT") {
      throw new SchedulerFailure(`no scheduler found: ${command} is not on the service's PATH (strand reads SLURM with sinfo and squeue)`, true);
    }
    if (result.timedOut) throw new SchedulerFailure(`${command} did not answer within ${Math.round(this.timeoutMs / 1000)} s: the SLURM controller may be overloaded or unreachable`);
    if (result.exitCode !== 0) {
      const said = String(result.stderr ?? "").trim().split("\n").filter(Boolean).at(-1) ?? `exit code ${result.exitCode ?? result.signal}`;
      throw new SchedulerFailure(`${command} failed: ${said.slice(0, 300)}`);
    }
    return String(result.stdout ?? "");
  }
}

/** How long the owners of runs are remembered at most (a run's owner never changes; the bound is for memory). */
const REMEMBERED_OWNERS = 10_000;

/**
 * Who owns the runs named in the queue, looked up once per run: a dashboard refreshed every few seconds
 * must not query the store for every job each time. Unknown ids (jobs named so from outside strand) are
 * remembered as owned by nobody.
 */
export class RunOwners {
  private readonly owners = new Map<string, string | null>();

  constructor(private readonly ownerOf: (runId: string) => Promise<string | null>) {}

  /** Those of `runIds` that `userId` owns. */
  async ownedBy(userId: string, runIds: readonly string[]): Promise<Set<string>> {
    const owned = new Set<string>();
    for (const runId of runIds) {
      let owner = this.owners.get(runId);
      if (owner === undefined) {
        owner = await this.ownerOf(runId);
        if (this.owners.size >= REMEMBERED_OWNERS) this.owners.clear();
        this.owners.set(runId, owner);
      }
      if (owner === userId) owned.add(runId);
    }
    return owned;
  }
}

/** The run ids named by the queue's jobs (`strand-<run id>-<n>`), each once. */
export function runIdsInQueue(snapshot: SchedulerSnapshot): string[] {
  return [...new Set(snapshot.jobs.map((job) => runIdOfJobName(job.name)).filter((id): id is string => id !== undefined))];
}

/**
 * The status a caller receives: partitions and nodes for everyone; the whole queue for administrators;
 * for anyone else the jobs of the runs in `ownRunIds` (their own) and only a count of the rest.
 */
export function statusFor(snapshot: SchedulerSnapshot, caller: Caller, ownRunIds: ReadonlySet<string> = new Set()): HpcStatus {
  const ownOnly = !caller.admin;
  const visible = ownOnly ? snapshot.jobs.filter((job) => ownRunIds.has(runIdOfJobName(job.name) ?? "")) : snapshot.jobs;
  return {
    available: snapshot.available,
    scheduler: snapshot.scheduler,
    version: snapshot.version,
    message: snapshot.message,
    checked_at: snapshot.checkedAt,
    partitions: snapshot.partitions,
    nodes: snapshot.nodes,
    jobs: visible.slice(0, MAX_LISTED_JOBS),
    total_jobs: visible.length,
    jobs_truncated: visible.length > MAX_LISTED_JOBS,
    jobs_visibility: ownOnly ? "own" : "all",
    other_jobs: snapshot.jobs.length - visible.length,
  };
}

/** The non-empty lines of a command's output, split into fields. */
function rows(text: string, width: number): string[][] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const fields = line.split(SEP);
      // The last field is free text: keep anything after the expected columns in it.
      return fields.length > width ? [...fields.slice(0, width - 1), fields.slice(width - 1).join(SEP)] : fields;
    })
    .filter((fields) => fields.length === width)
    .map((fields) => fields.map((field) => field.trim()));
}

/** An integer field, or null for SLURM's "N/A" and friends. */
function integer(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

/** "allocated/idle/other/total" counts. */
function aiot(text: string): { allocated: number; idle: number; total: number } {
  const [allocated, idle, , total] = text.split("/").map((part) => integer(part) ?? 0);
  return { allocated: allocated ?? 0, idle: idle ?? 0, total: total ?? 0 };
}

/** Free text that SLURM writes as "none", "None" or "(null)" when there is nothing to say. */
function optionalText(text: string): string | null {
  return text === "" || /^(none|\(null\)|n\/a)$/i.test(text) ? null : text;
}

/** A SLURM duration ("[days-]hours:minutes:seconds", "minutes:seconds") in seconds; null when unlimited or unset. */
export function durationSeconds(text: string): number | null {
  const match = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, days, first, second, third] = match;
  const parts = [first, second, third].filter((part): part is string => part !== undefined).map(Number);
  // h:m:s, m:s, or bare minutes (how SLURM's configuration writes limits).
  const [hours, minutes, seconds] = parts.length === 3 ? parts : parts.length === 2 ? [0, parts[0]!, parts[1]!] : [0, parts[0]!, 0];
  return Number(days ?? 0) * 86_400 + hours! * 3600 + minutes! * 60 + seconds!;
}

/** Partitions from `sinfo --Format=Partition,Available,NodeAIOT,CPUsState,Time`, one per name. */
export function parsePartitions(text: string): HpcPartition[] {
  const byName = new Map<string, HpcPartition>();
  for (const [label, state, nodeCounts, cpuCounts, limit] of rows(text, PARTITION_FIELDS.length)) {
    const name = label!.replace(/\*$/, "");
    const nodes = aiot(nodeCounts!);
    const cpus = aiot(cpuCounts!);
    const known = byName.get(name);
    // sinfo may split a partition over lines (nodes of different shapes): add them up.
    if (known) {
      known.nodes += nodes.total;
      known.nodes_allocated += nodes.allocated;
      known.nodes_idle += nodes.idle;
      known.cpus_total += cpus.total;
      known.cpus_allocated += cpus.allocated;
      known.cpus_idle += cpus.idle;
      continue;
    }
    byName.set(name, {
      name,
      state: state!,
      default: label!.endsWith("*"),
      nodes: nodes.total,
      nodes_allocated: nodes.allocated,
      nodes_idle: nodes.idle,
      cpus_total: cpus.total,
      cpus_allocated: cpus.allocated,
      cpus_idle: cpus.idle,
      time_limit: limit!,
      time_limit_s: durationSeconds(limit!),
    });
  }
  return [...byName.values()];
}

/** Nodes from `sinfo --Node` (one line per node and partition), one per node with all its partitions. */
export function parseNodes(text: string): HpcNode[] {
  const byName = new Map<string, HpcNode>();
  for (const [name, state, cpuCounts, memory, allocatedMemory, freeMemory, partition, reason] of rows(text, NODE_FIELDS.length)) {
    const known = byName.get(name!);
    if (known) {
      if (!known.partitions.includes(partition!)) known.partitions.push(partition!);
      continue;
    }
    const cpus = aiot(cpuCounts!);
    byName.set(name!, {
      name: name!,
      state: state!,
      cpus_total: cpus.total,
      cpus_allocated: cpus.allocated,
      cpus_idle: cpus.idle,
      memory_total_mb: integer(memory),
      memory_allocated_mb: integer(allocatedMemory),
      memory_free_mb: integer(freeMemory),
      partitions: [partition!],
      reason: optionalText(reason!),
    });
  }
  return [...byName.values()];
}

/** Jobs from `squeue --all --Format=JobArrayID,UserName,Partition,State,TimeUsed,TimeLimit,NumNodes,NumCPUs,NodeList,Reason,SubmitTime,Name`. */
export function parseJobs(text: string): HpcJob[] {
  return rows(text, JOB_FIELDS.length).map(([id, user, partition, state, elapsed, limit, nodeCount, cpus, nodes, reason, submitted, name]) => ({
    id: id!,
    name: name!,
    user: user!,
    partition: partition!,
    state: state!,
    elapsed: elapsed!,
    elapsed_s: durationSeconds(elapsed!),
    time_limit: limit!,
    time_limit_s: durationSeconds(limit!),
    node_count: integer(nodeCount) ?? 0,
    cpus: integer(cpus) ?? 0,
    nodes: optionalText(nodes!),
    reason: optionalText(reason!),
    submitted_at: submittedAt(submitted!),
  }));
}

/** squeue's submit time (local time, no zone) as RFC 3339 in UTC; null when absent. */
function submittedAt(text: string): string | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(text)) return null;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}
