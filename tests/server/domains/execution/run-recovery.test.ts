/**
 * Runs survive the service: `strand serve` is killed with SIGKILL mid-run and started again on the same
 * data directory. An engine still running is re-attached (its run finishes with the right state and
 * counts, and can still be controlled); an engine that ended while the service was away is finished from
 * its event log; an engine that died without finishing its log ends the run as failed, saying so.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResultPromise } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../../../support/strand-cli.js";
import { serve, type Served } from "../../../support/strand-serve.js";
import { expectData } from "../../../../src/client/service-client.js";
import { chainPipeline, metricsOf, serviceClient, waitForRun, workspaceOf } from "../../../support/run-client.js";

assertBuilt();

const folders: string[] = [];
const services: ResultPromise[] = [];

afterAll(() => {
  for (const child of services) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Starts `strand serve` on a data directory. */
async function serveOn(dataDir: string): Promise<Served> {
  const served = await serve({ SERVICE_DATA_DIR: dataDir, SERVICE_CONFIG_DIR: join(dataDir, "config"), SERVICE_RATE_LIMIT: "0" });
  services.push(served.process);
  return served;
}

async function killHard(served: Served): Promise<void> {
  served.process.kill("SIGKILL");
  await served.process;
}

/** Creates a run of `toml_content` on the service at `base` and answers its id. */
async function createRun(base: string, toml_content: string): Promise<string> {
  return expectData(await serviceClient(base).POST("/api/runs", { body: { toml_content } })).id;
}

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "strand-recovery-"));
  folders.push(folder);
  return folder;
}

describe("runs across a service restart", () => {
  it("re-attaches to an engine still running after kill -9 of the service, and finishes its run with the right counts", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const pipeline = chainPipeline("survivor", [
      ["slow", "sleep 5; echo slow > {output[0]}"],
      ["fast", "cat {input[0]} > {output[0]}"],
      ["last", "cat {input[0]} > {output[0]}"],
    ]);
    const id = await createRun(first.url, pipeline);
    await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);

    const second = await serveOn(data);
    const client = serviceClient(second.url);
    // Re-attached: the run is still running (its engine never stopped), then ends as the engine says.
    expect(expectData(await client.GET("/api/runs/{id}", { params: { path: { id } } })).status).toBe("running");
    const run = await waitForRun(second.url, id);
    expect(run).toMatchObject({ status: "completed", exit_code: 0, error: null, counts: { total: 3, completed: 3, failed: 0, running: 0, skipped: 0, pending: 0 } });
    const status = expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } }));
    expect(status.nodes.map((node) => node.status)).toEqual(["completed", "completed", "completed"]);
    expect((await metricsOf(client)).active_runs).toBe(0);
    await killHard(second);
  });

  it("can still cancel a re-attached run", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const id = await createRun(first.url, chainPipeline("long", [["wait", "sleep 60; touch {output[0]}"]]));
    await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);
    const second = await serveOn(data);
    const client = serviceClient(second.url);
    await waitForRun(second.url, id, (run) => run.status === "running");
    expect((await client.POST("/api/runs/{id}/pause", { params: { path: { id } } })).data?.status).toBe("paused");
    expect((await client.POST("/api/runs/{id}/cancel", { params: { path: { id } } })).data?.status).toBe("cancelled");
    const run = await waitForRun(second.url, id, (found) => found.finished_at !== null, 30_000);
    expect(run).toMatchObject({ status: "cancelled", counts: { total: 1, running: 0, completed: 0 } });
    await killHard(second);
  });

  it("finishes a run whose engine ended while the service was down from its event log", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const pipeline = chainPipeline("while-away", [
      ["one", "sleep 1; echo one > {output[0]}"],
      ["two", "echo broken >&2; exit 4"],
    ]);
    const id = await createRun(first.url, pipeline);
    const running = await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);
    // The engine carries on alone and finishes (the second job fails) before the service is back.
    await waitForEngineExit(workspaceOf(running), id);

    const second = await serveOn(data);
    const run = await waitForRun(second.url, id, undefined, 10_000);
    expect(run).toMatchObject({ status: "failed", exit_code: 1, counts: { total: 2, completed: 1, failed: 1, running: 0, pending: 0 } });
    const diagnosis = expectData(await serviceClient(second.url).GET("/api/runs/{id}/diagnostics", { params: { path: { id } } }));
    expect(diagnosis.failures).toEqual([expect.objectContaining({ job: "two", exit_code: 4 })]);
    await killHard(second);
  });

  it("fails a run whose engine died without finishing its event log, and says so", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const id = await createRun(first.url, chainPipeline("doomed", [["wait", "sleep 60; touch {output[0]}"]]));
    const running = await waitForRun(first.url, id, (run) => run.counts.running === 1 && run.status === "running");
    await killHard(first);
    // The engine and its job die too (an out-of-memory kill, a reboot), without writing their last event.
    const started = readFileSync(join(workspaceOf(running), ".strand", "runs", id, "events.jsonl"), "utf8").split("\n")[0]!;
    killTree((JSON.parse(started) as { pid: number }).pid);
    const second = await serveOn(data);
    const run = await waitForRun(second.url, id, undefined, 10_000);
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/engine stopped without finishing its event log/);
    await killHard(second);
  });
});

/** Waits until the run's engine has written its last event. */
async function waitForEngineExit(workspace: string, id: string): Promise<void> {
  const events = join(workspace, ".strand", "runs", id, "events.jsonl");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if (readFileSync(events, "utf8").includes('"type":"run_finished"')) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return;
      }
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the engine did not finish in 20 s");
}

/** SIGKILLs a process and everything below it (the engine's jobs run in groups of their own). */
function killTree(pid: number): void {
  const all: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    all.push(current);
    try {
      const children = readFileSync(`/proc/${current}/task/${current}/children`, "utf8").trim();
      if (children) stack.push(...children.split(" ").map(Number));
    } catch {
      // gone
    }
  }
  for (const member of all) {
    try {
      process.kill(member, "SIGKILL");
    } catch {
      // gone
    }
  }
}
