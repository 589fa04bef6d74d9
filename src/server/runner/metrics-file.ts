/**
 * A run's resource metrics on disk: one JSON line per supervisor tick, `{time, cpu_pct, memory_mb,
 * processes}`, kept to a cap of lines (specification: 2000; appends rewrite by truncation only past the
 * cap). The file has one writer, the run's supervisor; readers (the status view) may read it at any time.
 * It lies in the run's workspace, where jobs write too: it is written only along paths without links
 * (link-guard.ts) and read only as a regular file inside the workspace, at most METRICS_MAX_BYTES of it
 * (workspace-reader.ts).
 */
import { closeSync, fsyncSync, renameSync, writeSync } from "node:fs";
import { assertLinkFree, openLinkFree } from "./link-guard.js";
import { readWorkspaceFile } from "./workspace-reader.js";

/** One tick of a run's resource use, as stored: CPU in percent of one core, memory in MB. */
export interface MetricsSample {
  /** ISO 8601 time of the sample. */
  time: string;
  cpu_pct: number;
  memory_mb: number;
  processes: number;
}

/** The resources block of the status view: the latest figures and the highest memory retained. */
export interface MetricsSummary {
  cpu_pct: number;
  memory_mb: number;
  peak_memory_mb: number;
}

const DEFAULT_CAP = 2000;

/** The most of a metrics file that is read (2000 samples take about 200 KB; a bigger file is a job's doing and reads as empty). */
export const METRICS_MAX_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Appends samples to a metrics file that never holds more than `cap` lines. When an append would pass the
 * cap, the file is rewritten with the newest three quarters of the cap (the new sample included), so the
 * cost of a rewrite is paid about once per cap/4 appends (once per 501 at the default cap) rather than on
 * every tick once the file is full.
 */
export class MetricsFile {
  private readonly cap: number;
  private readonly keep: number;
  /** Lines in the file, a torn last line included. */
  private lines: number;
  /** The file ends in a line without its newline (a writer died mid-write); the next append ends it. */
  private tornTail: boolean;

  constructor(
    /** The workspace the file is in: jobs write there too, so no write may follow a link (see link-guard.ts). */
    private readonly root: string,
    readonly path: string,
    options: { cap?: number } = {},
  ) {
    this.cap = Math.max(1, Math.floor(options.cap ?? DEFAULT_CAP));
    this.keep = Math.max(1, Math.floor((this.cap * 3) / 4));
    // A supervisor re-attached to a run continues the count where the previous one left it.
    const existing = readWorkspaceFile(root, path, METRICS_MAX_BYTES) ?? Buffer.alloc(0);
    let newlines = 0;
    for (const byte of existing) if (byte === NEWLINE) newlines++;
    this.tornTail = existing.length > 0 && existing[existing.length - 1] !== NEWLINE;
    this.lines = newlines + (this.tornTail ? 1 : 0);
  }

  /** Adds one sample, as a single write of one line, truncating the file first if it is at the cap. */
  append(record: MetricsSample): void {
    const line = JSON.stringify({
      time: record.time,
      cpu_pct: record.cpu_pct,
      memory_mb: record.memory_mb,
      processes: record.processes,
    });
    if (this.lines + 1 > this.cap) {
      this.rewrite(line);
      return;
    }
    // Ending a torn line first keeps the new record on a line of its own, where readers can parse it.
    const fd = this.open(this.path, "append");
    try {
      writeSync(fd, `${this.tornTail ? "\n" : ""}${line}\n`);
    } finally {
      closeSync(fd);
    }
    this.tornTail = false;
    this.lines++;
  }

  private open(path: string, mode: "append" | "truncate"): number {
    return openLinkFree(this.root, path, mode);
  }

  private rewrite(line: string): void {
    assertLinkFree(this.root, this.path);
    // Torn and foreign lines are dropped here rather than carried forward into every later rewrite.
    const older = readMetrics(this.root, this.path).map((sample) => JSON.stringify(sample));
    const kept = [...older.slice(Math.max(0, older.length - (this.keep - 1))), line];
    // Written beside the file, flushed, then renamed over it: a crash leaves the old file or the new one,
    // never half of either.
    const temporary = `${this.path}.tmp`;
    const fd = this.open(temporary, "truncate");
    try {
      writeSync(fd, `${kept.join("\n")}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    assertLinkFree(this.root, this.path);
    renameSync(temporary, this.path);
    this.lines = kept.length;
    this.tornTail = false;
  }
}

/** The samples in a metrics file in a workspace, oldest first; a missing (or unreadable) file has none, unreadable lines are skipped. */
export function readMetrics(root: string, path: string): MetricsSample[] {
  const content = readWorkspaceFile(root, path, METRICS_MAX_BYTES);
  return content ? parseLines(content) : [];
}

/** The status view's resources from a run's samples: the latest CPU and memory, and the peak memory. */
export function summariseMetrics(samples: readonly MetricsSample[]): MetricsSummary | null {
  const last = samples[samples.length - 1];
  if (!last) return null;
  // The peak is over the samples the file still holds (the newest ticks up to the cap).
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, sample.memory_mb);
  return { cpu_pct: last.cpu_pct, memory_mb: last.memory_mb, peak_memory_mb: peak };
}

function parseLines(content: Buffer): MetricsSample[] {
  const samples: MetricsSample[] = [];
  for (const text of content.toString("utf8").split("\n")) {
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue; // a line torn by a crash mid-write
    }
    const sample = asSample(value);
    if (sample) samples.push(sample);
  }
  return samples;
}

function asSample(value: unknown): MetricsSample | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { time, cpu_pct, memory_mb, processes } = record;
  if (typeof time !== "string") return undefined;
  if (!isFiniteNumber(cpu_pct) || !isFiniteNumber(memory_mb) || !isFiniteNumber(processes)) return undefined;
  return { time, cpu_pct, memory_mb, processes };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
