/**
 * `strand run` and `strand status` as a user runs them: the real binary, real jobs, real signals.
 * Cancelling (SIGTERM/SIGINT), pausing (SIGUSR1) and resuming (SIGUSR2) are checked on the job processes
 * themselves, and every transition in the event log.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { execa, type ResultPromise } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { readEventLog, type RunEvent } from "../../src/engine/run/event-log.js";
import { parseData, parseEnvelope, runStrand, STRAND_BIN, strandEnv, tempFolder, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function workspace(pipeline: string): TempFolder {
  const folder = tempFolder({ "main.oxoflow": pipeline });
  folders.push(folder);
  return folder;
}

const HEADER = `[workflow]\nname = "cli-run"\nversion = "1.0"\n`;

/** A pipeline whose first job records its pid and its child's, then sleeps. */
const SLEEPER = `${HEADER}
[[rules]]
name = "long"
output = ["long.txt"]
shell = """
echo $$ > long.pid
sleep 30 &
echo $! > child.pid
wait
echo done > long.txt
"""

[[rules]]
name = "after"
input = ["long.txt"]
output = ["after.txt"]
shell = "cp long.txt after.txt"
`;

function startStrand(args: string[], cwd: string): ResultPromise<{ reject: false }> {
  return execa(process.execPath, [STRAND_BIN, ...args], { cwd, env: strandEnv(), extendEnv: true, reject: false, stdin: "ignore" }) as ResultPromise<{ reject: false }>;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // a zombie counts as gone
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
}

function processState(pid: number): string {
  return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0]!;
}

function latestEvents(dir: string): RunEvent[] {
  const runId = readFileSync(join(dir, ".strand", "runs", "latest"), "utf8").trim();
  return readEventLog(join(dir, ".strand", "runs", runId, "events.jsonl"));
}

/** The pid a job wrote to a file, or 0 while the file is missing or not yet written (it is created empty first). */
function readPid(folder: TempFolder, name: string): number {
  try {
    const pid = Number(readFileSync(folder.path(name), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return 0;
  }
}

/** Waits until a job has written its pid to a file, and returns it. */
async function waitForPid(folder: TempFolder, name: string, what: string): Promise<number> {
  await waitFor(() => readPid(folder, name) > 0, what);
  return readPid(folder, name);
}

describe("strand run on the command line", () => {
  it("prints plain progress lines when not on a terminal, a summary, and exits 0", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "hello"
output = ["hello.txt"]
shell = "echo hello > hello.txt"
`);
    const result = await runStrand(["run"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("  Running: hello");
    expect(result.stderr).toMatch(/ {2}✓ hello \(\d+\.\ds\)/);
    expect(result.stderr).toMatch(/Done: 1 succeeded, 0 skipped, 0 failed/);
    expect(result.stdout).toBe("");
    expect(readFileSync(folder.path("hello.txt"), "utf8")).toBe("hello\n");
    const again = await runStrand(["run"], { cwd: folder.dir });
    expect(again.stderr).toContain("⊝ hello (outputs up to date)");
  });

  it("draws a live progress bar on a terminal", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "slow"
output = ["slow.txt"]
shell = "sleep 1.2; touch slow.txt"
`);
    // script(1) gives the command a pseudo-terminal, as an interactive shell would.
    const result = await execa("script", ["-qfec", `${process.execPath} ${STRAND_BIN} run`, "/dev/null"], { cwd: folder.dir, env: strandEnv(), extendEnv: true, reject: false });
    expect(result.exitCode).toBe(0);
    const output = String(result.stdout);
    expect(output).toContain("\r\u001b[2K");
    expect(output).toMatch(/[█░]{30} 0\/1 · 1 running/);
    expect(output).toContain("✓ slow (");
    expect(output).not.toContain("Running: slow");
  });

  it("--json prints exactly one summary object on stdout; a failure exits 1", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "bad"
output = ["bad.txt"]
shell = "echo broken >&2; exit 3"
`);
    const result = await runStrand(["run", "--json"], { cwd: folder.dir });
    expect(result.exitCode).toBe(1);
    const summary = parseEnvelope(result);
    expect(summary).toMatchObject({ ok: false, command: "run", data: { status: "failed", results: { succeeded: 0, failed: 1 } } });
    expect(result.stderr).toContain("✗ job 'bad' failed: exit code 3: broken");
    expect(result.stderr).toContain("--retry-failed");
  });

  it("--events FILE and --run-id ID choose where the event log goes and the run's id", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "one"
output = ["one.txt"]
shell = "touch one.txt"
`);
    const events = folder.path("elsewhere", "log.jsonl");
    const result = await runStrand(["run", "--events", events, "--run-id", "my-run-1"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    const records = readEventLog(events);
    expect(records.every((event) => event.run_id === "my-run-1")).toBe(true);
    expect(records.map((event) => event.type)).toEqual(["run_started", "job_queued", "job_started", "job_completed", "run_finished"]);
    expect(records.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(existsSync(folder.path(".strand", "runs", "my-run-1", "jobs", "one", "stderr.log"))).toBe(true);
    const bad = await runStrand(["run", "--run-id", "../escape"], { cwd: folder.dir });
    expect(bad.exitCode).toBe(2);
  });

  it("refuses a second run on the same workdir while the first holds the lock, and takes over a stale lock", async () => {
    const folder = workspace(SLEEPER);
    const first = startStrand(["run"], folder.dir);
    await waitForPid(folder, "child.pid", "the first run's job to start");
    const second = await runStrand(["run"], { cwd: folder.dir });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain("workdir is locked by another strand process");
    expect(second.stderr).toContain(String(first.pid));
    first.kill("SIGTERM");
    expect((await first).exitCode).toBe(143);

    // A lock whose owner is gone (a killed engine) is taken over.
    mkdirSync(folder.path(".strand"), { recursive: true });
    writeFileSync(folder.path(".strand", "lock"), JSON.stringify({ pid: 999_999_999, host: (await import("node:os")).hostname(), started_at: "", purpose: "strand run old" }));
    writeFileSync(folder.path("main.oxoflow"), `${HEADER}\n[[rules]]\nname = "quick"\noutput = ["q.txt"]\nshell = "touch q.txt"\n`);
    const third = await runStrand(["run"], { cwd: folder.dir });
    expect(third.exitCode).toBe(0);
    expect(existsSync(folder.path(".strand", "lock"))).toBe(false);
  });

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal} cancels: the job's whole process group is terminated, the run is recorded as cancelled, exit ${code}`, async () => {
      const folder = workspace(SLEEPER);
      const run = startStrand(["run"], folder.dir);
      const childPid = await waitForPid(folder, "child.pid", "the job to start");
      const jobPid = await waitForPid(folder, "long.pid", "the job's pid");
      expect(pidAlive(childPid)).toBe(true);
      run.kill(signal);
      const result = await run;
      expect(result.exitCode).toBe(code);
      await waitFor(() => !pidAlive(jobPid) && !pidAlive(childPid), "the job's processes to end", 10_000);
      const events = latestEvents(folder.dir);
      const types = events.map((event) => event.type);
      expect(types).toContain("run_cancelling");
      expect(events.find((event) => event.type === "run_cancelling")?.reason).toBe(`received ${signal}`);
      expect(events.find((event) => event.type === "job_failed")).toMatchObject({ job: "long", cancelled: true });
      expect(events.find((event) => event.type === "job_skipped" && event.job === "after")?.reason).toMatchObject({ code: "cancelled" });
      expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "cancelled" });
      expect(existsSync(folder.path(".strand", "lock"))).toBe(false);
      expect(String(result.stderr)).toContain("Cancelled:");
    });
  }

  it("SIGUSR1 pauses (jobs stopped, nothing new starts) and SIGUSR2 resumes", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "first"
output = ["first.txt"]
shell = """
echo $$ > first.pid
sleep 1.5
echo ok > first.txt
"""

[[rules]]
name = "second"
input = ["first.txt"]
output = ["second.txt"]
shell = "cp first.txt second.txt"
`);
    const run = startStrand(["run"], folder.dir);
    const jobPid = await waitForPid(folder, "first.pid", "the first job to start");
    run.kill("SIGUSR1");
    await waitFor(() => processState(jobPid) === "T", "the job to be stopped");
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // Stopped for longer than the job's own sleep: it cannot have finished, and nothing new started.
    expect(existsSync(folder.path("first.txt"))).toBe(false);
    expect(processState(jobPid)).toBe("T");
    expect(latestEvents(folder.dir).map((event) => event.type)).toContain("run_paused");
    run.kill("SIGUSR2");
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(readFileSync(folder.path("second.txt"), "utf8")).toBe("ok\n");
    const types = latestEvents(folder.dir).map((event) => event.type);
    expect(types.indexOf("run_paused")).toBeLessThan(types.indexOf("run_resumed"));
    expect(types.at(-1)).toBe("run_finished");
  });

  it("a paused run can be cancelled", async () => {
    const folder = workspace(SLEEPER);
    const run = startStrand(["run"], folder.dir);
    const childPid = await waitForPid(folder, "child.pid", "the job to start");
    run.kill("SIGUSR1");
    await waitFor(() => processState(childPid) === "T", "the job to be stopped");
    run.kill("SIGTERM");
    expect((await run).exitCode).toBe(143);
    await waitFor(() => !pidAlive(childPid), "the stopped job to be killed", 10_000);
    expect(latestEvents(folder.dir).at(-1)).toMatchObject({ type: "run_finished", status: "cancelled" });
  });
});

describe("strand run: checkpoint, environments and webhooks from the command line", () => {
  it("--retry-failed re-runs the failed job and what depends on it, nothing else", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "a"
output = ["a.txt"]
shell = "echo a > a.txt"

[[rules]]
name = "b"
input = ["a.txt"]
output = ["b.txt"]
shell = "test -e fixed.flag || { echo 'not fixed yet' >&2; exit 1; }; cp a.txt b.txt"

[[rules]]
name = "c"
input = ["b.txt"]
output = ["c.txt"]
shell = "cp b.txt c.txt"

[[rules]]
name = "d"
output = ["d.txt"]
shell = "echo d > d.txt"
`);
    const first = await runStrand(["run", "-k"], { cwd: folder.dir });
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain("⊘ c (blocked by failed dependency b)");
    writeFileSync(folder.path("fixed.flag"), "");
    const retry = await runStrand(["run", "--retry-failed"], { cwd: folder.dir });
    expect(retry.exitCode, retry.stderr).toBe(0);
    const events = latestEvents(folder.dir);
    expect(events.filter((event) => event.type === "job_started").map((event) => event.job)).toEqual(["b", "c"]);
    expect(events.find((event) => event.type === "job_queued" && event.job === "b")?.reason).toMatchObject({ code: "failed-before" });
    expect(events.find((event) => event.type === "job_queued" && event.job === "c")?.reason).toMatchObject({ code: "downstream" });
    expect(readFileSync(folder.path("c.txt"), "utf8")).toBe("a\n");
  });

  it("--samples and -t run part of the pipeline", async () => {
    const folder = workspace(`${HEADER}
[[sample_groups]]
name = "g"
samples = ["S1", "S2", "S3"]

[[rules]]
name = "trim"
output = ["trim/{sample}.txt"]
shell = "echo {sample} > {output}"

[[rules]]
name = "count"
input = ["trim/{sample}.txt"]
output = ["count/{sample}.txt"]
shell = "wc -c < {input} > {output}"
`);
    const some = await runStrand(["run", "--samples", "S2"], { cwd: folder.dir });
    expect(some.exitCode, some.stderr).toBe(0);
    expect(readdirSync(folder.path("count"))).toEqual(["S2.txt"]);
    const targeted = await runStrand(["run", "-t", "trim_g_S3"], { cwd: folder.dir });
    expect(targeted.exitCode, targeted.stderr).toBe(0);
    expect(readdirSync(folder.path("trim")).sort()).toEqual(["S2.txt", "S3.txt"]);
    expect(readdirSync(folder.path("count"))).toEqual(["S2.txt"]);
  });

  it("sets a corrupt checkpoint aside with a warning and runs from the files", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "one"
output = ["one.txt"]
shell = "echo 1 > one.txt"
`);
    mkdirSync(folder.path(".strand"), { recursive: true });
    writeFileSync(folder.path(".strand", "checkpoint.json"), "{ this is not json");
    const result = await runStrand(["run"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/warning: .*checkpoint\.json is unreadable/);
    expect(readdirSync(folder.path(".strand")).some((name) => name.startsWith("checkpoint.json.corrupt-"))).toBe(true);
    expect(JSON.parse(readFileSync(folder.path(".strand", "checkpoint.json"), "utf8")).jobs.one.status).toBe("completed");
  });

  it("a missing environment backend fails the job with an install hint, not the engine", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "needs_conda"
output = ["x.txt"]
shell = "touch x.txt"
[rules.environment]
conda = "envs/tools.yml"
`);
    const result = await runStrand(["run", "--json"], { cwd: folder.dir, env: { PATH: "/usr/bin:/bin" } });
    expect(result.exitCode).toBe(1);
    expect(parseEnvelope(result)).toMatchObject({ ok: false, command: "run", data: { status: "failed", results: { failed: 1 } } });
    expect(result.stderr).toContain("conda is not installed");
    expect(result.stderr).toMatch(/[Mm]iniforge/);
  });

  it("sends signed workflow_started and workflow_completed webhooks where the pipeline says (loopback too; --webhook-targets=public refuses it); a failing endpoint never changes the run's status", async () => {
    const received: { body: Record<string, unknown>; signature: string | undefined; path: string }[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        received.push({ body: JSON.parse(body) as Record<string, unknown>, signature: request.headers["x-service-signature"] as string | undefined, path: request.url ?? "" });
        response.statusCode = request.url === "/broken" ? 500 : 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const folder = workspace(`${HEADER}
[[webhook]]
url = "http://127.0.0.1:${port}/hook"
events = ["workflow_started", "workflow_completed", "workflow_failed"]
secret = "s3cret"

[[webhook]]
url = "http://127.0.0.1:${port}/broken"
max_retries = 1

[[rules]]
name = "one"
output = ["one.txt"]
shell = "touch one.txt"
`);
      // Told public addresses only (what a service tells its runs), a webhook does not reach the loopback, and says why.
      const guarded = await runStrand(["run", "--webhook-targets=public"], { cwd: folder.dir });
      expect(guarded.exitCode).toBe(0);
      expect(received).toEqual([]);
      expect(guarded.stderr).toMatch(/warning: webhook #1: workflow_started not sent: the url's host is a loopback address; this run sends webhooks to public addresses only \(--webhook-targets=public/);
      expect(guarded.stderr).not.toContain(`127.0.0.1:${port}`);
      rmSync(join(folder.dir, "one.txt"));
      rmSync(join(folder.dir, ".strand"), { recursive: true, force: true });
      // A person's own run delivers where the pipeline says, loopback included, with no setting of a service.
      const result = await runStrand(["run"], { cwd: folder.dir, env: { SERVICE_WEBHOOK_ALLOW_PRIVATE: undefined } });
      expect(result.exitCode).toBe(0);
      const hooks = received.filter((entry) => entry.path === "/hook");
      expect(hooks.map((entry) => entry.body.event)).toEqual(["workflow_started", "workflow_completed"]);
      expect(hooks[1]!.body).toMatchObject({ workflow_name: "cli-run", data: { total_rules: 1, succeeded: 1, failed: 0 } });
      for (const entry of hooks) expect(entry.signature).toMatch(/^hmac-sha256=[0-9a-f]{64}$/);
      expect(received.filter((entry) => entry.path === "/broken")).toHaveLength(2);
      expect(result.stderr).toMatch(/warning: .*webhook #2/);
      expect(result.stderr).not.toContain(`127.0.0.1:${port}`);
      // A value the option does not know is a usage error naming both, before anything runs.
      const wrong = await runStrand(["run", "--webhook-targets=private"], { cwd: folder.dir });
      expect(wrong.exitCode).toBe(2);
      expect(wrong.stderr).toMatch(/--webhook-targets must be any or public, got 'private'/);
    } finally {
      server.close();
    }
  });
});

describe("strand status", () => {
  it("reports the last run, its failed jobs with their logs, and the checkpoint; --json for scripts", async () => {
    const folder = workspace(`${HEADER}
[[rules]]
name = "good"
output = ["good.txt"]
shell = "touch good.txt"

[[rules]]
name = "broken"
output = ["broken.txt"]
shell = "echo 'no such file' >&2; exit 2"
`);
    await runStrand(["run", "-k"], { cwd: folder.dir });
    const text = await runStrand(["status"], { cwd: folder.dir });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/run \S+: failed/);
    expect(text.stdout).toContain("✗ broken: exit code 2: no such file");
    expect(text.stdout).toContain("checkpoint: 1 completed, 1 failed");
    const json = parseData<{ completed: string[]; failed: string[]; run: { status: string; failed_jobs: { job: string; log: string }[] } }>(await runStrand(["status", "--json"], { cwd: folder.dir }));
    expect(json.completed).toEqual(["good"]);
    expect(json.failed).toEqual(["broken"]);
    expect(json.run.status).toBe("failed");
    expect(readFileSync(json.run.failed_jobs[0]!.log, "utf8")).toContain("no such file");
  });

  it("shows a run in progress as running, and one whose engine died as interrupted", async () => {
    const folder = workspace(SLEEPER);
    const run = startStrand(["run"], folder.dir);
    await waitForPid(folder, "child.pid", "the job to start");
    const during = parseData<{ run: { status: string; running_jobs: string[] } }>(await runStrand(["status", "--json"], { cwd: folder.dir }));
    expect(during.run.status).toBe("running");
    expect(during.run.running_jobs).toEqual(["long"]);
    run.kill("SIGKILL");
    await run;
    process.kill(-readPid(folder, "long.pid"), "SIGKILL");
    const after = parseData<{ run: { status: string } }>(await runStrand(["status", "--json"], { cwd: folder.dir }));
    expect(after.run.status).toBe("interrupted");
    expect(readdirSync(folder.path(".strand", "runs")).length).toBeGreaterThan(1);
  });
});
