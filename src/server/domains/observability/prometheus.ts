/**
 * The service's Prometheus metrics (prom-client), in a registry of their own so several apps can live in
 * one process: the default process and Node.js metrics, HTTP requests by method, route pattern and status
 * (never by raw path, which would make one series per pipeline id), their duration as a histogram, runs by
 * status, jobs by outcome and the event-stream subscribers.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { EventBus } from "../../events/event-bus.js";
import type { RequestRecord } from "../../middleware/tracing.js";
import { RUN_STATUSES, type RunStore } from "../../store/runs/contract.js";

/** Job event types and the outcome label each counts as. */
const JOB_OUTCOMES: Record<string, string> = { job_completed: "completed", job_failed: "failed", job_skipped: "skipped" };

/** What the metrics read their figures from. */
export interface PrometheusSources {
  store: RunStore;
  events: EventBus;
}

/** The service's metrics registry and the instruments the service updates. */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly durations: Histogram<"method" | "route">;
  private readonly aiCalls: Counter<"task" | "provider" | "outcome">;
  private readonly aiTokens: Counter<"task" | "provider" | "direction">;
  private readonly aiLatency: Histogram<"task" | "provider">;

  constructor(sources: PrometheusSources) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: "strand_http_requests_total", help: "HTTP requests answered, by method, route pattern and status", labelNames: ["method", "route", "status"], registers: [this.registry] });
    this.durations = new Histogram({
      name: "strand_http_request_duration_seconds",
      help: "time to answer an HTTP request, by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.aiCalls = new Counter({ name: "strand_ai_calls_total", help: "AI model calls, by task, provider and outcome (ok, rate_limit, auth, context_overflow, …)", labelNames: ["task", "provider", "outcome"], registers: [this.registry] });
    this.aiTokens = new Counter({ name: "strand_ai_tokens_total", help: "AI tokens, by task, provider and direction (input, output)", labelNames: ["task", "provider", "direction"], registers: [this.registry] });
    this.aiLatency = new Histogram({ name: "strand_ai_call_duration_seconds", help: "time of an AI model call, by task and provider", labelNames: ["task", "provider"], buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120], registers: [this.registry] });
    new Gauge({
      name: "strand_runs",
      help: "runs in the store, by status",
      labelNames: ["status"],
      registers: [this.registry],
      async collect() {
        const totals = await Promise.all(RUN_STATUSES.map(async (status) => (await sources.store.listRuns({ status, limit: 1 })).total));
        RUN_STATUSES.forEach((status, index) => this.set({ status }, totals[index]!));
      },
    });
    const jobs = new Counter({ name: "strand_jobs_total", help: "jobs that ended in runs this service supervised, by outcome", labelNames: ["outcome"], registers: [this.registry] });
    for (const outcome of Object.values(JOB_OUTCOMES)) jobs.inc({ outcome }, 0);
    sources.events.observe((event) => {
      const outcome = JOB_OUTCOMES[event.type];
      if (outcome) jobs.inc({ outcome });
    });
    new Gauge({
      name: "strand_event_subscribers",
      help: "clients connected to GET /api/events",
      registers: [this.registry],
      collect() {
        this.set(sources.events.subscriberCount);
      },
    });
  }

  /** Counts one answered request (the tracing middleware calls this). */
  recordRequest(record: RequestRecord): void {
    this.requests.inc({ method: record.method, route: record.route, status: String(record.status) });
    this.durations.observe({ method: record.method, route: record.route }, record.seconds);
  }

  /** Counts one AI model call: outcome, tokens and latency. */
  recordAiCall(record: { task: string; provider: string; outcome: string; input_tokens: number; output_tokens: number; latency_ms: number }): void {
    this.aiCalls.inc({ task: record.task, provider: record.provider, outcome: record.outcome });
    this.aiTokens.inc({ task: record.task, provider: record.provider, direction: "input" }, record.input_tokens);
    this.aiTokens.inc({ task: record.task, provider: record.provider, direction: "output" }, record.output_tokens);
    this.aiLatency.observe({ task: record.task, provider: record.provider }, record.latency_ms / 1000);
  }

  /** The metrics in the Prometheus text exposition format, and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
