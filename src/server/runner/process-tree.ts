/**
 * CPU and memory of a run's whole process tree, for the run supervisor's metrics. The tree is found from
 * its root through the kernel's per-task children lists rather than by process group, because the engine
 * puts every job in a group of its own and a run's work lives in those jobs. Where /proc does not exist
 * (macOS), there is nothing to read and every sample is undefined.
 */
import { existsSync, readFileSync } from "node:fs";
import { endianness } from "node:os";
import { procChildren, procStatFields } from "../../engine/run/process-sampler.js";

/** One look at a process tree: CPU in percent of one core, resident memory, live process count. */
export interface TreeSample {
  cpu_pct: number;
  memory_mb: number;
  processes: number;
}

// USER_HZ: the kernel reports stat times in these units on every architecture, whatever its real tick.
const TICKS_PER_SECOND = 100;
// A guard against a pathological tree (or a pid-reuse cycle) making one sample unbounded.
const MAX_PROCESSES = 10_000;
const MB = 1024 * 1024;
const PAGE_BYTES = pageBytes();

/**
 * Samples a process tree; each call reports the CPU used since the previous call. The first call reports
 * the average since the root process started, so a supervisor that attaches to a running tree shows a
 * meaningful figure at once instead of a zero.
 */
export class ProcessTreeSampler {
  private readonly available = existsSync("/proc/self/stat");
  private previous: { ticks: number; at: number } | undefined;

  constructor(readonly rootPid: number) {}

  /** The tree's figures now, or undefined when the root has exited or /proc is not there. */
  sample(): TreeSample | undefined {
    if (!this.available) return undefined;
    const tree = readTree(this.rootPid);
    if (!tree) return undefined;
    const at = performance.now();
    let cpuSeconds: number;
    let elapsedSeconds: number;
    if (this.previous) {
      // The total can fall when a descendant leaves the tree unreaped (orphaned to init): that sample
      // under-reports rather than going negative.
      cpuSeconds = Math.max(0, tree.ticks - this.previous.ticks) / TICKS_PER_SECOND;
      elapsedSeconds = (at - this.previous.at) / 1000;
    } else {
      cpuSeconds = tree.ticks / TICKS_PER_SECOND;
      elapsedSeconds = secondsSinceBoot() - tree.rootStartTicks / TICKS_PER_SECOND;
    }
    this.previous = { ticks: tree.ticks, at };
    // Below one tick of wall time the ratio is noise, not a measurement.
    const cpuPct = elapsedSeconds >= 1 / TICKS_PER_SECOND ? (cpuSeconds / elapsedSeconds) * 100 : 0;
    return { cpu_pct: round1(cpuPct), memory_mb: round1(tree.rssBytes / MB), processes: tree.processes };
  }
}

interface TreeReading {
  /**
   * utime+stime+cutime+cstime over every process seen. Counting each process's reaped children keeps the
   * total steady when a descendant exits: its time moves into its parent's counters instead of vanishing.
   */
  ticks: number;
  rssBytes: number;
  processes: number;
  rootStartTicks: number;
}

function readTree(rootPid: number): TreeReading | undefined {
  const root = readStat(rootPid);
  // A zombie root has finished; only its parent's wait is outstanding.
  if (!root || !root.alive) return undefined;
  const reading: TreeReading = { ticks: 0, rssBytes: 0, processes: 0, rootStartTicks: root.startTicks };
  const seen = new Set<number>();
  const stack = [rootPid];
  while (stack.length > 0 && seen.size < MAX_PROCESSES) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const stat = pid === rootPid ? root : readStat(pid);
    if (!stat) continue; // exited between its parent's children list and this read
    reading.ticks += stat.ticks;
    if (stat.alive) {
      reading.rssBytes += stat.rssPages * PAGE_BYTES;
      reading.processes++;
    }
    for (const child of procChildren(pid)) stack.push(child);
  }
  return reading;
}

interface ProcessStat {
  alive: boolean;
  ticks: number;
  rssPages: number;
  startTicks: number;
}

function readStat(pid: number): ProcessStat | undefined {
  // Index 0 is field 3 (state) of proc(5): the fields after the command name.
  const fields = procStatFields(pid);
  if (!fields) return undefined;
  const field = (n: number) => Number(fields[n - 3] ?? 0);
  const state = fields[0] ?? "X";
  return {
    alive: state !== "Z" && state !== "X" && state !== "x",
    ticks: field(14) + field(15) + field(16) + field(17),
    rssPages: field(24),
    startTicks: field(22),
  };
}

function secondsSinceBoot(): number {
  try {
    return Number(readFileSync("/proc/uptime", "latin1").split(" ")[0]);
  } catch {
    return 0;
  }
}

/** The page size from the kernel's auxiliary vector (AT_PAGESZ); 4 KiB where it cannot be read. */
function pageBytes(): number {
  try {
    const auxv = readFileSync("/proc/self/auxv");
    const word = process.arch.endsWith("64") ? 8 : 4;
    const little = endianness() === "LE";
    const read = (at: number) =>
      word === 8
        ? Number(little ? auxv.readBigUInt64LE(at) : auxv.readBigUInt64BE(at))
        : little
          ? auxv.readUInt32LE(at)
          : auxv.readUInt32BE(at);
    const AT_PAGESZ = 6;
    for (let at = 0; at + 2 * word <= auxv.length; at += 2 * word) {
      if (read(at) === AT_PAGESZ) return read(at + word);
    }
  } catch {
    // no /proc, or an unreadable vector: fall through to the common size
  }
  return 4096;
}


function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
