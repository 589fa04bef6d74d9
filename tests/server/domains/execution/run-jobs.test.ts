/**
 * The run page's job table, `GET /api/runs/{id}/jobs`: paged, sorted, filtered and searched on the server,
 * each row with its place in the engine's order, times, duration and exit code; a dry run's plan; the
 * status views without their job list (`?jobs=false`) and with a bounded timeline; one run's events
 * (`/api/events?run_id=`); and a seeded run of 100,000 jobs whose pages stay fast once its log is folded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { expectData, type components, type operations, type ServiceClient } from "../../../../src/client/service-client.js";
import { call, chainPipeline, closeAfterRuns, serviceClient, waitForRun } from "../../../support/run-client.js";
import { seedLargeRun, type LargeRun } from "../../../support/large-run.js";
import { JobTable } from "../../../../src/server/domains/execution/job-table.js";
import { progressOf } from "../../../../src/server/runner/run-progress.js";
import { adoptEndedLiveFold, cachedFold, lazily } from "../../../../src/server/domains/execution/run-folds.js";
import type { RunEvent } from "../../../../src/engine/run/event-log.js";

assertBuilt();

type JobRow = components["schemas"]["RunJobRow"];
type JobsQuery = NonNullable<operations["listRunJobs"]["parameters"]["query"]>;

let service: TestService;
let base: string;
let client: ServiceClient;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0 });
  base = service.url;
  client = serviceClient(base);
});

afterAll(() => closeAfterRuns(service));

/** A page of a run's jobs. */
async function jobsPage(id: string, query: JobsQuery = {}) {
  return expectData(await client.GET("/api/runs/{id}/jobs", { params: { path: { id }, query } }));
}

/** Every row of a run, through pages of `limit`. */
async function allRows(id: string, query: JobsQuery, limit: number): Promise<JobRow[]> {
  const rows: JobRow[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await jobsPage(id, { ...query, offset, limit });
    rows.push(...page.items);
    if (offset + limit >= page.total) return rows;
  }
}

describe("a real run's jobs", () => {
  it("lists each job with its index, status, reason, times, duration and exit code; status and dag-status leave jobs out with jobs=false", async () => {
    const pipeline = chainPipeline("jobs-table", [
      ["make", "echo made > {output[0]}"],
      ["copy", "cat {input[0]} > {output[0]}"],
      ["boom", "exit 3"],
    ]);
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: pipeline } })).id;
    await waitForRun(base, id);
    const page = await jobsPage(id);
    expect(page).toMatchObject({ total: 3, offset: 0, limit: 100 });
    expect(page.items.map((row) => [row.index, row.job, row.rule, row.status, row.exit_code])).toEqual([
      [0, "make", "make", "completed", 0],
      [1, "copy", "copy", "completed", 0],
      [2, "boom", "boom", "failed", 3],
    ]);
    for (const row of page.items) {
      expect(row.reason).toEqual({ code: expect.any(String), text: expect.any(String) });
      expect(Date.parse(row.finished_at ?? "")).toBeGreaterThanOrEqual(Date.parse(row.started_at ?? ""));
      expect(row.duration_ms).toEqual(expect.any(Number));
    }
    expect((await jobsPage(id, { status: "failed" })).items.map((row) => row.job)).toEqual(["boom"]);

    const status = expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id }, query: { jobs: "false" } } }));
    expect(status.jobs).toEqual([]);
    expect(status.timeline_total).toBe(status.timeline.length);
    expect(status.nodes.map((node) => node.rule)).toEqual(["make", "copy", "boom"]);
    expect(expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } })).jobs).toHaveLength(3);
    const dag = expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id }, query: { jobs: "false" } } }));
    expect(dag.jobs).toEqual([]);
    expect(dag).toMatchObject({ completed: 2, failed: 1 });
    expect(expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id } } })).jobs).toHaveLength(3);
  });

  it("shows a dry run's plan: every job would_run with the engine's reason and no times", async () => {
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("jobs-dry", [["one", "touch {output[0]}"], ["two", "cp {input[0]} {output[0]}"]]), dry_run: true } })).id;
    await waitForRun(base, id);
    const page = await jobsPage(id);
    expect(page.items).toEqual([
      { index: 0, job: "one", rule: "one", status: "would_run", reason: { code: expect.any(String), text: expect.any(String) }, started_at: null, finished_at: null, duration_ms: null, exit_code: null },
      { index: 1, job: "two", rule: "two", status: "would_run", reason: { code: expect.any(String), text: expect.any(String) }, started_at: null, finished_at: null, duration_ms: null, exit_code: null },
    ]);
    expect((await jobsPage(id, { status: "would_skip" })).total).toBe(0);
  });

  it("refuses bad parameters with 400 and an unknown run with 404", async () => {
    const id = (await service.store.listRuns({ limit: 1 })).items[0]!.id;
    for (const query of ["limit=0", "limit=1001", "offset=-1", "sort=owner", "order=up", "status=done"]) {
      const answer = await call(base, "GET", `/api/runs/${id}/jobs?${query}`);
      expect(answer.status, query).toBe(400);
    }
    const unknown = await call(base, "GET", "/api/runs/no-such-run/jobs");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
  });

  it("streams only the named run's events with /api/events?run_id=", async () => {
    const other = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("other-run", [["x", "touch {output[0]}"]]) } })).id;
    await waitForRun(base, other);
    const watched = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("watched-run", [["y", "touch {output[0]}"]]) } })).id;
    await waitForRun(base, watched);
    // Resume from the start: the replay ring holds both runs' events; only the watched one's come through.
    const replay = new AbortController();
    const again = await fetch(`${base}/api/events?run_id=${encodeURIComponent(watched)}&last_event_id=0`, { signal: replay.signal });
    const text = await readFor(again, 1500);
    replay.abort();
    const runIds = [...text.matchAll(/"run_id":"([^"]+)"/g)].map((match) => match[1]);
    expect(runIds.length).toBeGreaterThan(0);
    expect(new Set(runIds)).toEqual(new Set([watched]));
  });
});

/**
 * Waits for the service to answer again after a long synchronous seeding: the seeding held the event loop,
 * so a kept-alive socket may be closed by the server just as the client reuses it.
 */
async function settle(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

/** What an event stream sends in `ms`. */
async function readFor(response: Response, ms: number): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), deadline - Date.now()))]);
    if (chunk === "timeout" || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

describe("the job table of a fold", () => {
  it("shows a job an ended run left queued or running as skipped, as the run's counts do", () => {
    const event = (seq: number, type: string, fields: Record<string, unknown> = {}) => ({ seq, time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), type, run_id: "r", ...fields }) as RunEvent;
    const events = [event(1, "run_started", { jobs_total: 3 }), event(2, "job_queued", { job: "a", rule: "a" }), event(3, "job_queued", { job: "b", rule: "b" }), event(4, "job_started", { job: "a", rule: "a" })];
    const live = JobTable.fromProgress(progressOf(events)).page({});
    expect(live.items.map((row) => row.status)).toEqual(["running", "queued"]);
    const ended = JobTable.fromProgress(progressOf([...events, event(5, "run_finished", { status: "cancelled" })])).page({ sort: "status" });
    expect(ended.items.map((row) => [row.job, row.status])).toEqual([
      ["a", "skipped"],
      ["b", "skipped"],
    ]);
  });
});

describe("the fold cache", () => {
  it("keeps the supervisor's fold of a run that has just ended instead of reading its event log again, with a table of the final states", async () => {
    const event = (seq: number, type: string, fields: Record<string, unknown> = {}) => ({ seq, time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), type, run_id: "adopted", ...fields }) as RunEvent;
    const progress = progressOf([event(1, "run_started", { jobs_total: 1 }), event(2, "job_queued", { job: "a", rule: "a" }), event(3, "job_started", { job: "a", rule: "a" })]);
    const live = await cachedFold("adopted", "live:3:1", async () => ({ progress, plan: undefined, table: lazily(() => JobTable.fromProgress(progress)) }));
    expect(live.table().page({}).items[0]!.status).toBe("running");
    // The supervisor reads the rest of the log before it lets go of the run.
    progress.apply(event(4, "job_completed", { job: "a", rule: "a", exit_code: 0, duration_ms: 1000 }));
    progress.apply(event(5, "run_finished", { status: "completed" }));
    adoptEndedLiveFold("adopted", "events:123:456");
    const ended = await cachedFold("adopted", "events:123:456", () => Promise.reject(new Error("the event log was read again")));
    expect(ended.progress).toBe(progress);
    expect(ended.table().page({}).items[0]).toMatchObject({ job: "a", status: "completed", duration_ms: 1000 });
    // Only a live fold is adopted: a fold of another version of the log is made again.
    adoptEndedLiveFold("adopted", "events:999:999");
    await expect(cachedFold("adopted", "events:999:999", () => Promise.reject(new Error("made again")))).rejects.toThrow("made again");
  });
});

describe("a seeded run's job table", () => {
  let run: LargeRun;
  let everything: JobRow[];

  beforeAll(async () => {
    run = await seedLargeRun(service, { jobs: 2_000, rules: 5, failed: 37 });
    await settle();
    everything = await allRows(run.id, {}, 1000);
  }, 60_000);

  it("pages every job once, in the engine's order, with total counting them all", async () => {
    expect(everything).toHaveLength(2_000);
    expect(everything.map((row) => row.index)).toEqual(Array.from({ length: 2_000 }, (_, index) => index));
    expect(new Set(everything.map((row) => row.job)).size).toBe(2_000);
    const page = await jobsPage(run.id, { offset: 1990, limit: 50 });
    expect(page).toMatchObject({ total: 2_000, offset: 1990, limit: 50 });
    expect(page.items.map((row) => row.index)).toEqual(Array.from({ length: 10 }, (_, index) => 1990 + index));
    expect((await jobsPage(run.id, { offset: 5000 })).items).toEqual([]);
  });

  it("sorts by each column both ways, ties in the engine's order and missing values last", async () => {
    const byDuration = await allRows(run.id, { sort: "duration_ms", order: "desc" }, 1000);
    const durations = byDuration.map((row) => row.duration_ms!);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    const byJob = await allRows(run.id, { sort: "job" }, 1000);
    expect(byJob.map((row) => row.job)).toEqual(everything.map((row) => row.job).sort());
    const byRule = await allRows(run.id, { sort: "rule", order: "asc" }, 1000);
    const expected = [...everything].sort((a, b) => (a.rule === b.rule ? a.index - b.index : a.rule < b.rule ? -1 : 1));
    expect(byRule.map((row) => row.index)).toEqual(expected.map((row) => row.index));
    const byStatus = (await jobsPage(run.id, { sort: "status", limit: 37 })).items;
    expect(byStatus.every((row) => row.status === "completed")).toBe(true);
    const byStatusDesc = (await jobsPage(run.id, { sort: "status", order: "desc", limit: 37 })).items;
    expect(byStatusDesc.every((row) => row.status === "failed")).toBe(true);
    const started = (await allRows(run.id, { sort: "started_at" }, 1000)).map((row) => row.started_at!);
    expect(started).toEqual([...started].sort());
  });

  it("filters by status and rule and searches job ids and rules case-insensitively; total counts what the filters keep", async () => {
    const failed = await jobsPage(run.id, { status: "failed", limit: 1000 });
    expect(failed.total).toBe(37);
    expect(failed.items.every((row) => row.status === "failed" && row.exit_code === 1)).toBe(true);
    const rule = run.rules[2]!;
    const ofRule = await jobsPage(run.id, { rule, limit: 1000 });
    expect(ofRule.total).toBe(everything.filter((row) => row.rule === rule).length);
    expect(ofRule.items.every((row) => row.rule === rule)).toBe(true);
    const search = await jobsPage(run.id, { q: "S00012", limit: 1000 });
    expect(search.items.map((row) => row.job)).toEqual(everything.filter((row) => row.job.includes("S00012")).map((row) => row.job));
    expect((await jobsPage(run.id, { q: rule.toUpperCase(), limit: 1 })).total).toBe(ofRule.total);
    const combined = await jobsPage(run.id, { q: "s000", rule, status: "failed", sort: "duration_ms", order: "asc" });
    expect(combined.total).toBe(everything.filter((row) => row.rule === rule && row.status === "failed" && row.job.toLowerCase().includes("s000")).length);
    expect((await jobsPage(run.id, { rule: "no-such-rule" })).total).toBe(0);
  });

  it("sees the seeded run in status, dag-status, logs and diagnostics as any ended run", async () => {
    const status = expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id: run.id }, query: { jobs: "false" } } }));
    expect(status.status).toBe("failed");
    expect(status.nodes.map((node) => node.rule)).toEqual(run.rules);
    expect(status.nodes.reduce((sum, node) => sum + node.jobs.total, 0)).toBe(2_000);
    expect(status.nodes.reduce((sum, node) => sum + node.jobs.failed, 0)).toBe(37);
    const dag = expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id: run.id }, query: { jobs: "false" } } }));
    expect(dag).toMatchObject({ completed: 1963, failed: 37, eta_ms: 0 });
    const failedJob = (await jobsPage(run.id, { status: "failed", limit: 1 })).items[0]!;
    const log = expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id: run.id }, query: { job: failedJob.job } } }));
    expect(log.lines.join("\n")).toMatch(/truncated record/);
  });
});

describe("a run of 100,000 jobs", () => {
  let run: LargeRun;

  beforeAll(async () => {
    const started = Date.now();
    run = await seedLargeRun(service, { jobs: 100_000, rules: 20, failed: 250 });
    expect(Date.now() - started, "seeding takes seconds").toBeLessThan(30_000);
    await settle();
  }, 60_000);

  it("answers a page well under 200 ms once warm, with every job counted, and a bounded status", async () => {
    const cold = await jobsPage(run.id, { limit: 100 });
    expect(cold.total).toBe(100_000);
    await jobsPage(run.id, { sort: "duration_ms", order: "desc" });
    const timings: number[] = [];
    const queries: JobsQuery[] = [{ offset: 50_000 }, { sort: "duration_ms", order: "desc", offset: 99_900 }, { status: "failed" }, { q: "align_s0042" }, { rule: "call", sort: "job" }];
    // Warm: the first search lower-cases every job id once.
    for (const query of queries) await jobsPage(run.id, { limit: 100, ...query });
    for (const query of queries) {
      const started = performance.now();
      const page = await jobsPage(run.id, { limit: 100, ...query });
      timings.push(performance.now() - started);
      expect(page.items.length).toBeGreaterThan(0);
    }
    expect(Math.max(...timings), `page times ${timings.map((time) => time.toFixed(0)).join(", ")} ms`).toBeLessThan(200);
    expect((await jobsPage(run.id, { status: "failed", limit: 1000 })).total).toBe(250);

    const started = performance.now();
    const response = await fetch(`${base}/api/runs/${run.id}/status?jobs=false`);
    const text = await response.text();
    const statusMs = performance.now() - started;
    const status = JSON.parse(text) as components["schemas"]["RunStatusView"];
    expect(status.jobs).toEqual([]);
    expect(status.timeline.length).toBeLessThanOrEqual(500);
    expect(status.timeline_total).toBe(1 + 2 * 100_000 + 1);
    expect(status.timeline.at(-1)?.type).toBe("run_finished");
    expect(text.length).toBeLessThan(200_000);
    expect(status.nodes).toHaveLength(20);
    expect(statusMs).toBeLessThan(1000);
    const dag = expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id: run.id }, query: { jobs: "false" } } }));
    expect(dag).toMatchObject({ completed: 100_000 - 250, failed: 250, jobs: [] });
  }, 120_000);
});
