/**
 * Faults with real processes (§5.3, Decision 12): missing tools and inputs, jobs killed by signals, time
 * limits (the whole process group goes), output folders that cannot be made, and sample names that try to
 * inject shell code or escape the run folder. Whatever goes wrong, the run must finish (no hang), report
 * "failed", and end its event log with run_finished.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EngineError } from "../../../src/engine/findings.js";
import { loadPipeline } from "../../../src/engine/format/load.js";
import { readEventLog } from "../../../src/engine/run/event-log.js";
import { startRun, type RunOptions } from "../../../src/engine/run/run-pipeline.js";
import { eventFor, expectFinished, ofType, runWorkflow as runNamed, type FinishedRun } from "./harness.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

/** Per-test limit: a fault that hangs the engine fails the test instead of the suite. */
const NO_HANG = 20_000;

type Finished = FinishedRun;
const runWorkflow = (body: string, options: RunOptions = {}, dir?: string): Promise<Finished> => runNamed("faults", body, options, dir);

/** The run ended as failed, with exactly one run_finished event last, agreeing with the result. */
const expectFailedRun = (run: Finished): void => void expectFinished(run, "failed");

/**
 * True while a process exists and has not exited. A zombie counts as gone: this container's PID 1 does
 * not reap orphans, so a killed child of a killed shell can linger as one, answering kill(pid, 0).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function eventuallyGone(pid: number, withinMs = 2000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

const pidIn = (dir: string, file: string): number => Number(readFileSync(join(dir, file), "utf8").trim());

describe("commands that fail", () => {
  it(
    "a missing tool: exit 127 and 'command not found' in the failure",
    async () => {
      const body = `[[rules]]\nname = "toolless"\noutput = ["out.txt"]\nshell = "definitely_not_a_tool_xyz --version > {output}"\n`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      const failed = eventFor(run.events, "job_failed", "toolless")!;
      expect(failed.exit_code).toBe(127);
      expect(failed.error).toContain("command not found");
      expect(failed.error).toContain("definitely_not_a_tool_xyz");
      expect(existsSync(join(run.dir, "out.txt"))).toBe(false);
      expect(run.result.counts).toMatchObject({ total: 1, failed: 1 });
    },
    NO_HANG,
  );

  it(
    "a missing input file that no job makes: 'missing input file: …', and the command never ran",
    async () => {
      const body = `[[rules]]\nname = "needy"\ninput = ["data/nope.txt"]\noutput = ["out.txt"]\nshell = "touch ran.marker; cp {input} {output}"\n`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      const failed = eventFor(run.events, "job_failed", "needy")!;
      expect(failed.error).toMatch(/^missing input file: data\/nope\.txt/);
      expect(eventFor(run.events, "job_started", "needy")).toBeUndefined();
      expect(existsSync(join(run.dir, "ran.marker"))).toBe(false);
    },
    NO_HANG,
  );

  it(
    "a job that kills itself with SIGKILL: exit code 137, signal SIGKILL",
    async () => {
      const body = `[[rules]]\nname = "suicide"\noutput = ["out.txt"]\nshell = "echo about to die >&2; kill -9 $$"\n`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      const failed = eventFor(run.events, "job_failed", "suicide")!;
      expect(failed.exit_code).toBe(137);
      expect(failed.signal).toBe("SIGKILL");
      expect(failed.error).toContain("SIGKILL");
    },
    NO_HANG,
  );

  it(
    "a job that signals its whole process group only kills itself, never the engine",
    async () => {
      const body = `[[rules]]\nname = "grouptermination"\noutput = ["out.txt"]\nshell = "sleep 5 & kill -TERM 0; wait"\n`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      const failed = eventFor(run.events, "job_failed", "grouptermination")!;
      expect(failed.exit_code).toBe(143);
      expect(failed.signal).toBe("SIGTERM");
      expect(run.elapsedMs).toBeLessThan(4000);
    },
    NO_HANG,
  );
});

describe("time limits", () => {
  const SLEEPER = `[[rules]]
name = "sleeper"
output = ["out.txt"]
shell = '''
echo $$ > leader.pid
sleep 30 &
echo $! > sleep.pid
wait
touch {output}
'''
`;

  it(
    "resources.time_limit = '1s' on sleep 30: exit 124, timed_out, within a few seconds, the sleep is gone",
    async () => {
      const run = await runWorkflow(`${SLEEPER}[rules.resources]\ntime_limit = "1s"\n`);
      expectFailedRun(run);
      expect(run.elapsedMs).toBeLessThan(6000);
      const failed = eventFor(run.events, "job_failed", "sleeper")!;
      expect(failed.exit_code).toBe(124);
      expect(failed.timed_out).toBe(true);
      expect(failed.error).toMatch(/timed out after 1 s/);
      expect(failed.duration_ms as number).toBeGreaterThanOrEqual(900);
      expect(await eventuallyGone(pidIn(run.dir, "sleep.pid"))).toBe(true);
      expect(await eventuallyGone(pidIn(run.dir, "leader.pid"))).toBe(true);
      expect(existsSync(join(run.dir, "out.txt"))).toBe(false);
    },
    NO_HANG,
  );

  it(
    "the timeoutMs option does the same for rules without a time limit",
    async () => {
      const run = await runWorkflow(SLEEPER, { timeoutMs: 1000 });
      expectFailedRun(run);
      expect(run.elapsedMs).toBeLessThan(6000);
      const failed = eventFor(run.events, "job_failed", "sleeper")!;
      expect(failed.exit_code).toBe(124);
      expect(failed.timed_out).toBe(true);
      expect(await eventuallyGone(pidIn(run.dir, "sleep.pid"))).toBe(true);
    },
    NO_HANG,
  );

  it(
    "a rule's time_limit wins over the timeoutMs option",
    async () => {
      const run = await runWorkflow(`${SLEEPER}[rules.resources]\ntime_limit = "1s"\n`, { timeoutMs: 60_000 });
      expectFailedRun(run);
      expect(run.elapsedMs).toBeLessThan(6000);
      expect(eventFor(run.events, "job_failed", "sleeper")!.timed_out).toBe(true);
    },
    NO_HANG,
  );

  it(
    "a job that ignores SIGTERM is killed anyway (SIGKILL after the grace period)",
    async () => {
      const body = `[[rules]]
name = "stubborn"
output = ["out.txt"]
shell = '''
trap '' TERM
sleep 30 &
echo $! > sleep.pid
wait
touch {output}
'''
[rules.resources]
time_limit = "1s"
`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      expect(run.elapsedMs).toBeLessThan(8000);
      const failed = eventFor(run.events, "job_failed", "stubborn")!;
      expect(failed.exit_code).toBe(124);
      expect(failed.timed_out).toBe(true);
      expect(await eventuallyGone(pidIn(run.dir, "sleep.pid"))).toBe(true);
    },
    NO_HANG,
  );

  it(
    "a child that ignores SIGTERM dies with its group when the shell itself exits on SIGTERM",
    async () => {
      const body = `[[rules]]
name = "orphaning"
output = ["out.txt"]
shell = '''
(trap '' TERM; exec sleep 30) &
echo $! > sleep.pid
wait
'''
[rules.resources]
time_limit = "1s"
`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      expect(run.elapsedMs).toBeLessThan(6000);
      expect(eventFor(run.events, "job_failed", "orphaning")!.timed_out).toBe(true);
      expect(await eventuallyGone(pidIn(run.dir, "sleep.pid"))).toBe(true);
    },
    NO_HANG,
  );

  it(
    "a timed-out attempt is retried like any failure",
    async () => {
      const body = `[[rules]]\nname = "slow"\nretries = 1\noutput = ["out.txt"]\nshell = "echo x >> tries.txt; sleep 30"\n[rules.resources]\ntime_limit = "1s"\n`;
      const run = await runWorkflow(body);
      expectFailedRun(run);
      expect(readFileSync(join(run.dir, "tries.txt"), "utf8")).toBe("x\nx\n");
      expect(ofType(run.events, "job_retrying")).toHaveLength(1);
      expect(eventFor(run.events, "job_failed", "slow")).toMatchObject({ exit_code: 124, timed_out: true, attempts: 2 });
    },
    NO_HANG,
  );
});

describe("pause and time limits", () => {
  // The time limit's timer keeps running while the run is paused (the job's group is SIGSTOPped), so a job
  // that needs 1 s of its 2 s is killed as "timed out" during a 2.5 s pause (see the report).
  it(
    "time spent paused does not count against a job's time limit",
    async () => {
      const dir = tempDir();
      const path = writeFile(dir, "main.oxoflow", `[workflow]\nname = "faults"\n\n[[rules]]\nname = "short"\noutput = ["out.txt"]\nshell = "sleep 1; touch {output}"\n[rules.resources]\ntime_limit = "2s"\n`);
      const controller = startRun(await loadPipeline(path));
      const pause = setTimeout(() => controller.pause(), 300);
      const resume = setTimeout(() => controller.resume(), 2800);
      try {
        const result = await controller.result;
        const events = readEventLog(result.eventsPath);
        expect(eventFor(events, "job_failed", "short")).toBeUndefined();
        expect(result.status).toBe("completed");
      } finally {
        clearTimeout(pause);
        clearTimeout(resume);
      }
    },
    NO_HANG,
  );
});

describe("the file system says no", () => {
  it(
    "an output folder that cannot be created (its parent is a regular file): a clear failure naming the folder",
    async () => {
      const dir = tempDir();
      writeFile(dir, "blocker", "I am a file, not a folder\n");
      const body = `[[rules]]\nname = "blocked"\noutput = ["blocker/sub/out.txt"]\nshell = "touch ran.marker; touch {output}"\n`;
      const run = await runWorkflow(body, {}, dir);
      expectFailedRun(run);
      const failed = eventFor(run.events, "job_failed", "blocked")!;
      expect(failed.error).toContain("cannot create the output folder");
      expect(failed.error).toContain(join(dir, "blocker", "sub"));
      expect(failed.error).toMatch(/not a directory|ENOTDIR/);
      expect(existsSync(join(dir, "ran.marker"))).toBe(false);
      expect(readFileSync(join(dir, "blocker"), "utf8")).toBe("I am a file, not a folder\n");
    },
    NO_HANG,
  );
});

describe("the engine around the jobs", () => {
  it(
    "an environment that cannot be set up fails the job with the set-up's error; the run finishes",
    async () => {
      const dir = tempDir();
      writeFile(dir, "blocker", "a file where the venv's parent folder should be\n");
      const body = `[[rules]]\nname = "envless"\noutput = ["out.txt"]\nshell = "touch ran.marker; touch {output}"\n[rules.environment]\nvenv = "blocker/venv"\n`;
      const saved = process.env.STRAND_LOCK_DIR;
      process.env.STRAND_LOCK_DIR = tempDir();
      try {
        const run = await runWorkflow(body, {}, dir);
        expectFailedRun(run);
        const failed = eventFor(run.events, "job_failed", "envless")!;
        expect(failed.error).toMatch(/venv environment blocker\/venv/);
        expect(existsSync(join(dir, "ran.marker"))).toBe(false);
      } finally {
        if (saved === undefined) delete process.env.STRAND_LOCK_DIR;
        else process.env.STRAND_LOCK_DIR = saved;
      }
    },
    NO_HANG,
  );

  it(
    "a second run in a workdir that is running is refused (LOCKED) without disturbing the first",
    async () => {
      const dir = tempDir();
      const path = writeFile(dir, "main.oxoflow", `[workflow]\nname = "faults"\n\n[[rules]]\nname = "slow"\noutput = ["out.txt"]\nshell = "sleep 0.5; touch {output}"\n`);
      const first = startRun(await loadPipeline(path));
      let refused: unknown;
      try {
        startRun(await loadPipeline(path));
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(EngineError);
      expect((refused as EngineError).code).toBe("LOCKED");
      expect((refused as EngineError).message).toContain("workdir is locked");
      const result = await first.result;
      expect(result.status).toBe("completed");
      expect(existsSync(join(dir, "out.txt"))).toBe(true);
      // Once it has finished, the workdir can be run again.
      const again = await startRun(await loadPipeline(path)).result;
      expect(again.status).toBe("completed");
    },
    NO_HANG,
  );
});

describe("sample names are data, not code (Decision 12)", () => {
  it(
    "a sample named 'a;rm -rf x' fails its own job, naming the sample; nothing is deleted; other samples run",
    async () => {
      const dir = tempDir();
      writeFile(dir, "x/precious.txt", "keep me\n");
      const body = `[[sample_groups]]
name = "g"
samples = ["ok1", "a;rm -rf x", "ok2"]

[[rules]]
name = "greet"
output = ["out/{sample}.txt"]
shell = "echo {sample} > {output}"
`;
      const run = await runWorkflow(body, { keepGoing: true, jobs: 2 }, dir);
      expectFailedRun(run);
      expect(readFileSync(join(dir, "x", "precious.txt"), "utf8")).toBe("keep me\n");
      const failures = ofType(run.events, "job_failed");
      expect(failures).toHaveLength(1);
      expect(failures[0]!.error).toContain("a;rm -rf x");
      expect(failures[0]!.error).toContain("shell metacharacters");
      expect(ofType(run.events, "job_started").map((event) => event.job)).not.toContain(failures[0]!.job);
      expect(readFileSync(join(dir, "out", "ok1.txt"), "utf8")).toBe("ok1\n");
      expect(readFileSync(join(dir, "out", "ok2.txt"), "utf8")).toBe("ok2\n");
      expect(run.result.counts).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    },
    NO_HANG,
  );

  it(
    "a sample named with command substitution is refused too",
    async () => {
      const dir = tempDir();
      const body = `[[sample_groups]]\nname = "g"\nsamples = ["$(touch pwned)"]\n\n[[rules]]\nname = "greet"\noutput = ["out/{sample}.txt"]\nshell = "echo {sample} > {output}"\n`;
      const run = await runWorkflow(body, {}, dir);
      expectFailedRun(run);
      expect(existsSync(join(dir, "pwned"))).toBe(false);
      expect(ofType(run.events, "job_failed")[0]!.error).toContain("shell metacharacters");
    },
    NO_HANG,
  );

  // The job name (`greet_g_<sample>`) becomes a folder under jobs/ unchecked: a sample made of `../` climbs
  // out of the run folder, and the engine itself creates folders and truncates stdout.log/stderr.log there
  // (see the report). Laid out so that the escape lands inside this test's own temp folder.
  it(
    "a sample made of '../' cannot make the engine write logs outside the run folder",
    async () => {
      const root = tempDir();
      const dir = join(root, "work");
      const body = `[[sample_groups]]
name = "g"
samples = ["../../../../../../../escaped"]

[[rules]]
name = "greet"
output = ["a/b/c/d/e/f/g/h/{sample}.txt"]
shell = "echo hi > {output}"
`;
      const run = await runWorkflow(body, { keepGoing: true }, dir);
      expect(run.result.status).toBe("failed");
      expect(existsSync(join(root, "escaped"))).toBe(false);
    },
    NO_HANG,
  );
});
