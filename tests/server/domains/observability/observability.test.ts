/**
 * Observability endpoints: system facts, metrics as JSON and Prometheus text, and the shared health check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("report metrics as JSON (MB fields, counters) and as Prometheus text", async () => {
    const json = (await (await fetch(`${service.url}/api/metrics`)).json()) as Record<string, number>;
    for (const key of ["uptime_s", "cpu_pct", "rss_mb", "heap_used_mb", "memory_total_mb", "memory_free_mb", "sse_subscribers", "active_runs", "queued_runs", "requests_total", "event_loop_lag_ms"]) expect(typeof json[key]).toBe("number");
    const before = json.requests_total!;
    const text = await (await fetch(`${service.url}/api/metrics`, { headers: { Accept: "text/plain" } })).text();
    expect(text).toMatch(/^# HELP strand_requests_total /m);
    expect(text).toMatch(/^# TYPE strand_requests_total counter$/m);
    const total = Number(/^strand_requests_total (\d+)$/m.exec(text)?.[1]);
    expect(total).toBeGreaterThan(before);
    expect(text).toMatch(/^strand_memory_total_mb \d+$/m);
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
