/**
 * Runs through the real service with real engine processes: create (text or saved pipeline, refused when
 * invalid), the views (detail, status, dag-status, logs, results, diagnostics), listing with cursors, and
 * the control operations with the state rules of api-decisions (cancel, pause, resume, retry).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { call, chainPipeline, ended, waitForRun } from "../../../support/run-client.js";

assertBuilt();

let service: TestService;
let base: string;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0, runner: { sampleIntervalMs: 100, cancelGraceMs: 2000 } });
  base = service.url;
});

afterAll(async () => {
  // Let every engine end before the data folder goes.
  const page = await service.store.listRuns({ limit: 500 });
  for (const run of page.items) if (!ended(run)) await call(base, "POST", `/api/runs/${run.id}/cancel`);
  for (const run of page.items) await service.supervisor.whenFinished(run.id);
  await service.close();
});

const TWO_STEPS = chainPipeline("two-steps", [
  ["make", "echo made > {output[0]}; echo to-stdout; echo to-stderr >&2"],
  ["copy", "cat {input[0]} > {output[0]}"],
]);

describe("creating a run", () => {
  it("runs pipeline text to completion in its own workspace, with counts, views and results", async () => {
    const created = await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "queued", workflow_name: "two-steps", owner: "local", target: { type: "local" }, retry_of: null, pipeline_id: null, dry_run: false });
    const id = created.body.id as string;
    const run = await waitForRun(base, id);
    expect(run).toMatchObject({ status: "completed", exit_code: 0, error: null, counts: { total: 2, completed: 2, failed: 0, running: 0, skipped: 0, pending: 0 } });
    expect(run.started_at).not.toBeNull();
    expect(Date.parse(run.finished_at)).toBeGreaterThanOrEqual(Date.parse(run.started_at));
    // Its own workspace under the data directory, with the pipeline it ran.
    expect(run.workspace).toBe(join(runRoot(), id));
    expect(readFileSync(join(run.workspace, "workflow.oxoflow"), "utf8")).toBe(TWO_STEPS);
    expect(run.log_tail.join("\n")).toMatch(/Done: 2 succeeded/);

    const status = (await call(base, "GET", `/api/runs/${id}/status`)).body;
    expect(status.status).toBe("completed");
    expect(status.nodes).toEqual([
      expect.objectContaining({ rule: "make", status: "completed", jobs: { total: 1, completed: 1, failed: 0, running: 0, skipped: 0 } }),
      expect.objectContaining({ rule: "copy", status: "completed", jobs: { total: 1, completed: 1, failed: 0, running: 0, skipped: 0 } }),
    ]);
    expect(status.timeline.map((entry: { type: string }) => entry.type)).toEqual(["run_started", "job_started", "job_completed", "job_started", "job_completed", "run_finished"]);
    expect(status.resources).toEqual({ cpu_pct: expect.any(Number), memory_mb: expect.any(Number), peak_memory_mb: expect.any(Number), disk_mb: expect.any(Number) });

    const dag = (await call(base, "GET", `/api/runs/${id}/dag-status`)).body;
    expect(dag.nodes.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual([
      ["make", "completed"],
      ["copy", "completed"],
    ]);
    expect(dag.edges).toEqual([{ from: "make", to: "copy", kind: "file" }]);
    expect(dag).toMatchObject({ completed: 2, failed: 0, running: 0, pending: 0, eta_ms: 0, critical_path: ["make", "copy"] });

    const results = (await call(base, "GET", `/api/runs/${id}/results`)).body;
    expect(results.files).toEqual([
      { path: "make.txt", size_bytes: 5, rule: "make", modified_at: expect.any(String) },
      { path: "copy.txt", size_bytes: 5, rule: "copy", modified_at: expect.any(String) },
    ]);
    expect(results.total_size_bytes).toBe(10);
    expect((await call(base, "GET", `/api/runs/${id}/diagnostics`)).body).toEqual({ failures: [], warnings: [], bottlenecks: expect.any(Array) });
  });

  it("pages logs per job and stream, and the engine's own log", async () => {
    const lines = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`);
    const id = (await call(base, "POST", "/api/runs", { toml_content: chainPipeline("chatty", [["talk", `for i in $(seq 1 25); do echo "line $i"; done; echo oops >&2; touch {output[0]}`]]) })).body.id;
    await waitForRun(base, id);
    const pages: string[] = [];
    let offset = 0;
    for (let guard = 0; guard < 10; guard++) {
      const page = (await call(base, "GET", `/api/runs/${id}/logs?job=talk&stream=stdout&limit=10&offset=${offset}`)).body;
      expect(page).toMatchObject({ job: "talk", stream: "stdout" });
      pages.push(...page.lines);
      offset = page.next_offset;
      if (page.eof) break;
    }
    expect(pages).toEqual(lines);
    expect((await call(base, "GET", `/api/runs/${id}/logs?job=talk`)).body).toMatchObject({ stream: "stderr", lines: ["oops"], eof: true });
    const engine = (await call(base, "GET", `/api/runs/${id}/logs`)).body;
    expect(engine.stream).toBe("engine");
    expect(engine.lines.join("\n")).toMatch(/Running: talk/);
    // A job the run does not have is 404, and a job name is never a path.
    const unknown = await call(base, "GET", `/api/runs/${id}/logs?job=${encodeURIComponent("../../../etc/passwd")}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
    expect((await call(base, "GET", `/api/runs/${id}/logs?stream=stdout`)).status).toBe(400);
  });

  it("runs a saved pipeline and records the revision it ran", async () => {
    const saved = (await call(base, "POST", "/api/pipelines", { toml_content: TWO_STEPS })).body;
    const first = (await call(base, "POST", "/api/runs", { pipeline_id: saved.id })).body;
    expect(first).toMatchObject({ pipeline_id: saved.id, pipeline_revision: 1, workflow_name: "two-steps" });
    await call(base, "PUT", `/api/pipelines/${saved.id}`, { toml_content: TWO_STEPS.replace("made", "made again") });
    const second = (await call(base, "POST", "/api/runs", { pipeline_id: saved.id })).body;
    expect(second.pipeline_revision).toBe(2);
    // Two runs of one pipeline never share a workspace (no history is overwritten).
    expect(second.workspace).not.toBe(first.workspace);
    await waitForRun(base, first.id);
    const done = await waitForRun(base, second.id);
    expect(readFileSync(join(done.workspace, "make.txt"), "utf8")).toBe("made again\n");
    const missing = await call(base, "POST", "/api/runs", { pipeline_id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
  });

  it("refuses a pipeline with errors before anything starts, with the findings", async () => {
    const before = (await call(base, "GET", "/api/runs?limit=1")).body.total;
    const workspacesBefore = existsSync(runRoot()) ? readdirSync(runRoot()).length : 0;
    const invalid = await call(base, "POST", "/api/runs", { toml_content: '[workflow]\nname = "bad"\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "true"\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "true"\n' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATE_ERROR");
    expect(invalid.body.findings.length).toBeGreaterThan(0);
    expect(invalid.body.findings[0]).toMatchObject({ severity: "error", code: expect.any(String), message: expect.any(String) });
    const broken = await call(base, "POST", "/api/runs", { toml_content: "[workflow\nname = 1" });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: "VALIDATE_ERROR", findings: [expect.objectContaining({ code: "PARSE_ERROR", line: 1 })] });
    expect((await call(base, "POST", "/api/runs", {})).body.code).toBe("MISSING_FIELD");
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, pipeline_id: "x" })).body.code).toBe("BAD_REQUEST");
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, samples: ["a,b"] })).body.code).toBe("BAD_REQUEST");
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, target: { type: "cloud_batch" } })).body.code).toBe("RUN_ERROR");
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, target: { type: "container" } })).body.code).toBe("RUN_ERROR");
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, target: { type: "mainframe" } })).body.code).toBe("BAD_REQUEST");
    expect((await call(base, "GET", "/api/runs?limit=1")).body.total).toBe(before);
    expect(existsSync(runRoot()) ? readdirSync(runRoot()).length : 0).toBe(workspacesBefore);
  });

  it("passes samples, targets, config overrides, jobs and keep_going to the engine", async () => {
    const pipeline = `[workflow]\nname = "options"\n[config]\nword = "plain"\n[[sample_groups]]\nname = "g"\nsamples = ["s1", "s2", "s3"]\n\n[[rules]]\nname = "per_sample"\noutput = ["out/{sample}.txt"]\nshell = "echo {config.word} > {output[0]}"\n\n[[rules]]\nname = "other"\noutput = ["other.txt"]\nshell = "echo other > {output[0]}"\n`;
    const created = (await call(base, "POST", "/api/runs", { toml_content: pipeline, samples: ["s1", "s3"], targets: ["per_sample"], config: { word: "fancy" }, jobs: 2, keep_going: true })).body;
    const run = await waitForRun(base, created.id);
    expect(run).toMatchObject({ status: "completed" });
    expect(readFileSync(join(run.workspace, "out", "s1.txt"), "utf8")).toBe("fancy\n");
    expect(existsSync(join(run.workspace, "out", "s2.txt"))).toBe(false);
    expect(existsSync(join(run.workspace, "other.txt"))).toBe(false);
    expect(run.counts.completed).toBe(2);
  });

  it("records a dry run's plan without running anything", async () => {
    const created = (await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, dry_run: true })).body;
    const run = await waitForRun(base, created.id);
    expect(run).toMatchObject({ status: "completed", dry_run: true, counts: { total: 2, completed: 0 } });
    expect(existsSync(join(run.workspace, "make.txt"))).toBe(false);
    expect((await call(base, "GET", `/api/runs/${created.id}/results`)).body).toEqual({ files: [], total_size_bytes: 0, truncated: false });
  });
});

describe("listing runs", () => {
  it("pages newest first with opaque cursors, a total, next_cursor null on the last page, and filters", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS.replace("two-steps", "listed-run"), dry_run: true })).body.id);
    for (const id of ids) await waitForRun(base, id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/api/runs?q=listed-run&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = (await call(base, "GET", query)).body;
      // The total counts the runs there are now (one more after the first page).
      expect(page.total).toBe(pages === 0 ? 5 : 6);
      seen.push(...page.items.map((run: { id: string }) => run.id));
      cursor = page.next_cursor;
      pages++;
      // A run created between pages (newer) never shifts the pages being read.
      if (pages === 1) await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS.replace("two-steps", "listed-run"), dry_run: true });
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    expect((await call(base, "GET", "/api/runs?status=completed&limit=500")).body.items.every((run: { status: string }) => run.status === "completed")).toBe(true);
    const bad = await call(base, "GET", "/api/runs?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect((await call(base, "GET", "/api/runs?limit=501")).status).toBe(400);
  });
});

describe("controlling a run", () => {
  const SLOW = chainPipeline("slow", [
    ["first", "sleep 30; touch {output[0]}"],
    ["second", "touch {output[0]}"],
  ]);

  it("cancels a running run (the engine stops its job), answers 200 again, and refuses to cancel a finished one", async () => {
    const id = (await call(base, "POST", "/api/runs", { toml_content: SLOW })).body.id;
    await waitForRun(base, id, (run) => run.counts.running === 1);
    const cancelled = await call(base, "POST", `/api/runs/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    await service.supervisor.whenFinished(id);
    const run = (await call(base, "GET", `/api/runs/${id}`)).body;
    expect(run).toMatchObject({ status: "cancelled", exit_code: 143, counts: { total: 2, completed: 0, running: 0 } });
    expect(run.finished_at).not.toBeNull();
    const again = await call(base, "POST", `/api/runs/${id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("cancelled");

    const done = (await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS })).body.id;
    await waitForRun(base, done);
    const refused = await call(base, "POST", `/api/runs/${done}/cancel`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("RUN_ERROR");
    expect(refused.body.message).toMatch(/completed/);
  });

  it("cancels a run at once after creating it, whether or not its engine has started", async () => {
    const ids = [];
    for (let index = 0; index < 4; index++) {
      const id = (await call(base, "POST", "/api/runs", { toml_content: chainPipeline("hasty", [["wait", "sleep 30; touch {output[0]}"]]) })).body.id;
      expect((await call(base, "POST", `/api/runs/${id}/cancel`)).body.status).toBe("cancelled");
      ids.push(id);
    }
    for (const id of ids) {
      const run = await waitForRun(base, id, (found) => found.finished_at !== null && service.supervisor.progress(id) === undefined, 30_000);
      expect(run).toMatchObject({ status: "cancelled", counts: { completed: 0, running: 0 } });
      expect(existsSync(join(run.workspace, "wait.txt"))).toBe(false);
    }
    expect((await call(base, "GET", "/api/metrics")).body.active_runs).toBe(0);
  });

  it("pauses and resumes a running run, refuses the wrong order, and cancels a paused run", async () => {
    const pipeline = chainPipeline("pausable", [
      ["first", "sleep 3; touch {output[0]}"],
      ["second", "touch {output[0]}"],
    ]);
    const id = (await call(base, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    await waitForRun(base, id, (run) => run.counts.running === 1);
    const paused = await call(base, "POST", `/api/runs/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe("paused");
    const twice = await call(base, "POST", `/api/runs/${id}/pause`);
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe("RUN_ERROR");
    // While paused the running job is suspended and nothing new starts.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect((await call(base, "GET", `/api/runs/${id}`)).body).toMatchObject({ status: "paused", counts: { completed: 0, running: 1, pending: 1 } });
    const resumed = await call(base, "POST", `/api/runs/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe("running");
    expect((await call(base, "POST", `/api/runs/${id}/resume`)).body.code).toBe("RUN_ERROR");
    expect(await waitForRun(base, id)).toMatchObject({ status: "completed", counts: { completed: 2 } });

    const slow = (await call(base, "POST", "/api/runs", { toml_content: SLOW })).body.id;
    await waitForRun(base, slow, (run) => run.counts.running === 1);
    expect((await call(base, "POST", `/api/runs/${slow}/pause`)).body.status).toBe("paused");
    const cancelled = await call(base, "POST", `/api/runs/${slow}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    await service.supervisor.whenFinished(slow);
    expect((await call(base, "GET", `/api/runs/${slow}`)).body).toMatchObject({ status: "cancelled", finished_at: expect.any(String) });
  });

  it("retries only what failed, in the parent's workspace, and refuses retries the state does not allow", async () => {
    const pipeline = chainPipeline("flaky", [
      ["good", "echo good > {output[0]}"],
      ["shaky", "test -f fixed || { echo 'not fixed yet' >&2; exit 3; }; echo ok > {output[0]}"],
      ["after", "cat {input[0]} > {output[0]}"],
    ]);
    const id = (await call(base, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    const failed = await waitForRun(base, id);
    expect(failed).toMatchObject({ status: "failed", exit_code: 1, counts: { total: 3, completed: 1, failed: 1, skipped: 1 } });
    expect(failed.error).toMatch(/1 job failed|shaky/);
    const diagnosis = (await call(base, "GET", `/api/runs/${id}/diagnostics`)).body;
    expect(diagnosis.failures).toEqual([expect.objectContaining({ rule: "shaky", job: "shaky", exit_code: 3, log_excerpt: expect.arrayContaining(["not fixed yet"]) })]);

    writeFileSync(join(failed.workspace, "fixed"), "");
    const retry = await call(base, "POST", `/api/runs/${id}/retry`);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ retry_of: id, workspace: failed.workspace, workflow_name: "flaky" });
    const retried = await waitForRun(base, retry.body.id);
    // The good job is not run again: the checkpoint carried over.
    expect(retried).toMatchObject({ status: "completed", counts: { total: 3, completed: 2, failed: 0, skipped: 1 } });
    const status = (await call(base, "GET", `/api/runs/${retry.body.id}/status`)).body;
    expect(status.nodes.find((node: { rule: string }) => node.rule === "good").status).toBe("skipped");
    // The parent's views still describe the parent.
    expect((await call(base, "GET", `/api/runs/${id}/status`)).body.nodes.find((node: { rule: string }) => node.rule === "shaky").status).toBe("failed");

    const completedRetry = await call(base, "POST", `/api/runs/${retry.body.id}/retry`);
    expect(completedRetry.status).toBe(400);
    expect(completedRetry.body.code).toBe("RETRY_ERROR");
    const running = (await call(base, "POST", "/api/runs", { toml_content: SLOW })).body.id;
    await waitForRun(base, running, (run) => run.status === "running");
    const busy = await call(base, "POST", `/api/runs/${running}/retry`);
    expect(busy.status).toBe(400);
    expect(busy.body).toMatchObject({ code: "RETRY_ERROR", message: expect.stringMatching(/running/) });
    await call(base, "POST", `/api/runs/${running}/cancel`);
    expect((await call(base, "POST", "/api/runs/no-such-run/retry")).status).toBe(404);
  });

  it("retries a cancelled run by running what did not complete (what did is not run again)", async () => {
    const pipeline = chainPipeline("interrupted", [
      ["quick", "echo quick > {output[0]}"],
      ["slowish", "test -f go || sleep 30; echo slow > {output[0]}"],
      ["end", "cat {input[0]} > {output[0]}"],
    ]);
    const id = (await call(base, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    const running = await waitForRun(base, id, (run) => run.counts.running === 1 && run.counts.completed === 1);
    await call(base, "POST", `/api/runs/${id}/cancel`);
    writeFileSync(join(running.workspace, "go"), "");
    // Right after the cancel, while the engine may still be stopping its job: the retry waits for it.
    const retry = (await call(base, "POST", `/api/runs/${id}/retry`)).body;
    expect(retry.retry_of).toBe(id);
    // The stopped job counts as skipped, not failed: nothing went wrong with it.
    expect((await call(base, "GET", `/api/runs/${id}`)).body).toMatchObject({ status: "cancelled", counts: { total: 3, completed: 1, failed: 0, skipped: 2 } });
    expect((await call(base, "GET", `/api/runs/${id}/diagnostics`)).body.failures).toEqual([]);
    const done = await waitForRun(base, retry.id);
    expect(done).toMatchObject({ status: "completed", retry_of: id, counts: { total: 3, completed: 2, skipped: 1, failed: 0 } });
    expect(readFileSync(join(running.workspace, "end.txt"), "utf8")).toBe("slow\n");
  });

  it("diagnoses a completed run without failures, and names a job that used most of its declared memory", async () => {
    const pipeline = `[workflow]\nname = "hungry"\nversion = "1.0.0"\n\n[[rules]]\nname = "eat"\noutput = ["eat.txt"]\nshell = "python3 -c 'import time; x = bytearray(60 * 1024 * 1024); time.sleep(1)'; touch {output[0]}"\n[rules.resources]\nmemory = "70M"\n`;
    const id = (await call(base, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    expect(await waitForRun(base, id)).toMatchObject({ status: "completed" });
    const diagnosis = (await call(base, "GET", `/api/runs/${id}/diagnostics`)).body;
    expect(diagnosis.failures).toEqual([]);
    expect(diagnosis.bottlenecks).toEqual(expect.arrayContaining([expect.objectContaining({ job: "eat", rule: "eat", metric: "peak_memory_mb", limit: 70 })]));
  });

  it("shows active runs in /api/metrics and the engine in /api/health", async () => {
    const id = (await call(base, "POST", "/api/runs", { toml_content: chainPipeline("metered", [["wait", "sleep 2; touch {output[0]}"]]) })).body.id;
    await waitForRun(base, id, (run) => run.status === "running");
    const metrics = (await call(base, "GET", "/api/metrics")).body;
    expect(metrics.active_runs).toBeGreaterThanOrEqual(1);
    expect(metrics.queued_runs).toEqual(expect.any(Number));
    const health = (await call(base, "GET", "/api/health")).body;
    expect(health.components.engine).toMatchObject({ status: "ok", version: expect.any(String) });
    await waitForRun(base, id);
    // The process tree was sampled into the run's metrics file while it ran.
    const samples = readFileSync(join((await call(base, "GET", `/api/runs/${id}`)).body.workspace, ".strand", "runs", id, "metrics.jsonl"), "utf8").trim().split("\n");
    expect(samples.length).toBeGreaterThan(3);
    expect(JSON.parse(samples[0]!)).toMatchObject({ time: expect.any(String), cpu_pct: expect.any(Number), memory_mb: expect.any(Number), processes: expect.any(Number) });
    expect((await call(base, "GET", `/api/runs/${id}/status`)).body.resources.peak_memory_mb).toBeGreaterThan(0);
  });
});

describe("run events on GET /api/events", () => {
  /** Collects the records of one run from a real EventSource until `last` arrives. */
  function collect(last: (type: string) => boolean): { records: { id: number; type: string; data: Record<string, unknown> }[]; forRun(id: string): Promise<{ type: string; data: Record<string, unknown> }[]>; close(): void } {
    const source = new EventSource(`${base}/api/events`);
    const records: { id: number; type: string; data: Record<string, unknown> }[] = [];
    const waiters: (() => void)[] = [];
    source.onmessage = (message) => {
      const record = JSON.parse(message.data) as { type: string; time: string; data: Record<string, unknown> };
      expect(Object.keys(record).sort()).toEqual(["data", "time", "type"]);
      records.push({ id: Number(message.lastEventId), ...record });
      for (const waiter of waiters.splice(0)) waiter();
    };
    return {
      records,
      close: () => source.close(),
      forRun: async (id) => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const mine = records.filter((record) => record.data.run_id === id);
          if (mine.some((record) => last(record.type))) return mine;
          if (Date.now() > deadline) throw new Error(`no final event for ${id}: ${JSON.stringify(mine)}`);
          await new Promise<void>((resolve) => {
            waiters.push(resolve);
            setTimeout(resolve, 200);
          });
        }
      },
    };
  }

  it("publishes run transitions and job events with increasing ids, from the event log", async () => {
    const stream = collect((type) => ["run_completed", "run_failed", "run_cancelled"].includes(type));
    try {
      await waitForSubscriber();
      const ok = (await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS })).body.id;
      const okEvents = await stream.forRun(ok);
      expect(okEvents.map((event) => event.type)).toEqual(["run_queued", "run_started", "job_started", "job_completed", "job_started", "job_completed", "run_completed"]);
      expect(okEvents[2]!.data).toMatchObject({ run_id: ok, job: "make", rule: "make" });
      expect(okEvents[3]!.data).toMatchObject({ job: "make", exit_code: 0, duration_ms: expect.any(Number) });
      expect(okEvents.at(-1)!.data).toMatchObject({ status: "completed", exit_code: 0, counts: { total: 2, completed: 2 } });

      const failing = chainPipeline("failing", [
        ["boom", "echo bad >&2; exit 5"],
        ["never", "touch {output[0]}"],
      ]);
      const bad = (await call(base, "POST", "/api/runs", { toml_content: failing })).body.id;
      const badEvents = await stream.forRun(bad);
      expect(badEvents.map((event) => event.type)).toEqual(["run_queued", "run_started", "job_started", "job_failed", "job_skipped", "run_failed"]);
      expect(badEvents[3]!.data).toMatchObject({ job: "boom", exit_code: 5 });
      expect(badEvents[4]!.data).toMatchObject({ job: "never", reason: expect.any(String) });

      const slow = (await call(base, "POST", "/api/runs", { toml_content: chainPipeline("watched", [["wait", "sleep 30; touch {output[0]}"]]) })).body.id;
      await waitForRun(base, slow, (run) => run.counts.running === 1);
      await call(base, "POST", `/api/runs/${slow}/pause`);
      await call(base, "POST", `/api/runs/${slow}/resume`);
      await call(base, "POST", `/api/runs/${slow}/cancel`);
      await stream.forRun(slow);
      await service.supervisor.whenFinished(slow);
      const slowEvents = await stream.forRun(slow);
      // The job the cancel stopped is reported as skipped (it did not fail), after the cancel itself.
      expect(slowEvents.map((event) => event.type)).toEqual(["run_queued", "run_started", "job_started", "run_paused", "run_resumed", "run_cancelled", "job_skipped"]);
      expect(slowEvents.at(-1)!.data).toMatchObject({ job: "wait", reason: expect.stringMatching(/^stopped: /) });

      const ids = stream.records.map((record) => record.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
  });
});

/** Waits until the service counts an SSE subscriber. */
async function waitForSubscriber(): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if ((await call(base, "GET", "/api/metrics")).body.sse_subscribers > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the EventSource did not connect");
}

function runRoot(): string {
  return join(service.dataDir!, "runs");
}
