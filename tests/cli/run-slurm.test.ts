/**
 * `strand run --executor slurm` against a real one-node SLURM cluster: a small pipeline runs to the end with
 * every job a real SLURM job, and cancelling the run (SIGTERM) scancels the job still running.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { jobFileName } from "../../src/engine/run/cluster/submission-records.js";
import { readEventLog, type RunEvent } from "../../src/engine/run/event-log.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../support/slurm-cluster.js";
import { runStrand, STRAND_BIN, strandEnv, tempFolder, type TempFolder } from "../support/strand-cli.js";

const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

const HEADER = `[workflow]\nname = "slurm-run"\nversion = "1.0"\n`;

function latestEvents(dir: string): RunEvent[] {
  const runId = readFileSync(join(dir, ".strand", "runs", "latest"), "utf8").trim();
  return readEventLog(join(dir, ".strand", "runs", runId, "events.jsonl"));
}

/** The names the jobs of `started` had at the scheduler, from their job scripts. */
function jobNames(dir: string, started: RunEvent[]): string[] {
  const runId = readFileSync(join(dir, ".strand", "runs", "latest"), "utf8").trim();
  return started.map((event) => {
    const script = readFileSync(join(dir, ".strand", "runs", runId, "jobs", jobFileName(String(event.job)), "job.sh"), "utf8");
    return /^#SBATCH --job-name=(.*)$/m.exec(script)?.[1] ?? "(none)";
  });
}

async function squeueIds(): Promise<string[]> {
  const result = await execa("squeue", ["-h", "-o", "%i"], { reject: false });
  return String(result.stdout).split("\n").map((line) => line.trim()).filter(Boolean);
}

describe.skipIf(!slurm)("strand run --executor slurm (real SLURM)", () => {
  it("runs every job of a pipeline as a SLURM job, in dependency order, with logs and scheduler ids", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[sample_groups]]
name = "g"
samples = ["A", "B"]

[[rules]]
name = "make"
output = ["out/{sample}.txt"]
shell = "echo job $SLURM_JOB_ID sample {sample} > {output}"

[[rules]]
name = "merge"
input = ["out/A.txt", "out/B.txt"]
output = ["merged.txt"]
shell = "cat {input} > {output}; echo merged >&2"
`,
    });
    folders.push(folder);
    const result = await runStrand(["run", "--executor", "slurm", "-j", "4", "--poll-interval", "1s"], { cwd: folder.dir, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const merged = readFileSync(folder.path("merged.txt"), "utf8");
    expect(merged).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
    const events = latestEvents(folder.dir);
    expect(events[0]).toMatchObject({ type: "run_started", executor: "slurm" });
    const startedJobs = events.filter((event) => event.type === "job_started");
    expect(startedJobs).toHaveLength(3);
    for (const event of startedJobs) expect(String(event.native_id)).toMatch(/^\d+$/);
    const merge = events.find((event) => event.type === "job_started" && event.job === "merge")!;
    const made = events.filter((event) => event.type === "job_completed" && String(event.job).startsWith("make_"));
    for (const event of made) expect(event.seq).toBeLessThan(merge.seq);
    expect(readFileSync(String(merge.stderr), "utf8")).toContain("merged");
    expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "completed", counts: { succeeded: 3 } });
    // Started by hand (no --run-id): named by rule and submission number, never by sample.
    expect(jobNames(folder.dir, startedJobs).sort()).toEqual(["make-1", "make-2", "merge-3"]);
  });

  it("names the jobs of a run whose id was given strand-<run id>-<n> (how a shared service runs it)", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[sample_groups]]
name = "g"
samples = ["PATIENT-0042-SMITH"]

[[rules]]
name = "align_all"
output = ["out/{sample}.txt"]
shell = "echo {sample} > {output}"
`,
    });
    folders.push(folder);
    const result = await runStrand(["run", "--executor", "slurm", "--poll-interval", "1s", "--run-id", "cohort-7"], { cwd: folder.dir, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const started = latestEvents(folder.dir).filter((event) => event.type === "job_started");
    // The instance name holds the sample; the scheduler's name does not.
    expect(started).toHaveLength(1);
    expect(String(started[0]!.job)).toContain("PATIENT-0042-SMITH");
    expect(jobNames(folder.dir, started)).toEqual(["strand-cohort-7-1"]);
  });

  it("keeps at most max_submitted jobs in flight (--max-submitted, or the profile's [cluster] table)", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[sample_groups]]
name = "g"
samples = ["A", "B", "C"]

[[rules]]
name = "work"
output = ["out/{sample}.txt"]
shell = "sleep 0.5; echo {sample} > {output}"
`,
      "profiles/hpc.toml": `[cluster]\nbackend = "slurm"\nmax_submitted = 1\npoll_interval = "1s"\n`,
    });
    folders.push(folder);
    const result = await runStrand(["run", "--profile", "hpc", "-j", "4"], { cwd: folder.dir, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const events = latestEvents(folder.dir);
    expect(events[0]).toMatchObject({ executor: "slurm" });
    let inFlight = 0;
    let most = 0;
    for (const event of events) {
      if (event.type === "job_started") most = Math.max(most, ++inFlight);
      if (event.type === "job_completed" || event.type === "job_failed") inFlight--;
    }
    expect(most).toBe(1);
    expect(events.filter((event) => event.type === "job_completed")).toHaveLength(3);
  });

  it("SIGTERM cancels the run and scancels the SLURM job that is still running", async () => {
    const folder = tempFolder({
      "main.oxoflow": `${HEADER}
[[rules]]
name = "long"
output = ["long.txt"]
shell = "touch started.flag; sleep 120; touch long.txt"
`,
    });
    folders.push(folder);
    const run = execa(process.execPath, [STRAND_BIN, "run", "--executor", "slurm", "--poll-interval", "1s"], { cwd: folder.dir, env: strandEnv(), extendEnv: true, reject: false, stdin: "ignore" });
    const deadline = Date.now() + 60_000;
    while (!existsSync(folder.path("started.flag"))) {
      if (Date.now() > deadline) throw new Error("the SLURM job never started");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const id = String(latestEvents(folder.dir).find((event) => event.type === "job_started")?.native_id);
    expect(await squeueIds()).toContain(id);
    run.kill("SIGTERM");
    const result = await run;
    expect(result.exitCode).toBe(143);
    const gone = Date.now() + 20_000;
    while ((await squeueIds()).includes(id) && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await squeueIds()).not.toContain(id);
    const events = latestEvents(folder.dir);
    expect(events.find((event) => event.type === "job_failed")).toMatchObject({ job: "long", cancelled: true, native_id: id });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "cancelled" });
    expect(existsSync(folder.path("long.txt"))).toBe(false);
  });
});
