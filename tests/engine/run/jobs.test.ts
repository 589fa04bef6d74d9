/**
 * Executing one job with real processes (§5.3, Decisions 4, 9, 11): log files, process group, closed
 * stdin, CPU time and peak memory, the "every declared output must exist" test, cleaning up after a
 * failure, retries, envvars, the shell prelude, pre_exec and hooks, scratch folders, optional inputs,
 * temp_output, multi-line commands and a venv environment.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunOptions } from "../../../src/engine/run/run-pipeline.js";
import { eventFor, expectFinished, isolateEnvironmentLocks, ofType, runWorkflow as runNamed, type FinishedRun } from "./harness.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

isolateEnvironmentLocks();
afterAll(removeTempDirs);

type Finished = FinishedRun;
const runWorkflow = (body: string, options: RunOptions = {}, dir?: string): Promise<Finished> => runNamed("jobs", body, options, dir);
const read = (dir: string, path: string): string => readFileSync(join(dir, path), "utf8");

/** Makes a file look an hour old, so that a job with a newer input is not up to date. */
function makeOld(dir: string, path: string): void {
  const past = Date.now() / 1000 - 3600;
  utimesSync(join(dir, path), past, past);
}

describe("logs, process group, stdin", () => {
  it("stdout and stderr go to separate files under jobs/<job>/ in the run folder", async () => {
    const body = `[[rules]]\nname = "talk"\noutput = ["talk.txt"]\nshell = "echo to-stdout; echo to-stderr >&2; echo more-stdout; touch {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const jobDir = join(run.result.runDir, "jobs", "talk");
    expect(readFileSync(join(jobDir, "stdout.log"), "utf8")).toBe("to-stdout\nmore-stdout\n");
    expect(readFileSync(join(jobDir, "stderr.log"), "utf8")).toBe("to-stderr\n");
    expect(run.result.runDir).toBe(join(run.dir, ".strand", "runs", run.result.runId));
    expect(run.result.eventsPath).toBe(join(run.result.runDir, "events.jsonl"));
    const started = eventFor(run.events, "job_started", "talk")!;
    expect(started.stdout).toBe(join(jobDir, "stdout.log"));
    expect(started.stderr).toBe(join(jobDir, "stderr.log"));
  });

  it("each job of a multi-sample rule has its own log folder", async () => {
    const body = `[[sample_groups]]\nname = "g"\nsamples = ["S1", "S2"]\n\n[[rules]]\nname = "say"\noutput = ["say/{sample}.txt"]\nshell = "echo hello {sample}; touch {output}"\n`;
    const run = await runWorkflow(body, { jobs: 2 });
    expectFinished(run, "completed");
    const jobs = readdirSync(join(run.result.runDir, "jobs")).sort();
    expect(jobs).toHaveLength(2);
    for (const job of jobs) {
      const sample = job.endsWith("S1") ? "S1" : "S2";
      expect(readFileSync(join(run.result.runDir, "jobs", job, "stdout.log"), "utf8")).toBe(`hello ${sample}\n`);
    }
  });

  it("the job runs in a process group of its own, as its leader", async () => {
    const body = `[[rules]]\nname = "group"\noutput = ["group.txt"]\nshell = "ps -o pgid= -p $$ | tr -d ' ' > {output}; echo $$ >> {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const [jobGroup, jobPid] = read(run.dir, "group.txt").trim().split("\n");
    const ownGroup = execFileSync("ps", ["-o", "pgid=", "-p", String(process.pid)], { encoding: "utf8" }).trim();
    expect(Number(jobGroup)).toBeGreaterThan(0);
    expect(jobGroup).not.toBe(ownGroup);
    expect(jobGroup).toBe(jobPid);
  });

  it("stdin is closed: cat gets end-of-file at once and read fails", async () => {
    const body = `[[rules]]
name = "stdin"
output = ["cat.txt", "read.txt"]
shell = '''
cat > {output[0]}
if read -r line; then echo "got: $line" > {output[1]}; else echo "eof" > {output[1]}; fi
'''
[rules.resources]
time_limit = "10s"
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "cat.txt")).toBe("");
    expect(read(run.dir, "read.txt")).toBe("eof\n");
    expect(eventFor(run.events, "job_completed", "stdin")!.duration_ms as number).toBeLessThan(5000);
  });
});

describe("accounting", () => {
  it("records CPU time: a 0.3 s busy loop shows at least 150 ms of CPU", async () => {
    const body = `[[rules]]
name = "busy"
output = ["busy.txt"]
shell = '''
python3 -c 'import time
t = time.process_time()
while time.process_time() - t < 0.3: pass'
touch {output}
'''
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const completed = eventFor(run.events, "job_completed", "busy")!;
    expect(completed.cpu_ms).toBeTypeOf("number");
    expect(completed.cpu_ms as number).toBeGreaterThanOrEqual(150);
    expect(completed.duration_ms as number).toBeGreaterThanOrEqual(250);
  });

  it("keeps each job's CPU time its own while jobs at once share reused report files, and leaves none behind", async () => {
    // Busy and idle jobs alternate over 2 slots; a job that replaces its shell (exec) writes no report and
    // must not be credited with the figure a busy job left in the same file before it.
    const body = `[[values]]
name = "n"
values = ["1", "2", "3", "4", "5", "6"]

[[rules]]
name = "work"
output = ["work_{n}.txt"]
shell = '''
if [ $(( {n} % 2 )) -eq 1 ]; then
  python3 -c 'import time
t = time.process_time()
while time.process_time() - t < 0.25: pass'
  touch {output}
else
  touch {output}
  exec sleep 0.3
fi
'''
`;
    const run = await runWorkflow(body, { jobs: 2 });
    expectFinished(run, "completed");
    for (const n of [1, 3, 5]) expect(eventFor(run.events, "job_completed", `work_n_${n}`)!.cpu_ms as number, `work_n_${n}`).toBeGreaterThanOrEqual(150);
    for (const n of [2, 4, 6]) {
      const cpu = eventFor(run.events, "job_completed", `work_n_${n}`)!.cpu_ms as number | undefined;
      expect(cpu === undefined || cpu < 150, `work_n_${n}: ${cpu}`).toBe(true);
    }
    expect(readdirSync(run.result.runDir).filter((name) => name.startsWith("cpu-times"))).toEqual([]);
    for (const job of readdirSync(join(run.result.runDir, "jobs"))) expect(readdirSync(join(run.result.runDir, "jobs", job)).sort()).toEqual(["stderr.log", "stdout.log"]);
  });

  it("records peak memory: a process holding ~150 MB for 0.6 s shows at least 100 MB", async () => {
    const body = `[[rules]]
name = "hungry"
output = ["hungry.txt"]
shell = '''
python3 -c 'import time
block = b"x" * (150 * 1024 * 1024)
time.sleep(0.6)'
touch {output}
'''
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const completed = eventFor(run.events, "job_completed", "hungry")!;
    expect(completed.peak_memory_mb).toBeTypeOf("number");
    expect(completed.peak_memory_mb as number).toBeGreaterThanOrEqual(100);
    expect(completed.peak_memory_mb as number).toBeLessThan(2000);
  });

  it("a failed job's event carries exit code, duration and the stderr log path", async () => {
    const body = `[[rules]]\nname = "bad"\noutput = ["bad.txt"]\nshell = "echo first >&2; echo the last line >&2; exit 7"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "failed");
    const failed = eventFor(run.events, "job_failed", "bad")!;
    expect(failed.exit_code).toBe(7);
    expect(failed.error).toBe("exit code 7: the last line");
    expect(failed.stderr).toBe(join(run.result.runDir, "jobs", "bad", "stderr.log"));
    expect(failed.duration_ms).toBeTypeOf("number");
    expect(failed.attempts).toBe(1);
    expect(failed.required).toBe(true);
  });
});

describe("outputs after the command", () => {
  it("exit 0 with a declared output missing is a failure: exit code -1, the output named", async () => {
    const body = `[[rules]]\nname = "liar"\noutput = ["made.txt", "promised.txt"]\nshell = "touch made.txt"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "failed");
    const failed = eventFor(run.events, "job_failed", "liar")!;
    expect(failed.exit_code).toBe(-1);
    expect(failed.error).toContain("promised.txt");
    expect(eventFor(run.events, "job_completed", "liar")).toBeUndefined();
    // The output it did make is new, so it is removed with the failure.
    expect(existsSync(join(run.dir, "made.txt"))).toBe(false);
    expect(run.result.counts).toMatchObject({ failed: 1, succeeded: 0 });
  });

  it("a failed job's new partial output is removed", async () => {
    const body = `[[rules]]\nname = "partial"\noutput = ["out/part.txt"]\nshell = "echo half > {output}; exit 2"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "failed");
    expect(existsSync(join(run.dir, "out", "part.txt"))).toBe(false);
    expect(existsSync(join(run.dir, "out", "part.txt.strand-failed"))).toBe(false);
  });

  it("a pre-existing output the failed job modified is moved to <name>.strand-failed; one it left alone stays", async () => {
    const dir = tempDir();
    writeFile(dir, "old.txt", "old\n");
    writeFile(dir, "untouched.txt", "untouched\n");
    makeOld(dir, "old.txt");
    makeOld(dir, "untouched.txt");
    writeFile(dir, "in.txt", "newer input\n");
    const body = `[[rules]]\nname = "rewrite"\ninput = ["in.txt"]\noutput = ["old.txt", "untouched.txt"]\nshell = "echo new > old.txt; exit 1"\n`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "failed");
    expect(existsSync(join(dir, "old.txt"))).toBe(false);
    expect(read(dir, "old.txt.strand-failed")).toBe("new\n");
    expect(read(dir, "untouched.txt")).toBe("untouched\n");
    expect(existsSync(join(dir, "untouched.txt.strand-failed"))).toBe(false);
  });

  it("a successful job's outputs are kept as made", async () => {
    const body = `[[rules]]\nname = "good"\noutput = ["good.txt"]\nshell = "echo fine > {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "good.txt")).toBe("fine\n");
    expect(run.result.counts).toMatchObject({ total: 1, succeeded: 1 });
  });
});

describe("retries", () => {
  const FLAKY = `[[rules]]
name = "flaky"
output = ["flaky.txt"]
retries = 2
retry_delay = "1s"
shell = '''
n=$(cat count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n > count
date +%s%N >> attempts.txt
echo "attempt $n" >&2
[ $n -ge 2 ] && echo ok > {output}
'''
`;

  it("a job failing once then succeeding: one job_retrying, at least 1 s between attempts, completed with attempts 2", async () => {
    const run = await runWorkflow(FLAKY);
    expectFinished(run, "completed");
    expect(read(run.dir, "count")).toBe("2\n");
    expect(read(run.dir, "flaky.txt")).toBe("ok\n");
    const retrying = ofType(run.events, "job_retrying");
    expect(retrying).toHaveLength(1);
    expect(retrying[0]).toMatchObject({ job: "flaky", attempt: 1, attempts: 3, exit_code: 1, delay_ms: 1000 });
    const [first, second] = read(run.dir, "attempts.txt").trim().split("\n").map((line) => Number(BigInt(line) / 1_000_000n));
    expect(second! - first!).toBeGreaterThanOrEqual(1000);
    expect(eventFor(run.events, "job_completed", "flaky")!.attempts).toBe(2);
    expect(ofType(run.events, "job_started").map((event) => event.attempt)).toEqual([1, 2]);
    // Both attempts write to the same stderr log, the second one marked.
    const stderr = readFileSync(join(run.result.runDir, "jobs", "flaky", "stderr.log"), "utf8");
    expect(stderr).toContain("attempt 1\n");
    expect(stderr).toContain("[strand] attempt 2\n");
    expect(stderr).toContain("attempt 2\n");
  });

  it("retries exhausted: every attempt ran, the job fails with the number of attempts", async () => {
    const body = `[[rules]]\nname = "never"\noutput = ["never.txt"]\nretries = 1\nshell = "echo x >> tries.txt; exit 5"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "failed");
    expect(read(run.dir, "tries.txt")).toBe("x\nx\n");
    expect(ofType(run.events, "job_retrying")).toHaveLength(1);
    expect(eventFor(run.events, "job_failed", "never")).toMatchObject({ exit_code: 5, attempts: 2 });
  });

  it("the retry option gives every job extra attempts; a missing output is retried too", async () => {
    const body = `[[rules]]\nname = "late"\noutput = ["late.txt"]\nshell = "echo x >> tries.txt; [ $(wc -l < tries.txt) -ge 3 ] && touch {output}; true"\n`;
    const run = await runWorkflow(body, { retry: 2 });
    expectFinished(run, "completed");
    expect(read(run.dir, "tries.txt")).toBe("x\nx\nx\n");
    const retrying = ofType(run.events, "job_retrying");
    expect(retrying).toHaveLength(2);
    expect(retrying[0]!.error).toBe("declared output missing: late.txt");
    expect(eventFor(run.events, "job_completed", "late")!.attempts).toBe(3);
  });
});

describe("what runs around the command", () => {
  it("envvars are exported, quotes and spaces intact", async () => {
    const body = `[[rules]]
name = "env"
output = ["env.txt"]
shell = 'printf "%s|%s|%s" "$GREETING" "$QUOTED" "$SAMPLE_OUT" > {output}'
[rules.envvars]
GREETING = "hello world"
QUOTED = "it's \\"quoted\\" $HOME"
SAMPLE_OUT = "{output}"
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "env.txt")).toBe(`hello world|it's "quoted" $HOME|env.txt`);
  });

  it("[defaults] shell_prelude runs first, and applies to the whole command", async () => {
    const body = `[defaults]
shell_prelude = "set -euo pipefail; echo prelude >> order.txt"

[[rules]]
name = "ordered"
output = ["ordered.txt"]
shell = "echo command >> order.txt; touch {output}"

[[rules]]
name = "strict"
output = ["strict.txt"]
shell = '''
false
touch {output}
'''
`;
    const run = await runWorkflow(body, { keepGoing: true });
    expectFinished(run, "failed");
    expect(read(run.dir, "order.txt")).toMatch(/^prelude\ncommand\nprelude\n$|^prelude\nprelude\ncommand\n$/);
    expect(eventFor(run.events, "job_completed", "ordered")).toBeDefined();
    // set -e from the prelude stops the command at `false`.
    expect(eventFor(run.events, "job_failed", "strict")!.exit_code).toBe(1);
    expect(existsSync(join(run.dir, "strict.txt"))).toBe(false);
  });

  it("pre_exec runs before the command; when it fails the command never runs", async () => {
    const body = `[[rules]]
name = "prepared"
pre_exec = "echo pre >> order.txt"
output = ["prepared.txt"]
shell = "echo command >> order.txt; touch {output}"

[[rules]]
name = "refused"
pre_exec = "echo pre > pre.marker; exit 4"
output = ["refused.txt"]
shell = "touch ran.marker; touch {output}"
`;
    const run = await runWorkflow(body, { keepGoing: true });
    expectFinished(run, "failed");
    expect(read(run.dir, "order.txt")).toBe("pre\ncommand\n");
    const failed = eventFor(run.events, "job_failed", "refused")!;
    expect(failed.error).toMatch(/pre_exec failed with exit code 4/);
    expect(existsSync(join(run.dir, "pre.marker"))).toBe(true);
    expect(existsSync(join(run.dir, "ran.marker"))).toBe(false);
    expect(existsSync(join(run.dir, "refused.txt"))).toBe(false);
    expect(eventFor(run.events, "job_started", "refused")).toBeUndefined();
    expect(run.result.counts).toMatchObject({ succeeded: 1, failed: 1 });
  });

  it("on_success and on_failure hooks run; a failing hook does not change the job's status", async () => {
    const body = `[[rules]]
name = "winner"
output = ["winner.txt"]
shell = "touch {output}"
on_success = "echo success {output} > success.marker; exit 9"
on_failure = "touch wrong-hook.marker"

[[rules]]
name = "loser"
output = ["loser.txt"]
shell = "exit 5"
on_success = "touch wrong-hook.marker"
on_failure = "echo failure {output} > failure.marker; exit 9"
`;
    const run = await runWorkflow(body, { keepGoing: true });
    expectFinished(run, "failed");
    expect(read(run.dir, "success.marker")).toBe("success winner.txt\n");
    expect(read(run.dir, "failure.marker")).toBe("failure loser.txt\n");
    expect(existsSync(join(run.dir, "wrong-hook.marker"))).toBe(false);
    expect(eventFor(run.events, "job_completed", "winner")).toBeDefined();
    expect(eventFor(run.events, "job_failed", "loser")!.exit_code).toBe(5);
    expect(run.result.counts).toMatchObject({ succeeded: 1, failed: 1 });
  });

  it("a multi-line shell command runs entirely", async () => {
    const body = `[[rules]]
name = "lines"
output = ["lines.txt"]
shell = """
echo one > {output}
for word in two three; do
  echo $word >> {output}
done
echo four >> {output}
"""
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "lines.txt")).toBe("one\ntwo\nthree\nfour\n");
  });

  it("the job's current folder is the workdir, whatever the process's current folder", async () => {
    const body = `[[rules]]\nname = "where"\noutput = ["where.txt"]\nshell = "pwd > {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(realpathSync(read(run.dir, "where.txt").trim())).toBe(realpathSync(run.dir));
  });
});

describe("scratch, optional, temp_output", () => {
  it("scratch = true runs in .strand/scratch/… with absolute paths, and the output lands in the workdir", async () => {
    const dir = tempDir();
    writeFile(dir, "data/in.txt", "payload\n");
    const body = `[[rules]]
name = "isolated"
scratch = true
input = ["data/in.txt"]
output = ["results/out.txt"]
shell = '''
pwd > {output}
echo "{input} {output}" >> {output}
cat {input} >> {output}
touch relative-litter.txt
'''
`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "completed");
    const [cwd, paths, payload] = read(dir, "results/out.txt").trim().split("\n");
    expect(cwd!.startsWith(join(dir, ".strand", "scratch", "isolated-"))).toBe(true);
    expect(paths).toBe(`${join(dir, "data", "in.txt")} ${join(dir, "results", "out.txt")}`);
    expect(payload).toBe("payload");
    // Files made with relative paths stay in the scratch folder, not the workdir.
    expect(existsSync(join(dir, "relative-litter.txt"))).toBe(false);
  });

  it("the parent folder of a rule's log is created, and {log} is the path as written", async () => {
    const body = `[[rules]]\nname = "logged"\nlog = "logs/deep/logged.log"\noutput = ["logged.txt"]\nshell = "echo into the log > {log}; touch {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "logs/deep/logged.log")).toBe("into the log\n");
  });

  // A scratch job gets absolute {input}/{output}, but {log} stays relative: the engine makes the log's folder
  // in the workdir, while the job writes (or fails to write) the log inside the scratch folder, which is
  // deleted on success. The redirect fails silently and the job still "succeeds" (see the report).
  it("a scratch job's {log} lands in the workdir", async () => {
    const body = `[[rules]]\nname = "isolated"\nscratch = true\nlog = "logs/isolated.log"\noutput = ["results/out.txt"]\nshell = "echo into the log > {log}; touch {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "logs/isolated.log")).toBe("into the log\n");
  });

  // Hooks of a scratch job run in the scratch folder but are rendered with the job's relative paths, so
  // {output} in on_success points at nothing (see the report).
  it("a scratch job's on_success hook sees its {output}", async () => {
    const body = `[[rules]]\nname = "isolated"\nscratch = true\noutput = ["results/out.txt"]\nshell = "echo made > {output}"\non_success = "cp {output} {output}.copy"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "results/out.txt.copy")).toBe("made\n");
  });

  it("optional = true with a missing input skips the job (job_skipped, optional-inputs-missing)", async () => {
    const body = `[[rules]]\nname = "maybe"\noptional = true\ninput = ["absent.txt"]\noutput = ["maybe.txt"]\nshell = "touch ran.marker; touch {output}"\n`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    const skipped = eventFor(run.events, "job_skipped", "maybe")!;
    expect((skipped.reason as { code: string }).code).toBe("optional-inputs-missing");
    expect((skipped.reason as { text: string }).text).toContain("absent.txt");
    expect(existsSync(join(run.dir, "ran.marker"))).toBe(false);
    expect(eventFor(run.events, "job_started", "maybe")).toBeUndefined();
    expect(run.result.counts).toMatchObject({ total: 1, skipped: 1, failed: 0, succeeded: 0 });
  });

  it("temp_output is deleted when the rule fails, even a pre-existing file the job did not touch", async () => {
    const dir = tempDir();
    writeFile(dir, "cache.tmp", "old cache\n");
    makeOld(dir, "cache.tmp");
    const body = `[[rules]]
name = "breaks"
output = ["final.txt", "cache.tmp"]
temp_output = ["cache.tmp", "work/scratch.tmp"]
shell = "mkdir -p work; echo junk > work/scratch.tmp; echo half > final.txt; exit 1"
`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "failed");
    expect(existsSync(join(dir, "cache.tmp"))).toBe(false);
    expect(existsSync(join(dir, "work", "scratch.tmp"))).toBe(false);
    expect(existsSync(join(dir, "final.txt"))).toBe(false);
  });

  it("temp_output is deleted once its consumer has succeeded (Decision 4), and kept while no consumer ran", async () => {
    const body = `[[rules]]
name = "make"
output = ["big.tmp", "keep.txt"]
temp_output = ["big.tmp"]
shell = "echo big > big.tmp; echo keep > keep.txt"

[[rules]]
name = "use"
input = ["big.tmp"]
output = ["used.txt"]
shell = "cat {input} > {output}"
`;
    const run = await runWorkflow(body);
    expectFinished(run, "completed");
    expect(read(run.dir, "used.txt")).toBe("big\n");
    expect(existsSync(join(run.dir, "big.tmp"))).toBe(false);
    expect(read(run.dir, "keep.txt")).toBe("keep\n");
  });
});

describe("venv environment", () => {
  it("runs the whole (multi-line) command inside the venv", async () => {
    const dir = tempDir();
    const venv = join(dir, "env", "venv");
    execFileSync("python3", ["-m", "venv", "--without-pip", venv]);
    const body = `[[rules]]
name = "inside"
output = ["prefix.txt"]
shell = '''
python -c 'import sys; print(sys.prefix)' > {output}
echo "$VIRTUAL_ENV" >> {output}
command -v python >> {output}
'''
[rules.environment]
venv = "${venv}"
`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "completed");
    const [prefix, virtualEnv, python] = read(dir, "prefix.txt").trim().split("\n");
    expect(realpathSync(prefix!)).toBe(realpathSync(venv));
    expect(realpathSync(virtualEnv!)).toBe(realpathSync(venv));
    expect(python).toBe(join(venv, "bin", "python"));
  });

  it("a venv written relative to the workdir works", async () => {
    const dir = tempDir();
    execFileSync("python3", ["-m", "venv", "--without-pip", join(dir, "venv")]);
    const body = `[[rules]]\nname = "inside"\noutput = ["prefix.txt"]\nshell = "python -c 'import sys; print(sys.prefix)' > {output}"\n[rules.environment]\nvenv = "venv"\n`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "completed");
    expect(realpathSync(read(dir, "prefix.txt").trim())).toBe(realpathSync(join(dir, "venv")));
  });

  // A scratch job runs in .strand/scratch/…, but the venv activation path is left relative, so `source
  // venv/bin/activate` looks for it in the scratch folder (see the report).
  it("a venv written relative to the workdir works for a scratch job too", async () => {
    const dir = tempDir();
    execFileSync("python3", ["-m", "venv", "--without-pip", join(dir, "venv")]);
    const body = `[[rules]]\nname = "inside"\nscratch = true\noutput = ["prefix.txt"]\nshell = "python -c 'import sys; print(sys.prefix)' > {output}"\n[rules.environment]\nvenv = "venv"\n`;
    const run = await runWorkflow(body, {}, dir);
    expectFinished(run, "completed");
    expect(realpathSync(read(dir, "prefix.txt").trim())).toBe(realpathSync(join(dir, "venv")));
  });
});
