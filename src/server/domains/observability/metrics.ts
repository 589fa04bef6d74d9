/**
 * Runtime metrics of the service process and machine as a JSON document (the Prometheus view is
 * `prometheus.ts`). Counters the other domains own (runs, subscribers) come in through `MetricSources`.
 */
import { cpus, freemem, hostname, loadavg, totalmem } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { EXECUTOR_KINDS } from "../../../engine/run/executor-kinds.js";

export interface MetricSources {
  requestsTotal(): number;
  activeRuns(): number;
  queuedRuns(): number;
  sseSubscribers(): number;
}

export interface MetricsDocument {
  cpu_pct: number;
  load_average_1m: number;
  memory_total_mb: number;
  memory_free_mb: number;
  memory_used_mb: number;
  rss_mb: number;
  heap_used_mb: number;
  active_runs: number;
  queued_runs: number;
  requests_total: number;
  sse_subscribers: number;
  event_loop_lag_ms: number;
  uptime_s: number;
}

const MB = 1024 * 1024;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Samples CPU between calls and the event loop's delay continuously (a histogram, no timer of ours). */
export class MetricsCollector {
  private lastCpu = process.cpuUsage();
  private lastAt = performance.now();
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });
  private readonly startedAt = Date.now();

  constructor(private readonly sources: MetricSources) {
    this.loop.enable();
  }

  /** The metrics now; CPU is the service process's share since the previous call. */
  snapshot(): MetricsDocument {
    const cpu = process.cpuUsage(this.lastCpu);
    const now = performance.now();
    const elapsedMs = Math.max(1, now - this.lastAt);
    this.lastCpu = process.cpuUsage();
    this.lastAt = now;
    const memory = process.memoryUsage();
    const lag = Number.isFinite(this.loop.mean) ? this.loop.mean / 1e6 : 0;
    this.loop.reset();
    return {
      cpu_pct: round(((cpu.user + cpu.system) / 1000 / elapsedMs) * 100),
      load_average_1m: round(loadavg()[0] ?? 0, 2),
      memory_total_mb: Math.round(totalmem() / MB),
      memory_free_mb: Math.round(freemem() / MB),
      memory_used_mb: Math.round((totalmem() - freemem()) / MB),
      rss_mb: round(memory.rss / MB),
      heap_used_mb: round(memory.heapUsed / MB),
      active_runs: this.sources.activeRuns(),
      queued_runs: this.sources.queuedRuns(),
      requests_total: this.sources.requestsTotal(),
      sse_subscribers: this.sources.sseSubscribers(),
      event_loop_lag_ms: round(lag, 2),
      uptime_s: Math.round((Date.now() - this.startedAt) / 1000),
    };
  }

  stop(): void {
    this.loop.disable();
  }
}

/** Facts about the machine and process for `/api/system`. */
export function systemDocument(version: string, mode: string, startedAt: number, storage: { kind: "sqlite" | "postgres"; dataDir: string }) {
  const processors = cpus();
  return {
    version,
    mode,
    node_version: process.version,
    platform: process.platform,
    arch: process.arch,
    hostname: hostname(),
    pid: process.pid,
    cpus: processors.length,
    cpu_model: processors[0]?.model ?? null,
    memory_total_mb: Math.round(totalmem() / MB),
    memory_free_mb: Math.round(freemem() / MB),
    data_dir: storage.dataDir,
    storage: storage.kind,
    started_at: new Date(startedAt).toISOString(),
    engine: { version, executors: [...EXECUTOR_KINDS] },
  };
}
