/**
 * Re-runs of saved pipelines through the real service and real engines: runs of one pipeline by one owner
 * share a workspace, so an unchanged pipeline skips every job with the engine's reason and a changed config
 * value re-runs only the jobs that use it and their downstream; each run's own logs, events and status stay
 * as they were; a second run while one works is 409 CONFLICT; `fresh: true` starts in an empty workspace;
 * a dry run's plan is readable from status, dag-status and the log; deleting the pipeline keeps its runs'
 * files readable.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { expectData, type ServiceClient } from "../../../../src/client/service-client.js";
import { closeAfterRuns, serviceClient, waitForRun, workspaceOf } from "../../../support/run-client.js";
import { idFolderName, pipelineWorkspace } from "../../../../src/server/domains/execution/run-workspaces.js";

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

/** greet uses a config value; other does not; combine needs both. */
const GREETINGS = (greeting: string) => `[workflow]
name = "greetings"
version = "1.0.0"

[config]
greeting = "${greeting}"

[[rules]]
name = "greet"
output = ["greet.txt"]
shell = "echo said {config.greeting}; echo {config.greeting} > {output[0]}"

[[rules]]
name = "other"
output = ["other.txt"]
shell = "echo independent > {output[0]}"

[[rules]]
name = "combine"
input = ["greet.txt", "other.txt"]
output = ["combined.txt"]
shell = "cat {input} > {output[0]}"
`;

const statusOf = async (id: string) => expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } }));
const dagStatusOf = async (id: string) => expectData(await client.GET("/api/runs/{id}/dag-status", { params: { path: { id } } }));
const engineLog = async (id: string) => expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id } } })).lines;
const jobStdout = async (id: string, job: string) => expectData(await client.GET("/api/runs/{id}/logs", { params: { path: { id }, query: { job, stream: "stdout" } } })).lines;
const startRun = async (body: { pipeline_id: string; fresh?: boolean; dry_run?: boolean; config?: Record<string, string> }) => expectData(await client.POST("/api/runs", { body })).id;
/** Each job's state and reason code, by job name. */
const verdicts = (jobs: { job: string; status: string; reason: { code: string } | null }[]) => Object.fromEntries(jobs.map((job) => [job.job, `${job.status} ${job.reason?.code ?? "(none)"}`]));

describe("re-runs of a saved pipeline", () => {
  it("shares one workspace per pipeline and owner: a re-run skips what is up to date, a config change re-runs what uses it, earlier runs stay as they were", async () => {
    const saved = expectData(await client.POST("/api/pipelines", { body: { toml_content: GREETINGS("hello") } }));

    const first = await waitForRun(base, await startRun({ pipeline_id: saved.id }));
    expect(first).toMatchObject({ status: "completed", counts: { total: 3, completed: 3, skipped: 0 } });
    expect(first.workspace).toBe(join(service.dataDir!, "users", "local", "pipelines", saved.id));
    expect(verdicts((await statusOf(first.id)).jobs)).toEqual({ greet: "completed never-completed", other: "completed never-completed", combine: "completed never-completed" });
    const firstStatus = await statusOf(first.id);
    const firstLog = await engineLog(first.id);
    expect(await jobStdout(first.id, "greet")).toEqual(["said hello"]);

    // Unchanged: every job skipped, each with the engine's reason.
    const second = await waitForRun(base, await startRun({ pipeline_id: saved.id }));
    expect(second).toMatchObject({ status: "completed", workspace: first.workspace, counts: { total: 3, completed: 0, skipped: 3 } });
    const secondStatus = await statusOf(second.id);
    expect(secondStatus.jobs).toEqual([
      { job: "greet", rule: "greet", status: "skipped", reason: { code: "up-to-date", text: "outputs up to date" } },
      { job: "other", rule: "other", status: "skipped", reason: { code: "up-to-date", text: "outputs up to date" } },
      { job: "combine", rule: "combine", status: "skipped", reason: { code: "up-to-date", text: "outputs up to date" } },
    ]);
    expect(secondStatus.nodes.map((node) => [node.rule, node.status])).toEqual([
      ["greet", "skipped"],
      ["other", "skipped"],
      ["combine", "skipped"],
    ]);
    expect(secondStatus.timeline.filter((entry) => entry.type === "job_skipped").map((entry) => entry.message)).toEqual(Array(3).fill("skipped: outputs up to date"));

    // One config value changed: the job that uses it and its downstream run, the other is skipped.
    const updated = await client.PUT("/api/pipelines/{id}", { params: { path: { id: saved.id } }, body: { toml_content: GREETINGS("bonjour") } });
    expect(updated.response.status).toBe(200);
    const third = await waitForRun(base, await startRun({ pipeline_id: saved.id }));
    expect(third).toMatchObject({ status: "completed", workspace: first.workspace, pipeline_revision: 2, counts: { total: 3, completed: 2, skipped: 1 } });
    const thirdStatus = await statusOf(third.id);
    expect(verdicts(thirdStatus.jobs)).toEqual({ greet: "completed config-changed", other: "skipped up-to-date", combine: "completed downstream" });
    expect(thirdStatus.jobs.find((job) => job.job === "greet")?.reason?.text).toBe("config key changed: greeting");
    expect(verdicts((await dagStatusOf(third.id)).jobs)).toEqual(verdicts(thirdStatus.jobs));
    expect(readFileSync(join(workspaceOf(third), "combined.txt"), "utf8")).toBe("bonjour\nindependent\n");

    // The first run's views read its own files: nothing of it was overwritten by the later runs.
    expect(await statusOf(first.id)).toEqual({ ...firstStatus, resources: expect.any(Object) });
    expect(await engineLog(first.id)).toEqual(firstLog);
    expect(await jobStdout(first.id, "greet")).toEqual(["said hello"]);
    expect(await jobStdout(third.id, "greet")).toEqual(["said bonjour"]);
    expect(readFileSync(join(workspaceOf(first), ".strand", "runs", first.id, "workflow.oxoflow"), "utf8")).toBe(GREETINGS("hello"));
    expect(readFileSync(join(workspaceOf(third), ".strand", "runs", third.id, "workflow.oxoflow"), "utf8")).toBe(GREETINGS("bonjour"));
    const firstDag = await dagStatusOf(first.id);
    expect(firstDag.nodes.map((node) => [node.id, node.status])).toEqual([
      ["greet", "completed"],
      ["other", "completed"],
      ["combine", "completed"],
    ]);

    // fresh: true starts in an empty workspace of its own and runs everything.
    const fresh = await waitForRun(base, await startRun({ pipeline_id: saved.id, fresh: true }));
    expect(fresh).toMatchObject({ status: "completed", counts: { total: 3, completed: 3, skipped: 0 } });
    expect(fresh.workspace).toBe(join(service.dataDir!, "users", "local", "runs", fresh.id));
    expect(verdicts((await statusOf(fresh.id)).jobs)).toEqual({ greet: "completed never-completed", other: "completed never-completed", combine: "completed never-completed" });

    // A dry run plans against the shared workspace: every job would_run or would_skip with its reason,
    // in the status view, the DAG status view and the log; nothing runs.
    const dry = await waitForRun(base, await startRun({ pipeline_id: saved.id, dry_run: true, config: { greeting: "hola" } }));
    expect(dry).toMatchObject({ status: "completed", dry_run: true, workspace: first.workspace, counts: { total: 3, completed: 0 } });
    const dryStatus = await statusOf(dry.id);
    expect(dryStatus.jobs).toEqual([
      { job: "greet", rule: "greet", status: "would_run", reason: { code: "config-changed", text: "config key changed: greeting" } },
      { job: "other", rule: "other", status: "would_skip", reason: { code: "up-to-date", text: "outputs up to date" } },
      { job: "combine", rule: "combine", status: "would_run", reason: { code: "downstream", text: "downstream of greet" } },
    ]);
    expect(dryStatus.nodes.map((node) => [node.rule, node.status, node.jobs.total])).toEqual([
      ["greet", "would_run", 1],
      ["other", "would_skip", 1],
      ["combine", "would_run", 1],
    ]);
    const dryDag = await dagStatusOf(dry.id);
    expect(dryDag.nodes.map((node) => [node.id, node.status])).toEqual([
      ["greet", "would_run"],
      ["other", "would_skip"],
      ["combine", "would_run"],
    ]);
    expect(dryDag.jobs).toEqual(dryStatus.jobs);
    const dryLog = (await engineLog(dry.id)).join("\n");
    expect(dryLog).toContain("Dry run of greetings: 3 jobs; 2 would run, 1 would be skipped");
    expect(dryLog).toContain("1. greet  [would run: config-changed: config key changed: greeting]");
    expect(dryLog).toContain("2. other  [would skip: up-to-date: outputs up to date]");
    expect(dryLog).toContain("3. combine  [would run: downstream: downstream of greet]");
    expect((await waitForRun(base, dry.id)).log_tail.join("\n")).toContain("would run: config-changed");
    expect(readFileSync(join(workspaceOf(third), "greet.txt"), "utf8")).toBe("bonjour\n");

    // Deleting the pipeline keeps its workspace, so its runs stay readable.
    expect((await client.DELETE("/api/pipelines/{id}", { params: { path: { id: saved.id } } })).response.status).toBe(200);
    expect(await engineLog(first.id)).toEqual(firstLog);
    expect(await jobStdout(third.id, "greet")).toEqual(["said bonjour"]);
  });

  it("refuses a second run while one works in the pipeline's workspace (409 naming it); fresh: true runs beside it", async () => {
    const gated = `[workflow]\nname = "gated"\nversion = "1.0.0"\n\n[[rules]]\nname = "wait"\noutput = ["wait.txt"]\nshell = "while [ ! -e go ]; do sleep 0.05; done; echo done > {output[0]}"\n`;
    const saved = expectData(await client.POST("/api/pipelines", { body: { toml_content: gated } }));
    // Two requests at once: one run starts, the other is refused.
    const both = await Promise.all([client.POST("/api/runs", { body: { pipeline_id: saved.id } }), client.POST("/api/runs", { body: { pipeline_id: saved.id } })]);
    expect(both.map((answer) => answer.response.status).sort()).toEqual([201, 409]);
    const running = both.find((answer) => answer.response.status === 201)!.data!.id;
    expect(both.find((answer) => answer.response.status === 409)!.error).toMatchObject({ code: "CONFLICT", running_run: running });
    await waitForRun(base, running, (run) => run.counts.running === 1);

    const refused = await client.POST("/api/runs", { body: { pipeline_id: saved.id } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: "CONFLICT", running_run: running });
    expect(refused.error?.message).toContain(`run ${running}`);
    expect(refused.error?.suggestion).toMatch(/wait .*cancel .*"fresh": true/);
    // A dry run of the pipeline takes its turn too.
    expect((await client.POST("/api/runs", { body: { pipeline_id: saved.id, dry_run: true } })).response.status).toBe(409);

    const fresh = await startRun({ pipeline_id: saved.id, fresh: true });
    const freshRun = await waitForRun(base, fresh, (run) => run.counts.running === 1);
    expect(freshRun.workspace).toBe(join(service.dataDir!, "users", "local", "runs", fresh));
    writeFileSync(join(freshRun.workspace!, "go"), "");
    expect(await waitForRun(base, fresh)).toMatchObject({ status: "completed", counts: { completed: 1 } });

    const shared = pipelineWorkspace(service.dataDir!, "local", saved.id);
    writeFileSync(join(shared, "go"), "");
    expect(await waitForRun(base, running)).toMatchObject({ status: "completed", counts: { completed: 1 } });
    // Its turn now: up to date.
    const after = await waitForRun(base, await startRun({ pipeline_id: saved.id }));
    expect(after).toMatchObject({ status: "completed", workspace: shared, counts: { completed: 0, skipped: 1 } });

    // Cancelled, then started again at once: the new run waits for the cancelled one to stop (no 409).
    rmSync(join(shared, "go"));
    rmSync(join(shared, "wait.txt"));
    const cancelled = await startRun({ pipeline_id: saved.id });
    await waitForRun(base, cancelled, (run) => run.counts.running === 1);
    expect(expectData(await client.POST("/api/runs/{id}/cancel", { params: { path: { id: cancelled } } })).status).toBe("cancelled");
    const again = await client.POST("/api/runs", { body: { pipeline_id: saved.id } });
    expect(again.response.status).toBe(201);
    expect(service.supervisor.progress(cancelled)).toBeUndefined();
    await waitForRun(base, expectData(again).id, (run) => run.counts.running === 1);
    writeFileSync(join(shared, "go"), "");
    expect(await waitForRun(base, expectData(again).id)).toMatchObject({ status: "completed", counts: { completed: 1 } });
    expect(await waitForRun(base, cancelled)).toMatchObject({ status: "cancelled" });
    expect(existsSync(join(shared, ".strand", "lock"))).toBe(false);
  });

  it("names folders by plain ids as they are and by digest otherwise", () => {
    expect(idFolderName("local")).toBe("local");
    expect(idFolderName("0f8e1c2a-9b7d-4e6f-8a5b-3c2d1e0f9a8b")).toBe("0f8e1c2a-9b7d-4e6f-8a5b-3c2d1e0f9a8b");
    for (const id of ["../etc", "Alice", "a/b", ".hidden", "user@example.org", "x".repeat(65)]) expect(idFolderName(id)).toMatch(/^_[0-9a-f]{32}$/);
    expect(idFolderName("Alice")).not.toBe(idFolderName("alice"));
  });
});
