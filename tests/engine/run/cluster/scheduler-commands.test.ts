/**
 * Scheduler commands with retries: real fake programs (shell scripts with a counter file) that fail a few
 * times, then answer; permanent refusals that are not retried; time-outs; a missing program.
 */
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY_POLICY, isTransientFailure, schedulerCommandRunner, type RetryPolicy } from "../../../../src/engine/run/cluster/scheduler-commands.js";
import { EngineError } from "../../../../src/engine/findings.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

afterAll(removeTempDirs);

const FAST: RetryPolicy = { baseMs: 20, maxRetries: 4, maxDelayMs: 1000, timeoutMs: 10_000 };

/**
 * A folder with an executable `NAME` that fails the first `failures` calls with `stderr`, then prints
 * `stdout`; every call appends its arguments to `calls.log`.
 */
function fakeProgram(name: string, options: { failures: number; stderr: string; stdout: string; sleepSeconds?: number }): { bin: string; calls: () => string[] } {
  const dir = tempDir();
  const program = writeFile(
    dir,
    `bin/${name}`,
    `#!/bin/bash
echo "$*" >> "${dir}/calls.log"
n=$(cat "${dir}/count" 2>/dev/null || echo 0)
echo $((n + 1)) > "${dir}/count"
if [ "$n" -lt ${options.failures} ]; then
  ${options.sleepSeconds ? `exec sleep ${options.sleepSeconds}` : ":"}
  echo "${options.stderr}" >&2
  exit 1
fi
echo "${options.stdout}"
`,
  );
  chmodSync(program, 0o755);
  return {
    bin: join(dir, "bin"),
    calls: () => readFileSync(join(dir, "calls.log"), "utf8").trim().split("\n"),
  };
}

const withPath = (bin: string): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${bin}:${process.env.PATH}` });

describe("retries", () => {
  it("retries a failing sbatch with growing delays until it answers", async () => {
    const fake = fakeProgram("sbatch", { failures: 2, stderr: "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation", stdout: "4242" });
    const messages: string[] = [];
    const run = schedulerCommandRunner(FAST, withPath(fake.bin));
    const started = Date.now();
    const outcome = await run({ file: "sbatch", args: ["--parsable", "job.sh"] }, { log: (message) => messages.push(message) });
    expect(outcome.stdout.trim()).toBe("4242");
    expect(fake.calls()).toEqual(["--parsable job.sh", "--parsable job.sh", "--parsable job.sh"]);
    expect(messages).toEqual([
      "sbatch failed (exit 1: sbatch: error: Batch job submission failed: Socket timed out on send/recv operation); retry 1 of 4 in 20 ms",
      "sbatch failed (exit 1: sbatch: error: Batch job submission failed: Socket timed out on send/recv operation); retry 2 of 4 in 40 ms",
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  it("fails with a clear message once the retries are used up", async () => {
    const fake = fakeProgram("squeue", { failures: 100, stderr: "squeue: error: Unable to contact slurm controller (connect failure)", stdout: "" });
    const run = schedulerCommandRunner({ ...FAST, maxRetries: 2 }, withPath(fake.bin));
    const error = await run({ file: "squeue", args: ["-h"] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toBe("squeue -h failed 3 times; last: exit 1: squeue: error: Unable to contact slurm controller (connect failure)");
    expect((error as EngineError).finding.suggestion).toMatch(/controller is up/);
    expect(fake.calls()).toHaveLength(3);
  });

  it("does not retry a refusal that a retry cannot fix", async () => {
    const fake = fakeProgram("sbatch", { failures: 100, stderr: "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified", stdout: "" });
    const run = schedulerCommandRunner(FAST, withPath(fake.bin));
    const error = (await run({ file: "sbatch", args: ["job.sh"] }).catch((caught: unknown) => caught)) as EngineError;
    expect(error.message).toBe("sbatch job.sh failed: exit 1: sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified");
    expect(fake.calls()).toHaveLength(1);
  });

  it("kills a command that hangs and retries it", async () => {
    const fake = fakeProgram("squeue", { failures: 1, stderr: "late", stdout: "1 RUNNING", sleepSeconds: 30 });
    const messages: string[] = [];
    const run = schedulerCommandRunner({ ...FAST, timeoutMs: 300 }, withPath(fake.bin));
    const outcome = await run({ file: "squeue", args: [] }, { log: (message) => messages.push(message) });
    expect(outcome.stdout.trim()).toBe("1 RUNNING");
    expect(messages[0]).toBe("squeue failed (no answer within 300 ms); retry 1 of 4 in 20 ms");
  });

  it("treats a listed non-zero answer as an answer", async () => {
    const fake = fakeProgram("squeue", { failures: 100, stderr: "slurm_load_jobs error: Invalid job id specified", stdout: "" });
    const run = schedulerCommandRunner(FAST, withPath(fake.bin));
    const outcome = await run({ file: "squeue", args: ["-j", "999"] }, { answers: /invalid job id/i });
    expect(outcome).toEqual({ stdout: "", stderr: "slurm_load_jobs error: Invalid job id specified", exitCode: 1 });
    expect(fake.calls()).toHaveLength(1);
  });

  it("says so when the scheduler's programs are not installed", async () => {
    const run = schedulerCommandRunner(FAST);
    const error = (await run({ file: "strand-no-such-sbatch", args: [] }).catch((caught: unknown) => caught)) as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.message).toBe("strand-no-such-sbatch was not found: the scheduler's commands are not installed here");
  });

  it("feeds a script's text on stdin (the job script is submitted from memory), on every try", async () => {
    const fake = fakeProgram("bsub", { failures: 1, stderr: "bsub: LSF is down, please wait", stdout: "Job <7> is submitted" });
    const seen = writeFile(tempDir(), "seen.sh", `#!/bin/bash\ncat >> "$(dirname "$0")/stdin.log"\nexec "${join(fake.bin, "bsub")}" "$@"\n`);
    chmodSync(seen, 0o755);
    const run = schedulerCommandRunner(FAST);
    const outcome = await run({ file: seen, args: [], stdin: "#BSUB -J x\necho hi\n" });
    expect(outcome.stdout).toBe("Job <7> is submitted");
    expect(readFileSync(join(seen, "..", "stdin.log"), "utf8")).toBe("#BSUB -J x\necho hi\n#BSUB -J x\necho hi\n");
    expect((await run({ file: "cat", args: [], stdin: "#SBATCH -J x\n" })).stdout).toBe("#SBATCH -J x");
  });
});

describe("a shared service's engine", () => {
  it("runs scheduler commands in / with HOME=/, never in the job-writable workspace or its home (qsub reads .sge_request from both)", async () => {
    const workspace = tempDir();
    const where = writeFile(tempDir(), "where.sh", `#!/bin/bash\necho "$PWD $HOME"\n`);
    chmodSync(where, 0o755);
    const env = { ...process.env, HOME: join(workspace, ".strand", "home") };
    expect((await schedulerCommandRunner(FAST, env, true)({ file: where, args: [], cwd: workspace })).stdout).toBe("/ /");
    // A person's own runs keep their folder and home.
    expect((await schedulerCommandRunner(FAST, env)({ file: where, args: [], cwd: workspace })).stdout).toBe(`${workspace} ${env.HOME}`);
  });
});

describe("backoff", () => {
  it("doubles from the base and caps the delay", () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(DEFAULT_RETRY_POLICY, retry))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffDelay({ ...DEFAULT_RETRY_POLICY, maxDelayMs: 5000 }, 5)).toBe(5000);
  });

  it("classifies failures", () => {
    expect(isTransientFailure("sbatch: error: Batch job submission failed: Socket timed out on send/recv operation")).toBe(true);
    expect(isTransientFailure("sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)")).toBe(true);
    expect(isTransientFailure("sbatch: error: Batch job submission failed: Resource temporarily unavailable")).toBe(true);
    expect(isTransientFailure("")).toBe(true);
    expect(isTransientFailure("sbatch: error: Batch job submission failed: Invalid partition name specified")).toBe(false);
    expect(isTransientFailure("sbatch: unrecognized option '--bogus'")).toBe(false);
    expect(isTransientFailure("qsub: Unknown option")).toBe(false);
    // Grid Engine's qsub, as real GE 8.1.9 words its refusals and a qmaster that does not answer
    expect(isTransientFailure('Unable to run job: Job was rejected because job requests unknown queue "no-such-queue"\nExiting.')).toBe(false);
    expect(isTransientFailure('Unable to run job: job rejected: the requested parallel environment "nosuch" does not exist\nExiting.')).toBe(false);
    expect(isTransientFailure('Unable to run job: unknown resource "gpu"\nExiting.')).toBe(false);
    expect(isTransientFailure('Unable to run job: attribute "h_vmem" is not a memory value\nExiting.')).toBe(false);
    expect(isTransientFailure("Unable to run job: failed receiving gdi request response for mid=1 (got no message).\nExiting.")).toBe(true);
    expect(isTransientFailure('error: commlib error: got select error (Connection refused)\nerror: unable to send message to qmaster using port 6444 on host "vm": got send error')).toBe(true);
  });
});
