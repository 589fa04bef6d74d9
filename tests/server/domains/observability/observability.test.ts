/**
 * Observability endpoints: system facts, metrics as JSON and Prometheus text, and the shared health check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText } from "../../../support/prometheus-text.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0 });
});
afterAll(() => service.close());

describe("GET /api/system and /api/metrics", () => {
  it("describe the machine and process", async () => {
    const system = await (await fetch(`${service.url}/api/system`)).json();
    expect(system).toMatchObject({ version: "9.9.9-test", mode: "personal", node_version: process.version, cpus: expect.any(Number), engine: { executors: expect.arrayContaining(["local", "slurm"]) } });
  });

  it("report metrics as JSON (MB fields, counters)", async () => {
    const json = (await (await fetch(`${service.url}/api/metrics`)).json()) as Record<string, number>;
    for (const key of ["uptime_s", "cpu_pct", "rss_mb", "heap_used_mb", "memory_total_mb", "memory_free_mb", "sse_subscribers", "active_runs", "queued_runs", "requests_total", "event_loop_lag_ms"]) expect(typeof json[key]).toBe("number");
    const again = (await (await fetch(`${service.url}/api/metrics`, { headers: { Accept: "application/json" } })).json()) as Record<string, number>;
    expect(again.requests_total).toBeGreaterThan(json.requests_total!);
  });

  it("serve the Prometheus text format that a strict parser reads: requests by route pattern, durations, runs, jobs, subscribers, process metrics", async () => {
    // A run, so that jobs are counted, and a request whose path holds an id, which must not become a label.
    const created = (await (await fetch(`${service.url}/api/runs`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: '[workflow]\nname = "m"\n\n[[rules]]\nname = "r"\noutput = ["o.txt"]\nshell = "touch o.txt"\n' }) })).json()) as { id: string };
    await service.supervisor.whenFinished(created.id);
    await fetch(`${service.url}/api/pipelines/5a1b2c3d-0000-4000-8000-000000000abc`);
    const answer = await fetch(`${service.url}/api/metrics?format=prometheus`);
    expect(answer.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    const families = parsePrometheusText(text);
    const samples = (name: string) => families.get(name)?.samples ?? [];
    expect(families.get("strand_http_requests_total")?.type).toBe("counter");
    expect(samples("strand_http_requests_total")).toContainEqual({ name: "strand_http_requests_total", labels: { method: "GET", route: "/api/pipelines/{id}", status: "404" }, value: 1 });
    expect(samples("strand_http_requests_total").find((sample) => sample.labels.route === "/api/runs" && sample.labels.method === "POST")?.value).toBe(1);
    expect(text).not.toContain("5a1b2c3d");
    expect(families.get("strand_http_request_duration_seconds")?.type).toBe("histogram");
    expect(samples("strand_runs").map((sample) => sample.labels.status).sort()).toEqual(["cancelled", "completed", "failed", "paused", "queued", "running"]);
    expect(samples("strand_runs").find((sample) => sample.labels.status === "completed")?.value).toBe(1);
    expect(samples("strand_jobs_total")).toContainEqual({ name: "strand_jobs_total", labels: { outcome: "completed" }, value: 1 });
    expect(samples("strand_event_subscribers")).toEqual([{ name: "strand_event_subscribers", labels: {}, value: 0 }]);
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds"]) expect(families.has(name), name).toBe(true);
    // Accept: text/plain asks for the same format.
    expect(parsePrometheusText(await (await fetch(`${service.url}/api/metrics`, { headers: { Accept: "text/plain" } })).text()).has("strand_runs")).toBe(true);
  });
});

describe("the strict Prometheus reader", () => {
  it("refuses what a scraper would refuse", () => {
    expect(() => parsePrometheusText("a 1\n")).toThrow(/without a TYPE/);
    expect(() => parsePrometheusText("# TYPE a counter\na{b=1} 1\n")).toThrow(/quoted value/);
    expect(() => parsePrometheusText("# TYPE a counter\na 1 x\n")).toThrow(/timestamp/);
    expect(() => parsePrometheusText("# TYPE a counter\na one\n")).toThrow(/sample value/);
    expect(() => parsePrometheusText("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_sum 1\nh_count 2\n")).toThrow(/\+Inf/);
    expect(parsePrometheusText('# HELP a b\n# TYPE a gauge\na{x="y\\"z"} 1.5e3 1700000000\n').get("a")?.samples[0]).toEqual({ name: "a", labels: { x: 'y"z' }, value: 1500 });
  });
});

describe("sharedCheck", () => {
  it("runs one check for the calls that arrive while it is under way, and a new one afterwards", async () => {
    const { sharedCheck } = await import("../../../../src/server/domains/observability/service.js");
    let runs = 0;
    let release!: () => void;
    const check = sharedCheck(() => {
      runs++;
      return new Promise<number>((resolve) => (release = () => resolve(runs)));
    });
    const burst = [check(), check(), check()];
    release();
    expect(await Promise.all(burst)).toEqual([1, 1, 1]);
    const later = check();
    release();
    expect(await later).toBe(2);
    const failing = sharedCheck(() => Promise.reject(new Error("down")));
    await expect(failing()).rejects.toThrow("down");
    await expect(failing()).rejects.toThrow("down");
  });
});
