/**
 * Resource accounting for local jobs: CPU time and resident memory of each job's process tree, read from
 * /proc by walking from the job's leader through the kernel's children lists, so a sample costs a few
 * small reads per job process rather than a scan of every process on the machine. Where /proc does not
 * exist (macOS), nothing is sampled and the figures stay unknown.
 */
import { existsSync, readFileSync } from "node:fs";

const PAGE_BYTES = 4096;
const TICKS_PER_SECOND = 100;

export interface GroupUsage {
  /** Largest sum of resident memory of the group's processes seen at one sample, in MB. */
  peakMemoryMb?: number;
  /** CPU time of the group's leader and the children it waited for, at the last sample (a lower bound). */
  cpuMs?: number;
}

interface Watched {
  peakBytes: number;
  /** The leader's own and reaped children's CPU ticks at the last sample. */
  leaderTicks: number;
  sampled: boolean;
}

/** Samples the process groups of running jobs every `intervalMs` while any is watched. */
export class ProcessGroupSampler {
  private readonly watched = new Map<number, Watched>();
  private timer: NodeJS.Timeout | undefined;
  /** The early look already scheduled, if any: one serves every job started before it fires. */
  private soon: NodeJS.Timeout | undefined;
  private readonly available = existsSync("/proc/self/stat");

  constructor(private readonly intervalMs = 250) {}

  /** Starts accounting for a process group (the job's leader pid). */
  watch(pgid: number): void {
    if (!this.available) return;
    this.watched.set(pgid, { peakBytes: 0, leaderTicks: 0, sampled: false });
    // A first look soon after start catches jobs shorter than the interval. Jobs started while one is
    // pending share it (so it comes at most 30 ms after their start): a sample walks every watched group,
    // and one per job start made the sampling cost grow with the square of the concurrency.
    if (!this.soon) {
      this.soon = setTimeout(() => {
        this.soon = undefined;
        this.sample();
      }, 30);
      this.soon.unref();
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.sample(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Stops accounting for a group and returns what was seen. */
  unwatch(pgid: number): GroupUsage {
    const state = this.watched.get(pgid);
    this.watched.delete(pgid);
    if (this.watched.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    if (!state || !state.sampled) return {};
    if (state.peakBytes === 0) return { cpuMs: Math.round((state.leaderTicks * 1000) / TICKS_PER_SECOND) };
    return { peakMemoryMb: Math.round((state.peakBytes / 1024 / 1024) * 10) / 10, cpuMs: Math.round((state.leaderTicks * 1000) / TICKS_PER_SECOND) };
  }

  /** Walks each watched job's process tree (leader, then children lists) and adds up resident memory. */
  sample(): void {
    for (const [pgid, state] of this.watched) {
      let bytes = 0;
      const stack = [pgid];
      let visited = 0;
      while (stack.length > 0 && visited < 10_000) {
        const pid = stack.pop()!;
        visited++;
        const fields = procStatFields(pid);
        if (!fields) continue; // exited between the listing and the read
        // Children that left the job's process group (setsid daemons) are not the job's any more.
        if (Number(fields[2]) !== pgid) continue;
        if (pid === pgid) {
          // utime, stime, cutime, cstime: children the leader waited for are folded into its counters.
          state.leaderTicks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
        }
        bytes += Number(fields[21]) * PAGE_BYTES;
        state.sampled = true;
        for (const child of procChildren(pid)) stack.push(child);
      }
      if (bytes > state.peakBytes) state.peakBytes = bytes;
    }
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may contain spaces), or undefined. */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The children of a process, from its main thread's /proc children list (empty when unreadable). */
export function procChildren(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "latin1").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return [];
  }
}
