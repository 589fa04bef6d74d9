/**
 * The local scheduler with real processes (§5.2, Decision 11): `-j` parallelism, the thread, memory and
 * resource-group pools, the budget pre-flight, priorities and aging, what a failure stops or blocks
 * (keep-going, `required = false`), `when`, targets, `--rerun`, and a second run that has nothing to do.
 * Parallelism is proven by the start/end timestamps the jobs themselves write, never by wall time alone.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunOptions } from "../../../src/engine/run/run-pipeline.js";
import { eventFor, expectFinished, namesOf, ofType, runWorkflow as runNamed, type FinishedRun } from "./harness.js";
import { removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

type Finished = FinishedRun;
const runWorkflow = (body: string, options: RunOptions = {}, dir?: string): Promise<Finished> => runNamed("sched", body, options, dir);

/**
 * A rule whose job writes its start time, sleeps, and writes its end time (nanoseconds since the epoch)
 * into `spans/<name>.txt`. `extra` is appended to the rule table (keys, then sub-tables).
 */
function timedRule(name: string, extra = "", seconds = 0.4): string {
  return `[[rules]]
name = "${name}"
output = ["spans/${name}.txt"]
shell = "date +%s%N > {output}; sleep ${seconds}; date +%s%N >> {output}"
${extra}
`;
}

interface Span {
  start: number;
  end: number;
}

/** The [start, end] a timed job wrote, in milliseconds. */
function spanOf(dir: string, name: string): Span {
  const [start, end] = readFileSync(join(dir, "spans", `${name}.txt`), "utf8").trim().split("\n").map((line) => Number(BigInt(line) / 1000n) / 1000);
  expect(end! - start!).toBeGreaterThan(0);
  return { start: start!, end: end! };
}

const overlap = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

/** True when no two of the named jobs ran at the same time. */
function pairwiseDisjoint(dir: string, names: string[]): boolean {
  const spans = names.map((name) => spanOf(dir, name));
  for (let i = 0; i < spans.length; i++) for (let j = i + 1; j < spans.length; j++) if (overlap(spans[i]!, spans[j]!)) return false;
  return true;
}

describe("-j: jobs at once", () => {
  it("with -j 2 two independent 0.4 s jobs overlap", async () => {
    // maxThreads: the thread pool defaults to the machine's CPUs; these tests are about -j alone.
    const run = await runWorkflow(timedRule("one") + timedRule("two"), { jobs: 2, maxThreads: 8 });
    expectFinished(run, "completed");
    expect(run.result.counts).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
    expect(overlap(spanOf(run.dir, "one"), spanOf(run.dir, "two"))).toBe(true);
  });

  it("with -j 1 (and by default) they run one after the other", async () => {
    const one = await runWorkflow(timedRule("one") + timedRule("two"), { jobs: 1 });
    expectFinished(one, "completed");
    expect(overlap(spanOf(one.dir, "one"), spanOf(one.dir, "two"))).toBe(false);

    const byDefault = await runWorkflow(timedRule("one", "", 0.2) + timedRule("two", "", 0.2));
    expectFinished(byDefault, "completed");
    expect(overlap(spanOf(byDefault.dir, "one"), spanOf(byDefault.dir, "two"))).toBe(false);
  });

  it("-j 0 counts as 1", async () => {
    const run = await runWorkflow(timedRule("one", "", 0.2) + timedRule("two", "", 0.2), { jobs: 0 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "one"), spanOf(run.dir, "two"))).toBe(false);
  });

  it("a job starts only after everything it depends on has finished, even with free slots", async () => {
    const body = `${timedRule("first", "", 0.3)}
[[rules]]
name = "second"
input = ["spans/first.txt"]
output = ["spans/second.txt"]
shell = "date +%s%N > {output}; sleep 0.1; date +%s%N >> {output}"
`;
    const run = await runWorkflow(body, { jobs: 4 });
    expectFinished(run, "completed");
    expect(spanOf(run.dir, "second").start).toBeGreaterThanOrEqual(spanOf(run.dir, "first").end);
  });
});

describe("thread pool", () => {
  it("maxThreads 2: jobs of 2 threads never overlap, even with -j 4", async () => {
    const threads = "[rules.resources]\nthreads = 2\n";
    const run = await runWorkflow(timedRule("t1", threads, 0.3) + timedRule("t2", threads, 0.3) + timedRule("t3", threads, 0.3), { jobs: 4, maxThreads: 2 });
    expectFinished(run, "completed");
    expect(run.result.counts.succeeded).toBe(3);
    expect(pairwiseDisjoint(run.dir, ["t1", "t2", "t3"])).toBe(true);
  });

  it("maxThreads 2: two 1-thread jobs do overlap (the pool, not -j, was the limit above)", async () => {
    const run = await runWorkflow(timedRule("t1") + timedRule("t2"), { jobs: 4, maxThreads: 2 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "t1"), spanOf(run.dir, "t2"))).toBe(true);
  });

  it("a job asking more threads than the machine has still runs, alone, and nothing overtakes it (FIFO)", async () => {
    // a_small goes first (name order); b_big waits for every thread; c_small must not overtake b_big.
    const body = timedRule("a_small", "", 0.3) + timedRule("b_big", "[rules.resources]\nthreads = 4096\n", 0.3) + timedRule("c_small", "", 0.3);
    const run = await runWorkflow(body, { jobs: 4 });
    expectFinished(run, "completed");
    expect(run.result.counts.succeeded).toBe(3);
    const big = spanOf(run.dir, "b_big");
    expect(overlap(big, spanOf(run.dir, "a_small"))).toBe(false);
    expect(overlap(big, spanOf(run.dir, "c_small"))).toBe(false);
    expect(namesOf(run.events, "job_started")).toEqual(["a_small", "b_big", "c_small"]);
  });

  it("the deprecated rule-level threads key counts too", async () => {
    const run = await runWorkflow(timedRule("t1", "threads = 2", 0.3) + timedRule("t2", "threads = 2", 0.3), { jobs: 4, maxThreads: 2 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "t1"), spanOf(run.dir, "t2"))).toBe(false);
  });
});

describe("memory pool", () => {
  it("maxMemoryMb 1000: two 600 MB jobs never overlap", async () => {
    const memory = '[rules.resources]\nmemory = "600M"\n';
    const run = await runWorkflow(timedRule("m1", memory, 0.3) + timedRule("m2", memory, 0.3), { jobs: 4, maxMemoryMb: 1000 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "m1"), spanOf(run.dir, "m2"))).toBe(false);
  });

  it("maxMemoryMb 1000: two 400 MB jobs overlap", async () => {
    const memory = '[rules.resources]\nmemory = "400M"\n';
    const run = await runWorkflow(timedRule("m1", memory) + timedRule("m2", memory), { jobs: 4, maxMemoryMb: 1000, maxThreads: 8 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "m1"), spanOf(run.dir, "m2"))).toBe(true);
  });

  it("memory in G counts in megabytes (1G + 1G do not fit in 1500 MB)", async () => {
    const memory = '[rules.resources]\nmemory = "1G"\n';
    const run = await runWorkflow(timedRule("m1", memory, 0.3) + timedRule("m2", memory, 0.3), { jobs: 2, maxMemoryMb: 1500 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "m1"), spanOf(run.dir, "m2"))).toBe(false);
  });
});

describe("budget pre-flight", () => {
  it("a job that can never fit an explicit maxThreads fails the run before anything starts", async () => {
    const body = `${timedRule("fine", "", 0.1)}
[[rules]]
name = "greedy"
output = ["greedy.txt"]
shell = "touch {output}"
[rules.resources]
threads = 4
`;
    const run = await runWorkflow(body, { maxThreads: 2, jobs: 2 });
    const finished = expectFinished(run, "failed");
    expect(run.result.error).toMatch(/job greedy needs 4 threads but --max-threads is 2/);
    expect(finished.error).toBe(run.result.error);
    expect(ofType(run.events, "job_started")).toEqual([]);
    expect(ofType(run.events, "job_queued")).toEqual([]);
    expect(existsSync(join(run.dir, "spans", "fine.txt"))).toBe(false);
    expect(existsSync(join(run.dir, "greedy.txt"))).toBe(false);
    expect(run.result.counts.total).toBe(0);
  });

  it("a job that can never fit an explicit maxMemoryMb fails the run before anything starts", async () => {
    const body = `${timedRule("fine", "", 0.1)}
[[rules]]
name = "hungry"
output = ["hungry.txt"]
shell = "touch {output}"
[rules.resources]
memory = "2G"
`;
    const run = await runWorkflow(body, { maxMemoryMb: 1024 });
    expectFinished(run, "failed");
    expect(run.result.error).toMatch(/job hungry needs 2048 MB but --max-memory is 1024 MB/);
    expect(run.result.error).toContain("raise --max-memory");
    expect(ofType(run.events, "job_started")).toEqual([]);
    expect(existsSync(join(run.dir, "spans", "fine.txt"))).toBe(false);
  });

  it("the lock is released after a budget failure: the next run can start", async () => {
    const dir = tempDir();
    const body = `[[rules]]\nname = "greedy"\noutput = ["greedy.txt"]\nshell = "touch {output}"\n[rules.resources]\nthreads = 4\n`;
    const failed = await runWorkflow(body, { maxThreads: 2 }, dir);
    expect(failed.result.status).toBe("failed");
    const fine = await runWorkflow(body, { maxThreads: 4 }, dir);
    expectFinished(fine, "completed");
    expect(existsSync(join(dir, "greedy.txt"))).toBe(true);
  });
});

describe("priorities", () => {
  it("priority = 10 runs first at -j 1, whatever the name order", async () => {
    const body = `[[rules]]
name = "a_low"
output = ["a_low.txt"]
shell = "touch {output}"

[[rules]]
name = "z_high"
priority = 10
output = ["z_high.txt"]
shell = "touch {output}"

[[rules]]
name = "m_mid"
priority = 5
output = ["m_mid.txt"]
shell = "touch {output}"
`;
    const run = await runWorkflow(body, { jobs: 1 });
    expectFinished(run, "completed");
    expect(namesOf(run.events, "job_started")).toEqual(["z_high", "m_mid", "a_low"]);
  });

  it("equal priorities start in name order", async () => {
    const body = ["c", "a", "b"].map((name) => `[[rules]]\nname = "${name}"\noutput = ["${name}.txt"]\nshell = "touch {output}"\n`).join("\n");
    const run = await runWorkflow(body, { jobs: 1 });
    expectFinished(run, "completed");
    expect(namesOf(run.events, "job_started")).toEqual(["a", "b", "c"]);
  });

  it("aging: a low-priority job that waited long enough overtakes newly ready high-priority jobs", async () => {
    // h1..h4 (priority 2) form a chain, so one of them becomes ready each round; a_low (priority 0) has waited
    // since round 0. Round 2: h3 has key 2 - 2 = 0, a_low 0 - 0 = 0: tie, and a_low wins by name.
    const chain = [1, 2, 3, 4]
      .map((i) => `[[rules]]\nname = "h${i}"\npriority = 2\n${i > 1 ? `depends_on = ["h${i - 1}"]\n` : ""}output = ["h${i}.txt"]\nshell = "touch {output}"\n`)
      .join("\n");
    const body = `${chain}\n[[rules]]\nname = "a_low"\noutput = ["a_low.txt"]\nshell = "touch {output}"\n`;
    const run = await runWorkflow(body, { jobs: 1 });
    expectFinished(run, "completed");
    expect(namesOf(run.events, "job_started")).toEqual(["h1", "h2", "a_low", "h3", "h4"]);
  });
});

describe("resource groups", () => {
  it("a group with max = 1 lets only one of its jobs run at a time", async () => {
    const group = "[rules.resources]\ngroups = { lim = 1 }\n";
    const body = `[resource_groups]\nlim = { max = 1 }\n\n${timedRule("g1", group, 0.3)}${timedRule("g2", group, 0.3)}${timedRule("free")}`;
    const run = await runWorkflow(body, { jobs: 4, maxThreads: 8 });
    expectFinished(run, "completed");
    expect(run.result.counts.succeeded).toBe(3);
    expect(overlap(spanOf(run.dir, "g1"), spanOf(run.dir, "g2"))).toBe(false);
    // The job outside the group is not held back by it.
    expect(overlap(spanOf(run.dir, "free"), spanOf(run.dir, "g1"))).toBe(true);
  });

  it("a group with max = 2 lets two run at once", async () => {
    const group = "[rules.resources]\ngroups = { lim = 1 }\n";
    const body = `[resource_groups]\nlim = { max = 2 }\n\n${timedRule("g1", group)}${timedRule("g2", group)}`;
    const run = await runWorkflow(body, { jobs: 4, maxThreads: 8 });
    expectFinished(run, "completed");
    expect(overlap(spanOf(run.dir, "g1"), spanOf(run.dir, "g2"))).toBe(true);
  });

  it("a job naming an undeclared group fails with a message naming the group; keep-going runs the rest", async () => {
    const body = `[[rules]]
name = "orphan"
output = ["orphan.txt"]
shell = "touch {output}"
[rules.resources]
groups = { nowhere = 1 }

[[rules]]
name = "other"
output = ["other.txt"]
shell = "touch {output}"
`;
    const run = await runWorkflow(body, { jobs: 2, keepGoing: true });
    expectFinished(run, "failed");
    const failed = eventFor(run.events, "job_failed", "orphan");
    expect(failed).toBeDefined();
    expect(failed!.error).toMatch(/resource group 'nowhere'/);
    expect(failed!.error).toMatch(/not declared/);
    expect(eventFor(run.events, "job_started", "orphan")).toBeUndefined();
    expect(existsSync(join(run.dir, "orphan.txt"))).toBe(false);
    expect(existsSync(join(run.dir, "other.txt"))).toBe(true);
    expect(run.result.counts).toMatchObject({ failed: 1, succeeded: 1 });
  });

  // `groups = { lim = -1 }` passes the schema (any integer) and ResourcePool.take adds the units back to the
  // free count, so the group's max no longer holds for anyone (see the report). Either refusing the value
  // (an EngineError) or keeping max = 1 would make this pass.
  it("negative group units cannot raise a group's capacity", async () => {
    const body = `[resource_groups]
lim = { max = 1 }

${timedRule("a_neg", "[rules.resources]\ngroups = { lim = -1 }\n", 0.6)}${timedRule("b1", "[rules.resources]\ngroups = { lim = 1 }\n")}${timedRule("b2", "[rules.resources]\ngroups = { lim = 1 }\n")}`;
    let run: Finished;
    try {
      run = await runWorkflow(body, { jobs: 4, maxThreads: 8 });
    } catch (error) {
      expect((error as Error).name).toBe("EngineError");
      return;
    }
    if (run.result.status === "completed") expect(overlap(spanOf(run.dir, "b1"), spanOf(run.dir, "b2"))).toBe(false);
  });

  it("a job needing more units than the group has fails with 'exhausted'", async () => {
    const body = `[resource_groups]\nlim = { max = 1 }\n\n[[rules]]\nname = "wide"\noutput = ["wide.txt"]\nshell = "touch {output}"\n[rules.resources]\ngroups = { lim = 2 }\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "failed");
    expect(eventFor(run.events, "job_failed", "wide")!.error).toMatch(/resource group 'lim' exhausted: the job needs 2 units, the group has 1/);
  });
});

const FAIL_AND_FRIENDS = `[[rules]]
name = "a_fail"
output = ["a_fail.txt"]
shell = "echo broken >&2; exit 3"

[[rules]]
name = "b_ok"
output = ["b_ok.txt"]
shell = "touch {output}"

[[rules]]
name = "c_ok"
output = ["c_ok.txt"]
shell = "touch {output}"

[[rules]]
name = "d_down"
input = ["a_fail.txt"]
output = ["d_down.txt"]
shell = "cp {input} {output}"
`;

describe("failures: stop, keep going, blocked", () => {
  it("without keep-going a failing required job stops new starts; the rest are skipped as 'stopped'", async () => {
    const run = await runWorkflow(FAIL_AND_FRIENDS, { jobs: 1 });
    expectFinished(run, "failed");
    expect(namesOf(run.events, "job_started")).toEqual(["a_fail"]);
    expect(eventFor(run.events, "job_failed", "a_fail")!.exit_code).toBe(3);
    for (const name of ["b_ok", "c_ok"]) {
      const skipped = eventFor(run.events, "job_skipped", name);
      expect(skipped, name).toBeDefined();
      expect((skipped!.reason as { code: string }).code).toBe("stopped");
      expect(existsSync(join(run.dir, `${name}.txt`))).toBe(false);
    }
    // Downstream of the failure: blocked (it could never have run).
    expect((eventFor(run.events, "job_skipped", "d_down")!.reason as { code: string }).code).toBe("blocked");
    expect(run.result.counts).toMatchObject({ total: 4, succeeded: 0, failed: 1, blocked: 1, not_started: 2 });
  });

  it("keep-going: independent jobs still run, the failure's downstream is blocked", async () => {
    const run = await runWorkflow(FAIL_AND_FRIENDS, { jobs: 1, keepGoing: true });
    expectFinished(run, "failed");
    expect(namesOf(run.events, "job_completed").sort()).toEqual(["b_ok", "c_ok"]);
    expect(existsSync(join(run.dir, "b_ok.txt"))).toBe(true);
    expect(existsSync(join(run.dir, "c_ok.txt"))).toBe(true);
    const blocked = eventFor(run.events, "job_skipped", "d_down")!;
    expect(blocked.reason).toEqual({ code: "blocked", text: "blocked by failed dependency a_fail" });
    expect(eventFor(run.events, "job_started", "d_down")).toBeUndefined();
    expect(run.result.counts).toMatchObject({ total: 4, succeeded: 2, failed: 1, blocked: 1, not_started: 0, non_required_failed: 0 });
  });

  it("blocking propagates down a chain", async () => {
    const body = `${FAIL_AND_FRIENDS}
[[rules]]
name = "e_further"
input = ["d_down.txt"]
output = ["e_further.txt"]
shell = "cp {input} {output}"
`;
    const run = await runWorkflow(body, { keepGoing: true });
    expectFinished(run, "failed");
    expect((eventFor(run.events, "job_skipped", "e_further")!.reason as { code: string }).code).toBe("blocked");
    expect(run.result.counts).toMatchObject({ succeeded: 2, failed: 1, blocked: 2 });
  });

  it("required = false: its failure leaves the run completed, counts it apart, and still blocks its dependents", async () => {
    const body = FAIL_AND_FRIENDS.replace('name = "a_fail"\n', 'name = "a_fail"\nrequired = false\n');
    // Without keep-going: a non-required failure must not stop the run.
    const run = await runWorkflow(body, { jobs: 1 });
    expectFinished(run, "completed");
    expect(run.result.counts).toMatchObject({ total: 4, succeeded: 2, failed: 0, non_required_failed: 1, blocked: 1, not_started: 0 });
    const failed = eventFor(run.events, "job_failed", "a_fail")!;
    expect(failed.required).toBe(false);
    expect((eventFor(run.events, "job_skipped", "d_down")!.reason as { code: string }).code).toBe("blocked");
    expect(existsSync(join(run.dir, "b_ok.txt"))).toBe(true);
    expect(existsSync(join(run.dir, "c_ok.txt"))).toBe(true);
  });

  // §5.2: "A required rule failing stops new submissions and kills running process trees, unless -k". The
  // scheduler only stops new submissions; a job already running is left to finish (see the report).
  it("without keep-going a failure also kills jobs that are still running (§5.2)", async () => {
    const body = `[[rules]]
name = "a_fail"
output = ["a_fail.txt"]
shell = "sleep 0.2; exit 1"

[[rules]]
name = "b_slow"
output = ["b_slow.txt"]
shell = "sleep 2; touch {output}"
`;
    const run = await runWorkflow(body, { jobs: 2 });
    expect(run.result.status).toBe("failed");
    expect(existsSync(join(run.dir, "b_slow.txt"))).toBe(false);
    expect(eventFor(run.events, "job_completed", "b_slow")).toBeUndefined();
  });
});

describe("when, targets, rerun, nothing to do", () => {
  it("a false when condition skips the job (condition-false) and its dependents still run", async () => {
    const body = `[config]
flag = false

[[rules]]
name = "maybe"
when = "config.flag"
output = ["maybe.txt"]
shell = "touch {output}"

[[rules]]
name = "after"
depends_on = ["maybe"]
output = ["after.txt"]
shell = "touch {output}"
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const skipped = eventFor(run.events, "job_skipped", "maybe")!;
    expect((skipped.reason as { code: string }).code).toBe("condition-false");
    expect(eventFor(run.events, "job_started", "maybe")).toBeUndefined();
    expect(existsSync(join(run.dir, "maybe.txt"))).toBe(false);
    expect(existsSync(join(run.dir, "after.txt"))).toBe(true);
    expect(run.result.counts).toMatchObject({ total: 2, succeeded: 1, skipped: 1 });
  });

  it("a true when condition runs the job", async () => {
    const body = `[config]\nflag = true\n\n[[rules]]\nname = "maybe"\nwhen = "config.flag"\noutput = ["maybe.txt"]\nshell = "touch {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(existsSync(join(run.dir, "maybe.txt"))).toBe(true);
  });

  const CHAIN = `[[rules]]
name = "a"
output = ["a.txt"]
shell = "echo a > {output}"

[[rules]]
name = "b"
input = ["a.txt"]
output = ["b.txt"]
shell = "cat {input} > {output}; echo b >> {output}"

[[rules]]
name = "c"
input = ["b.txt"]
output = ["c.txt"]
shell = "cat {input} > {output}; echo c >> {output}"

[[rules]]
name = "d"
output = ["d.txt"]
shell = "echo d > {output}"
`;

  it("targets run only the target and what is upstream of it", async () => {
    const run = await runWorkflow(CHAIN, { targets: ["b"] });
    expectFinished(run, "completed");
    expect(namesOf(run.events, "job_started")).toEqual(["a", "b"]);
    expect(readFileSync(join(run.dir, "b.txt"), "utf8")).toBe("a\nb\n");
    expect(existsSync(join(run.dir, "c.txt"))).toBe(false);
    expect(existsSync(join(run.dir, "d.txt"))).toBe(false);
    expect(run.result.counts).toMatchObject({ total: 2, succeeded: 2 });
  });

  it("a second run with nothing changed runs no job; rerun runs them all again", async () => {
    const dir = tempDir();
    const first = await runWorkflow(CHAIN, { jobs: 2 }, dir);
    expectFinished(first, "completed");
    expect(first.result.counts).toMatchObject({ total: 4, succeeded: 4 });

    const second = await runWorkflow(CHAIN, { jobs: 2 }, dir);
    expectFinished(second, "completed");
    expect(ofType(second.events, "job_started")).toEqual([]);
    expect(ofType(second.events, "job_queued")).toEqual([]);
    expect(second.result.counts).toMatchObject({ total: 4, succeeded: 0, skipped: 4, failed: 0 });
    expect(ofType(second.events, "job_skipped").map((event) => [event.job, (event.reason as { code: string }).code]).sort()).toEqual([
      ["a", "up-to-date"],
      ["b", "up-to-date"],
      ["c", "up-to-date"],
      ["d", "up-to-date"],
    ]);
    expect(ofType(second.events, "run_started")[0]!.jobs_to_run).toBe(0);

    const forced = await runWorkflow(CHAIN, { jobs: 2, rerun: true }, dir);
    expectFinished(forced, "completed");
    expect(namesOf(forced.events, "job_started").sort()).toEqual(["a", "b", "c", "d"]);
    expect(ofType(forced.events, "job_queued").every((event) => (event.reason as { code: string }).code === "forced")).toBe(true);
    expect(forced.result.counts).toMatchObject({ total: 4, succeeded: 4 });
    // Every run has its own folder and event log.
    expect(new Set([first.result.runId, second.result.runId, forced.result.runId]).size).toBe(3);
  });

  // §5.2/§5.3: jobs already complete are "pre-marked Success and counted as skipped" (the summary reads
  // "0 succeeded, 4 skipped"); RunCounts leaves them out of every count (see the report).
  it("up-to-date jobs are counted as skipped (§5.2)", async () => {
    const dir = tempDir();
    await runWorkflow(CHAIN, {}, dir);
    const second = await runWorkflow(CHAIN, {}, dir);
    expect(second.result.counts.skipped).toBe(4);
  });

  it("event log: one run_started first, every queued job ends exactly once, seq increases", async () => {
    const run = await runWorkflow(FAIL_AND_FRIENDS, { jobs: 2, keepGoing: true });
    expect(run.events[0]!.type).toBe("run_started");
    expect(run.events.map((event) => event.seq)).toEqual(run.events.map((_, i) => i + 1));
    expect(new Set(run.events.map((event) => event.run_id))).toEqual(new Set([run.result.runId]));
    const ends = run.events.filter((event) => ["job_completed", "job_failed", "job_skipped"].includes(event.type));
    expect(ends.map((event) => event.job).sort()).toEqual(namesOf(run.events, "job_queued").sort());
  });
});
