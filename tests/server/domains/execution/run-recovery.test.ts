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
import { call, chainPipeline, waitForRun } from "../../../support/run-client.js";

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
    const id = (await call(first.url, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);

    const second = await serveOn(data);
    // Re-attached: the run is still running (its engine never stopped), then ends as the engine says.
    expect((await call(second.url, "GET", `/api/runs/${id}`)).body.status).toBe("running");
    const run = await waitForRun(second.url, id);
    expect(run).toMatchObject({ status: "completed", exit_code: 0, error: null, counts: { total: 3, completed: 3, failed: 0, running: 0, skipped: 0, pending: 0 } });
    const status = (await call(second.url, "GET", `/api/runs/${id}/status`)).body;
    expect(status.nodes.map((node: { status: string }) => node.status)).toEqual(["completed", "completed", "completed"]);
    expect((await call(second.url, "GET", "/api/metrics")).body.active_runs).toBe(0);
    await killHard(second);
  });

  it("can still cancel a re-attached run", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const id = (await call(first.url, "POST", "/api/runs", { toml_content: chainPipeline("long", [["wait", "sleep 60; touch {output[0]}"]]) })).body.id;
    await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);
    const second = await serveOn(data);
    await waitForRun(second.url, id, (run) => run.status === "running");
    expect((await call(second.url, "POST", `/api/runs/${id}/pause`)).body.status).toBe("paused");
    expect((await call(second.url, "POST", `/api/runs/${id}/cancel`)).body.status).toBe("cancelled");
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
    const id = (await call(first.url, "POST", "/api/runs", { toml_content: pipeline })).body.id;
    const running = await waitForRun(first.url, id, (run) => run.counts.running === 1);
    await killHard(first);
    // The engine carries on alone and finishes (the second job fails) before the service is back.
    await waitForEngineExit(running.workspace, id);

    const second = await serveOn(data);
    const run = await waitForRun(second.url, id, undefined, 10_000);
    expect(run).toMatchObject({ status: "failed", exit_code: 1, counts: { total: 2, completed: 1, failed: 1, running: 0, pending: 0 } });
    const diagnosis = (await call(second.url, "GET", `/api/runs/${id}/diagnostics`)).body;
    expect(diagnosis.failures).toEqual([expect.objectContaining({ job: "two", exit_code: 4 })]);
    await killHard(second);
  });

  it("fails a run whose engine died without finishing its event log, and says so", async () => {
    const data = dataFolder();
    const first = await serveOn(data);
    const id = (await call(first.url, "POST", "/api/runs", { toml_content: chainPipeline("doomed", [["wait", "sleep 60; touch {output[0]}"]]) })).body.id;
    const running = await waitForRun(first.url, id, (run) => run.counts.running === 1 && run.status === "running");
    await killHard(first);
    // The engine and its job die too (an out-of-memory kill, a reboot), without writing their last event.
    const started = readFileSync(join(running.workspace, ".strand", "runs", id, "events.jsonl"), "utf8").split("\n")[0]!;
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
