/**
 * `strand run --executor sge` against a real one-node Grid Engine (scripts/gridengine-local.sh): a small
 * pipeline runs to the end with every job a real Grid Engine job, and cancelling the run (SIGTERM) qdels the
 * job still running, which real qstat then no longer lists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { jobFileName } from "../../src/engine/run/cluster/submission-records.js";
import { readEventLog, type RunEvent } from "../../src/engine/run/event-log.js";
import { ensureGridEngine, failWithoutGridEngineWhenStrict } from "../support/gridengine-cluster.js";
import { runStrand, STRAND_BIN, strandEnv, tempFolder, type TempFolder } from "../support/strand-cli.js";

const gridEngine = await ensureGridEngine();
failWithoutGridEngineWhenStrict(gridEngine);

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

const HEADER = `[workflow]\nname = "sge-run"\nversion = "1.0"\n`;

function latestEvents(dir: string): RunEvent[] {
  const runId = readFileSync(join(dir, ".strand", "runs", "latest"), "utf8").trim();
  return readEventLog(join(dir, ".strand", "runs", runId, "events.jsonl"));
}

/** The names the jobs of `started` had at the scheduler, from their job scripts. */
function jobNames(dir: string, started: RunEvent[]): string[] {
  const runId = readFileSync(join(dir, ".strand", "runs", "latest"), "utf8").trim();
  return started.map((event) => {
    const script = readFileSync(join(dir, ".strand", "runs", runId, "jobs", jobFileName(String(event.job)), "job.sh"), "utf8");
    return /^#\$ -N (.*)$/m.exec(script)?.[1] ?? "(none)";
  });
}

/** The ids of the jobs real qstat lists as queued, running or being deleted. */
async function qstatIds(): Promise<string[]> {
  const result = await execa("qstat", ["-s", "prs"], { reject: false });
  return String(result.stdout)
    .split("\n")
    .map((line) => line.trim().split(/\s+/)[0] ?? "")
    .filter((id) => /^\d+$/.test(id));
}

/** The job's exit status in the real accounting file ("" until qmaster has written the record). */
async function exitStatus(id: string): Promise<string> {
  const result = await execa("qacct", ["-j", id], { reject: false });
  return /^exit_status\s+(\d+)/m.exec(String(result.stdout))?.[1] ?? "";
}

describe.skipIf(!gridEngine)("strand run --executor sge (real Grid Engine)", () => {
  it("runs every job of a pipeline as a Grid Engine job, in dependency order, with logs and scheduler ids", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[sample_groups]]
name = "g"
samples = ["A", "B"]

[[rules]]
name = "make"
output = ["out/{sample}.txt"]
shell = "echo job $JOB_ID sample {sample} > {output}"

[[rules]]
name = "merge"
input = ["out/A.txt", "out/B.txt"]
output = ["merged.txt"]
shell = "cat {input} > {output}; echo merged >&2"
`,
    });
    folders.push(folder);
    const result = await runStrand(["run", "--executor", "sge", "-j", "4", "--poll-interval", "1s"], { cwd: folder.dir, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const merged = readFileSync(folder.path("merged.txt"), "utf8");
    expect(merged).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
    const events = latestEvents(folder.dir);
    expect(events[0]).toMatchObject({ type: "run_started", executor: "sge" });
    const startedJobs = events.filter((event) => event.type === "job_started");
    expect(startedJobs).toHaveLength(3);
    for (const event of startedJobs) expect(String(event.native_id)).toMatch(/^\d+$/);
    // Each job ran as the Grid Engine job strand says it submitted ($JOB_ID in its output), and qacct has it.
    const ids = startedJobs.filter((event) => String(event.job).startsWith("make_")).map((event) => String(event.native_id));
    expect(merged.split("\n").filter(Boolean).map((line) => line.split(" ")[1]).sort()).toEqual([...ids].sort());
    for (const event of startedJobs) expect(await exitStatus(String(event.native_id))).toBe("0");
    const merge = events.find((event) => event.type === "job_started" && event.job === "merge")!;
    const made = events.filter((event) => event.type === "job_completed" && String(event.job).startsWith("make_"));
    for (const event of made) expect(event.seq).toBeLessThan(merge.seq);
    expect(readFileSync(String(merge.stderr), "utf8")).toContain("merged");
    expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "completed", counts: { succeeded: 3 } });
    // Started by hand (no --run-id): named by rule and submission number, never by sample.
    expect(jobNames(folder.dir, startedJobs).sort()).toEqual(["make-1", "make-2", "merge-3"]);
  });

  it("fails the run with the job's exit code from Grid Engine's accounting", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[rules]]
name = "broken"
output = ["never.txt"]
shell = "echo going down >&2; exit 7"
`,
    });
    folders.push(folder);
    const result = await runStrand(["run", "--executor", "sge", "--poll-interval", "1s", "--run-id", "ge-cli-1"], { cwd: folder.dir, timeout: 120_000 });
    expect(result.exitCode).not.toBe(0);
    const events = latestEvents(folder.dir);
    const failed = events.find((event) => event.type === "job_failed");
    expect(failed).toMatchObject({ job: "broken", exit_code: 7 });
    expect(await exitStatus(String(failed!.native_id))).toBe("7");
    expect(readFileSync(String(failed!.stderr), "utf8")).toContain("going down");
    expect(jobNames(folder.dir, events.filter((event) => event.type === "job_started"))).toEqual(["strand-ge-cli-1-1"]);
    expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "failed" });
  });

  it("SIGTERM cancels the run and qdels the Grid Engine job that is still running", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[rules]]
name = "long"
output = ["long.txt"]
shell = "touch started.flag; sleep 120; touch long.txt"
`,
    });
    folders.push(folder);
    const run = execa(process.execPath, [STRAND_BIN, "run", "--executor", "sge", "--poll-interval", "1s"], { cwd: folder.dir, env: strandEnv(), extendEnv: true, reject: false, stdin: "ignore" });
    const deadline = Date.now() + 60_000;
    while (!existsSync(folder.path("started.flag"))) {
      if (Date.now() > deadline) throw new Error("the Grid Engine job never started");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const id = String(latestEvents(folder.dir).find((event) => event.type === "job_started")?.native_id);
    expect(await qstatIds()).toContain(id);
    run.kill("SIGTERM");
    const result = await run;
    expect(result.exitCode).toBe(143);
    const gone = Date.now() + 20_000;
    while ((await qstatIds()).includes(id) && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await qstatIds()).not.toContain(id);
    const events = latestEvents(folder.dir);
    expect(events.find((event) => event.type === "job_failed")).toMatchObject({ job: "long", cancelled: true, native_id: id });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "cancelled" });
    expect(existsSync(folder.path("long.txt"))).toBe(false);
  });
});
