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
import { expectData, type components, type ServiceClient } from "../../../../src/client/service-client.js";
import { call, chainPipeline, closeAfterRuns, metricsOf, serviceClient, waitForRun, workspaceOf } from "../../../support/run-client.js";

assertBuilt();

let service: TestService;
let base: string;
let client: ServiceClient;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0, runner: { sampleIntervalMs: 100, cancelGraceMs: 2000 } });
  base = service.url;
  client = serviceClient(base);
});

afterAll(() => closeAfterRuns(service));

const TWO_STEPS = chainPipeline("two-steps", [
  ["make", "echo made > {output[0]}; echo to-stdout; echo to-stderr >&2"],
  ["copy", "cat {input[0]} > {output[0]}"],
]);

describe("creating a run", () => {
  it("runs pipeline text to completion in its own workspace, with counts, views and results", async () => {
    const created = await client.POST("/api/runs", { body: { toml_content: TWO_STEPS } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ status: "queued", workflow_name: "two-steps", owner: "local", target: { type: "local" }, retry_of: null, pipeline_id: null, dry_run: false });
    const id = expectData(created).id;
    const run = await waitForRun(base, id);
    expect(run).toMatchObject({ status: "completed", exit_code: 0, error: null, counts: { total: 2, completed: 2, failed: 0, running: 0, skipped: 0, pending: 0 } });
    expect(run.started_at).not.toBeNull();
    expect(Date.parse(run.finished_at ?? "")).toBeGreaterThanOrEqual(Date.parse(run.started_at ?? ""));
    // Its own workspace under the data directory, with the pipeline it ran.
    expect(run.workspace).toBe(join(runRoot(), id));
    expect(readFileSync(join(workspaceOf(run), "workflow.oxoflow"), "utf8")).toBe(TWO_STEPS);
    expect(run.log_tail.join("\n")).toMatch(/Done: 2 succeeded/);

    const status = expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } }));
    expect(status.status).toBe("completed");
    expect(status.nodes).toEqual([
      expect.objectContaining({ rule: "make", status: "completed", jobs: { total: 1, completed: 1, failed: 0, running: 0, skipped: 0 } }),
      expect.objectContaining({ rule: "copy", status: "completed", jobs: { total: 1, completed: 1, failed: 0, running: 0, skipped: 0 } }),
    ]);
    expect(status.timeline.map((entry) => entry.type)).toEqual(["run_started", "job_started", "job_completed", "job_started", "job_completed", "run_finished"]);
    expect(status.resources).toEqual({ cpu_pct: expect.any(Number), memory_mb: expect.any(Number), peak_memory_mb: expect.any(Number), disk_mb: expect.any(Number) });

    const dag = expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id } } }));
    expect(dag.nodes.map((node) => [node.id, node.status])).toEqual([
      ["make", "completed"],
      ["copy", "completed"],
    ]);
    expect(dag.edges).toEqual([{ from: "make", to: "copy", kind: "file" }]);
    expect(dag).toMatchObject({ completed: 2, failed: 0, running: 0, pending: 0, eta_ms: 0, critical_path: ["make", "copy"] });

    const results = expectData(await client.GET("/api/runs/{id}/results", { params: { path: { id } } }));
    expect(results.files).toEqual([
      { path: "make.txt", size_bytes: 5, rule: "make", modified_at: expect.any(String) },
      { path: "copy.txt", size_bytes: 5, rule: "copy", modified_at: expect.any(String) },
    ]);
    expect(results.total_size_bytes).toBe(10);
    expect(expectData(await client.GET("/api/runs/{id}/diagnostics", { params: { path: { id } } }))).toEqual({ failures: [], warnings: [], bottlenecks: expect.any(Array) });
  });

  it("pages logs per job and stream, and the engine's own log", async () => {
    const lines = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`);
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("chatty", [["talk", `for i in $(seq 1 25); do echo "line $i"; done; echo oops >&2; touch {output[0]}`]]) } })).id;
    await waitForRun(base, id);
    const pages: string[] = [];
    let offset = 0;
    for (let guard = 0; guard < 10; guard++) {
      const page = expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id }, query: { job: "talk", stream: "stdout", limit: 10, offset } } }));
      expect(page).toMatchObject({ job: "talk", stream: "stdout" });
      pages.push(...page.lines);
      offset = page.next_offset;
      if (page.eof) break;
    }
    expect(pages).toEqual(lines);
    expect(expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id }, query: { job: "talk" } } }))).toMatchObject({ stream: "stderr", lines: ["oops"], eof: true });
    const engine = expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id } } }));
    expect(engine.stream).toBe("engine");
    expect(engine.lines.join("\n")).toMatch(/Running: talk/);
    // A job the run does not have is 404, and a job name is never a path.
    const unknown = await client.GET("/api/runs/{id}/logs", { params: { path: { id }, query: { job: "../../../etc/passwd" } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.code).toBe("NOT_FOUND");
    expect((await client.GET("/api/runs/{id}/logs", { params: { path: { id }, query: { stream: "stdout" } } })).response.status).toBe(400);
  });

  it("runs a saved pipeline and records the revision it ran", async () => {
    const saved = expectData(await client.POST("/api/pipelines", { body: { toml_content: TWO_STEPS } }));
    const first = expectData(await client.POST("/api/runs", { body: { pipeline_id: saved.id } }));
    expect(first).toMatchObject({ pipeline_id: saved.id, pipeline_revision: 1, workflow_name: "two-steps" });
    await client.PUT("/api/pipelines/{id}", { params: { path: { id: saved.id } }, body: { toml_content: TWO_STEPS.replace("made", "made again") } });
    await waitForRun(base, first.id);
    const second = expectData(await client.POST("/api/runs", { body: { pipeline_id: saved.id } }));
    expect(second.pipeline_revision).toBe(2);
    // Runs of one pipeline share its workspace (pipeline-reruns.test.ts shows what that means for re-runs).
    expect(second.workspace).toBe(first.workspace);
    const done = await waitForRun(base, second.id);
    expect(readFileSync(join(workspaceOf(done), "make.txt"), "utf8")).toBe("made again\n");
    const missing = await client.POST("/api/runs", { body: { pipeline_id: "00000000-0000-4000-8000-000000000000" } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
  });

  it("refuses a pipeline with errors before anything starts, with the findings", async () => {
    const runCount = async () => expectData(await client.GET("/api/runs", { params: { query: { limit: 1 } } })).total;
    const refusalCode = async (body: components["schemas"]["CreateRun"]) => (await client.POST("/api/runs", { body })).error?.code;
    const before = await runCount();
    const workspacesBefore = existsSync(runRoot()) ? readdirSync(runRoot()).length : 0;
    const invalid = await client.POST("/api/runs", { body: { toml_content: '[workflow]\nname = "bad"\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "true"\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "true"\n' } });
    expect(invalid.response.status).toBe(400);
    // A 400 of POST /api/runs is a RunRefusal (the other failures are Error bodies, which it includes).
    const refusal: components["schemas"]["RunRefusal"] | undefined = invalid.error;
    expect(refusal?.code).toBe("VALIDATE_ERROR");
    expect(refusal?.findings?.length).toBeGreaterThan(0);
    expect(refusal?.findings?.[0]).toMatchObject({ severity: "error", code: expect.any(String), message: expect.any(String) });
    const broken = await client.POST("/api/runs", { body: { toml_content: "[workflow\nname = 1" } });
    expect(broken.response.status).toBe(400);
    expect(broken.error).toMatchObject({ code: "VALIDATE_ERROR", findings: [expect.objectContaining({ code: "PARSE_ERROR", line: 1 })] });
    // The document marks neither toml_content nor pipeline_id required (one of the two is): the typed client sends {}.
    expect(await refusalCode({})).toBe("MISSING_FIELD");
    expect(await refusalCode({ toml_content: TWO_STEPS, pipeline_id: "x" })).toBe("BAD_REQUEST");
    expect(await refusalCode({ toml_content: TWO_STEPS, samples: ["a,b"] })).toBe("BAD_REQUEST");
    expect(await refusalCode({ toml_content: TWO_STEPS, target: { type: "cloud_batch" } })).toBe("RUN_ERROR");
    expect(await refusalCode({ toml_content: TWO_STEPS, target: { type: "container" } })).toBe("RUN_ERROR");
    // A target type the document does not list: only a raw request can send it.
    expect((await call(base, "POST", "/api/runs", { toml_content: TWO_STEPS, target: { type: "mainframe" } })).body.code).toBe("BAD_REQUEST");
    expect(await runCount()).toBe(before);
    expect(existsSync(runRoot()) ? readdirSync(runRoot()).length : 0).toBe(workspacesBefore);
  });

  it("passes samples, targets, config overrides, jobs and keep_going to the engine", async () => {
    const pipeline = `[workflow]\nname = "options"\n[config]\nword = "plain"\n[[sample_groups]]\nname = "g"\nsamples = ["s1", "s2", "s3"]\n\n[[rules]]\nname = "per_sample"\noutput = ["out/{sample}.txt"]\nshell = "echo {config.word} > {output[0]}"\n\n[[rules]]\nname = "other"\noutput = ["other.txt"]\nshell = "echo other > {output[0]}"\n`;
    const created = expectData(await client.POST("/api/runs", { body: { toml_content: pipeline, samples: ["s1", "s3"], targets: ["per_sample"], config: { word: "fancy" }, jobs: 2, keep_going: true } }));
    const run = await waitForRun(base, created.id);
    expect(run).toMatchObject({ status: "completed" });
    expect(readFileSync(join(workspaceOf(run), "out", "s1.txt"), "utf8")).toBe("fancy\n");
    expect(existsSync(join(workspaceOf(run), "out", "s2.txt"))).toBe(false);
    expect(existsSync(join(workspaceOf(run), "other.txt"))).toBe(false);
    expect(run.counts.completed).toBe(2);
  });

  it("records a dry run's plan without running anything", async () => {
    const created = expectData(await client.POST("/api/runs", { body: { toml_content: TWO_STEPS, dry_run: true } }));
    const run = await waitForRun(base, created.id);
    expect(run).toMatchObject({ status: "completed", dry_run: true, counts: { total: 2, completed: 0 } });
    expect(existsSync(join(workspaceOf(run), "make.txt"))).toBe(false);
    expect(expectData(await client.GET("/api/runs/{id}/results", { params: { path: { id: created.id } } }))).toEqual({ files: [], total_size_bytes: 0, truncated: false, remote: null });
  });
});

describe("listing runs", () => {
  it("pages newest first with opaque cursors, a total, next_cursor null on the last page, and filters", async () => {
    const createListed = async () => expectData(await client.POST("/api/runs", { body: { toml_content: TWO_STEPS.replace("two-steps", "listed-run"), dry_run: true } })).id;
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push(await createListed());
    for (const id of ids) await waitForRun(base, id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: components["schemas"]["RunPage"] = expectData(await client.GET("/api/runs", { params: { query: { q: "listed-run", limit: 2, ...(cursor ? { cursor } : {}) } } }));
      // The total counts the runs there are now (one more after the first page).
      expect(page.total).toBe(pages === 0 ? 5 : 6);
      seen.push(...page.items.map((run) => run.id));
      cursor = page.next_cursor;
      pages++;
      // A run created between pages (newer) never shifts the pages being read.
      if (pages === 1) await createListed();
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    expect(expectData(await client.GET("/api/runs", { params: { query: { status: "completed", limit: 500 } } })).items.every((run) => run.status === "completed")).toBe(true);
    const bad = await client.GET("/api/runs", { params: { query: { cursor: "not-a-cursor" } } });
    expect(bad.response.status).toBe(400);
    expect((await client.GET("/api/runs", { params: { query: { limit: 501 } } })).response.status).toBe(400);
  });
});

describe("controlling a run", () => {
  const SLOW = chainPipeline("slow", [
    ["first", "sleep 30; touch {output[0]}"],
    ["second", "touch {output[0]}"],
  ]);
  const createRun = async (toml_content: string) => expectData(await client.POST("/api/runs", { body: { toml_content } })).id;
  const getRun = async (id: string) => expectData(await client.GET("/api/runs/{id}", { params: { path: { id } } }));
  const cancel = (id: string) => client.POST("/api/runs/{id}/cancel", { params: { path: { id } } });
  const pause = (id: string) => client.POST("/api/runs/{id}/pause", { params: { path: { id } } });
  const resume = (id: string) => client.POST("/api/runs/{id}/resume", { params: { path: { id } } });
  const retry = (id: string) => client.POST("/api/runs/{id}/retry", { params: { path: { id } } });
  const statusView = async (id: string) => expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } }));
  const diagnostics = async (id: string) => expectData(await client.GET("/api/runs/{id}/diagnostics", { params: { path: { id } } }));

  it("cancels a running run (the engine stops its job), answers 200 again, and refuses to cancel a finished one", async () => {
    const id = await createRun(SLOW);
    await waitForRun(base, id, (run) => run.counts.running === 1);
    const cancelled = await cancel(id);
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.data?.status).toBe("cancelled");
    await service.supervisor.whenFinished(id);
    const run = await getRun(id);
    expect(run).toMatchObject({ status: "cancelled", exit_code: 143, counts: { total: 2, completed: 0, running: 0 } });
    expect(run.finished_at).not.toBeNull();
    const again = await cancel(id);
    expect(again.response.status).toBe(200);
    expect(again.data?.status).toBe("cancelled");

    const done = await createRun(TWO_STEPS);
    await waitForRun(base, done);
    const refused = await cancel(done);
    expect(refused.response.status).toBe(400);
    expect(refused.error?.code).toBe("RUN_ERROR");
    expect(refused.error?.message).toMatch(/completed/);
  });

  it("cancels a run at once after creating it, whether or not its engine has started", async () => {
    const ids = [];
    for (let index = 0; index < 4; index++) {
      const id = await createRun(chainPipeline("hasty", [["wait", "sleep 30; touch {output[0]}"]]));
      expect((await cancel(id)).data?.status).toBe("cancelled");
      ids.push(id);
    }
    for (const id of ids) {
      const run = await waitForRun(base, id, (found) => found.finished_at !== null && service.supervisor.progress(id) === undefined, 30_000);
      expect(run).toMatchObject({ status: "cancelled", counts: { completed: 0, running: 0 } });
      expect(existsSync(join(workspaceOf(run), "wait.txt"))).toBe(false);
    }
    expect((await metricsOf(client)).active_runs).toBe(0);
  });

  it("pauses and resumes a running run, refuses the wrong order, and cancels a paused run", async () => {
    const pipeline = chainPipeline("pausable", [
      ["first", "sleep 3; touch {output[0]}"],
      ["second", "touch {output[0]}"],
    ]);
    const id = await createRun(pipeline);
    await waitForRun(base, id, (run) => run.counts.running === 1);
    const paused = await pause(id);
    expect(paused.response.status).toBe(200);
    expect(paused.data).toMatchObject({ status: "paused", actions: ["resume", "cancel"] });
    const twice = await pause(id);
    expect(twice.response.status).toBe(400);
    expect(twice.error?.code).toBe("RUN_ERROR");
    // While paused the running job is suspended and nothing new starts.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await getRun(id)).toMatchObject({ status: "paused", counts: { completed: 0, running: 1, pending: 1 } });
    const resumed = await resume(id);
    expect(resumed.response.status).toBe(200);
    expect(resumed.data).toMatchObject({ status: "running", actions: ["pause", "cancel"] });
    expect((await resume(id)).error?.code).toBe("RUN_ERROR");
    expect(await waitForRun(base, id)).toMatchObject({ status: "completed", counts: { completed: 2 }, actions: [] });

    const slow = await createRun(SLOW);
    await waitForRun(base, slow, (run) => run.counts.running === 1);
    expect((await pause(slow)).data?.status).toBe("paused");
    const cancelled = await cancel(slow);
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.data?.status).toBe("cancelled");
    await service.supervisor.whenFinished(slow);
    expect(await getRun(slow)).toMatchObject({ status: "cancelled", finished_at: expect.any(String) });
  });

  it("retries only what failed, in the parent's workspace, and refuses retries the state does not allow", async () => {
    const pipeline = chainPipeline("flaky", [
      ["good", "echo good > {output[0]}"],
      ["shaky", "test -f fixed || { echo 'not fixed yet' >&2; exit 3; }; echo ok > {output[0]}"],
      ["after", "cat {input[0]} > {output[0]}"],
    ]);
    const id = await createRun(pipeline);
    const failed = await waitForRun(base, id);
    expect(failed).toMatchObject({ status: "failed", exit_code: 1, counts: { total: 3, completed: 1, failed: 1, skipped: 1 }, actions: ["retry"] });
    expect(failed.error).toMatch(/1 job failed|shaky/);
    const diagnosis = await diagnostics(id);
    expect(diagnosis.failures).toEqual([expect.objectContaining({ rule: "shaky", job: "shaky", exit_code: 3, log_excerpt: expect.arrayContaining(["not fixed yet"]) })]);

    writeFileSync(join(workspaceOf(failed), "fixed"), "");
    const retryAnswer = await retry(id);
    expect(retryAnswer.response.status).toBe(201);
    expect(retryAnswer.data).toMatchObject({ retry_of: id, workspace: failed.workspace, workflow_name: "flaky" });
    const retryId = expectData(retryAnswer).id;
    const retried = await waitForRun(base, retryId);
    // The good job is not run again: the checkpoint carried over.
    expect(retried).toMatchObject({ status: "completed", counts: { total: 3, completed: 2, failed: 0, skipped: 1 } });
    const status = await statusView(retryId);
    expect(status.nodes.find((node) => node.rule === "good")?.status).toBe("skipped");
    // The parent's views still describe the parent.
    expect((await statusView(id)).nodes.find((node) => node.rule === "shaky")?.status).toBe("failed");

    const completedRetry = await retry(retryId);
    expect(completedRetry.response.status).toBe(400);
    expect(completedRetry.error?.code).toBe("RETRY_ERROR");
    const running = await createRun(SLOW);
    await waitForRun(base, running, (run) => run.status === "running");
    const busy = await retry(running);
    expect(busy.response.status).toBe(400);
    expect(busy.error).toMatchObject({ code: "RETRY_ERROR", message: expect.stringMatching(/running/) });
    await cancel(running);
    expect((await retry("no-such-run")).response.status).toBe(404);
  });

  it("retries a cancelled run by running what did not complete (what did is not run again)", async () => {
    const pipeline = chainPipeline("interrupted", [
      ["quick", "echo quick > {output[0]}"],
      ["slowish", "test -f go || sleep 30; echo slow > {output[0]}"],
      ["end", "cat {input[0]} > {output[0]}"],
    ]);
    const id = await createRun(pipeline);
    const running = await waitForRun(base, id, (run) => run.counts.running === 1 && run.counts.completed === 1);
    await cancel(id);
    writeFileSync(join(workspaceOf(running), "go"), "");
    // Right after the cancel, while the engine may still be stopping its job: the retry waits for it.
    const retried = expectData(await retry(id));
    expect(retried.retry_of).toBe(id);
    // The stopped job counts as skipped, not failed: nothing went wrong with it.
    expect(await getRun(id)).toMatchObject({ status: "cancelled", counts: { total: 3, completed: 1, failed: 0, skipped: 2 } });
    expect((await diagnostics(id)).failures).toEqual([]);
    const done = await waitForRun(base, retried.id);
    expect(done).toMatchObject({ status: "completed", retry_of: id, counts: { total: 3, completed: 2, skipped: 1, failed: 0 } });
    expect(readFileSync(join(workspaceOf(running), "end.txt"), "utf8")).toBe("slow\n");
  });

  it("diagnoses a completed run without failures, and names a job that used most of its declared memory", async () => {
    const pipeline = `[workflow]\nname = "hungry"\nversion = "1.0.0"\n\n[[rules]]\nname = "eat"\noutput = ["eat.txt"]\nshell = "python3 -c 'import time; x = bytearray(60 * 1024 * 1024); time.sleep(1)'; touch {output[0]}"\n[rules.resources]\nmemory = "70M"\n`;
    const id = await createRun(pipeline);
    expect(await waitForRun(base, id)).toMatchObject({ status: "completed" });
    const diagnosis = await diagnostics(id);
    expect(diagnosis.failures).toEqual([]);
    expect(diagnosis.bottlenecks).toEqual(expect.arrayContaining([expect.objectContaining({ job: "eat", rule: "eat", metric: "peak_memory_mb", limit: 70 })]));
  });

  it("shows active runs in /api/metrics and the engine in /api/health", async () => {
    const id = await createRun(chainPipeline("metered", [["wait", "sleep 2; touch {output[0]}"]]));
    await waitForRun(base, id, (run) => run.status === "running");
    const metrics = await metricsOf(client);
    expect(metrics.active_runs).toBeGreaterThanOrEqual(1);
    expect(metrics.queued_runs).toEqual(expect.any(Number));
    const health = expectData(await client.GET("/api/health"));
    expect(health.components.engine).toMatchObject({ status: "ok", version: expect.any(String) });
    await waitForRun(base, id);
    // The process tree was sampled into the run's metrics file while it ran.
    const samples = readFileSync(join(workspaceOf(await getRun(id)), ".strand", "runs", id, "metrics.jsonl"), "utf8").trim().split("\n");
    expect(samples.length).toBeGreaterThan(3);
    expect(JSON.parse(samples[0]!)).toMatchObject({ time: expect.any(String), cpu_pct: expect.any(Number), memory_mb: expect.any(Number), processes: expect.any(Number) });
    expect((await statusView(id)).resources.peak_memory_mb).toBeGreaterThan(0);
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

  const startRun = async (toml_content: string) => expectData(await client.POST("/api/runs", { body: { toml_content } })).id;

  it("publishes run transitions and job events with increasing ids, from the event log", async () => {
    const stream = collect((type) => ["run_completed", "run_failed", "run_cancelled"].includes(type));
    try {
      await waitForSubscriber();
      const ok = await startRun(TWO_STEPS);
      const okEvents = await stream.forRun(ok);
      expect(okEvents.map((event) => event.type)).toEqual(["run_queued", "run_started", "job_started", "job_completed", "job_started", "job_completed", "run_completed"]);
      expect(okEvents[2]!.data).toMatchObject({ run_id: ok, job: "make", rule: "make" });
      expect(okEvents[3]!.data).toMatchObject({ job: "make", exit_code: 0, duration_ms: expect.any(Number) });
      expect(okEvents.at(-1)!.data).toMatchObject({ status: "completed", exit_code: 0, counts: { total: 2, completed: 2 } });

      const failing = chainPipeline("failing", [
        ["boom", "echo bad >&2; exit 5"],
        ["never", "touch {output[0]}"],
      ]);
      const bad = await startRun(failing);
      const badEvents = await stream.forRun(bad);
      expect(badEvents.map((event) => event.type)).toEqual(["run_queued", "run_started", "job_started", "job_failed", "job_skipped", "run_failed"]);
      expect(badEvents[3]!.data).toMatchObject({ job: "boom", exit_code: 5 });
      expect(badEvents[4]!.data).toMatchObject({ job: "never", reason: expect.any(String) });

      const slow = await startRun(chainPipeline("watched", [["wait", "sleep 30; touch {output[0]}"]]));
      await waitForRun(base, slow, (run) => run.counts.running === 1);
      await client.POST("/api/runs/{id}/pause", { params: { path: { id: slow } } });
      await client.POST("/api/runs/{id}/resume", { params: { path: { id: slow } } });
      await client.POST("/api/runs/{id}/cancel", { params: { path: { id: slow } } });
      await stream.forRun(slow);
      await service.supervisor.whenFinished(slow);
      // The stopped job's event is read from the log as the run ends, and reaches the stream a moment after.
      let slowEvents = await stream.forRun(slow);
      for (let tries = 0; tries < 50 && !slowEvents.some((event) => event.type === "job_skipped"); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        slowEvents = await stream.forRun(slow);
      }
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
    if (((await metricsOf(client)).sse_subscribers ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the EventSource did not connect");
}

function runRoot(): string {
  return join(service.dataDir!, "users", "local", "runs");
}
