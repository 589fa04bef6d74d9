/**
 * ClusterExecutor against a real one-node SLURM cluster (scripts/slurm-local.sh): successful and failing
 * jobs, one status command per poll for every job in flight, cancelAll with a real scancel, a flaky sbatch
 * retried with backoff, and reconciliation after an engine restart (a new executor adopts the job the old
 * one submitted instead of submitting it again).
 *
 * The scheduler's programs are reached through logging shims on PATH, so the tests can count the calls.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { ClusterExecutor, type ClusterExecutorOptions } from "../../../../src/engine/run/cluster/cluster-executor.js";
import { recordPath, type SubmissionRecord } from "../../../../src/engine/run/cluster/submission-records.js";
import type { AttemptResult, JobSpec } from "../../../../src/engine/run/executor.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../../support/slurm-cluster.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

afterAll(removeTempDirs);

const POLL_MS = 400;
const PROGRAMS = ["sbatch", "squeue", "sacct", "scontrol", "scancel"];

interface Shims {
  env: NodeJS.ProcessEnv;
  /** Logged calls as "program args…", optionally of one program only. */
  calls: (program?: string) => string[];
  /** Makes the next `count` sbatch calls fail like a busy controller. */
  failSbatch: (count: number) => void;
  /** Makes squeue fail like an unreachable controller (true) or work again (false). */
  breakSqueue: (broken: boolean) => void;
}

/** Logging wrappers around the real SLURM programs; sbatch can be told to fail a few times first. */
function shims(): Shims {
  const dir = tempDir();
  const log = join(dir, "calls.log");
  for (const program of PROGRAMS) {
    const failing =
      program === "sbatch"
        ? `n=$(cat "${dir}/sbatch-failures" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "${dir}/sbatch-failures"; echo "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation" >&2; exit 1; fi
`
        : program === "squeue"
          ? `if [ -e "${dir}/squeue-broken" ]; then echo "squeue: error: Unable to contact slurm controller (connect failure)" >&2; exit 1; fi
`
          : "";
    // The shim's folder leads PATH; dropping it makes `exec` find the real program.
    const path = writeFile(dir, `bin/${program}`, `#!/bin/bash\necho "${program} $*" >> "${log}"\n${failing}export PATH="\${PATH#${dir}/bin:}"\nexec ${program} "$@"\n`);
    chmodSync(path, 0o755);
  }
  return {
    env: { ...process.env, PATH: `${join(dir, "bin")}:${process.env.PATH}` },
    calls: (program) => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []).filter((line) => !program || line.startsWith(`${program} `)),
    failSbatch: (count) => writeFileSync(join(dir, "sbatch-failures"), String(count)),
    breakSqueue: (broken) => (broken ? writeFileSync(join(dir, "squeue-broken"), "") : rmSync(join(dir, "squeue-broken"), { force: true })),
  };
}

function spec(workdir: string, name: string, command: string, extra: Partial<JobSpec> = {}): JobSpec {
  return {
    name,
    rule: name.replace(/_.*/, ""),
    command,
    cwd: workdir,
    threads: 1,
    memory: "100M",
    stdoutPath: join(workdir, ".strand", "runs", "r1", "logs", `${name}.out`),
    stderrPath: join(workdir, ".strand", "runs", "r1", "logs", `${name}.err`),
    attempt: 1,
    fingerprint: `fp-${name}-${command}`,
    ...extra,
  };
}

function executor(workdir: string, env: NodeJS.ProcessEnv, extra: Partial<ClusterExecutorOptions> = {}): ClusterExecutor {
  return new ClusterExecutor({ backend: "slurm", workdir, runDir: join(workdir, ".strand", "runs", "r1"), pollIntervalMs: POLL_MS, retryBaseMs: 50, env, ...extra });
}

/** Runs an attempt, recording the native ids `started` reports and the log lines. */
function start(runner: ClusterExecutor, job: JobSpec): { result: Promise<AttemptResult>; started: string[]; logs: string[] } {
  const started: string[] = [];
  const logs: string[] = [];
  const result = runner.run(job, { started: (id) => started.push(id ?? "?"), log: (message) => logs.push(message) });
  return { result, started, logs };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function squeueState(id: string, all = false): Promise<string> {
  const result = await execa("squeue", ["-h", "-o", "%T", ...(all ? ["-t", "all"] : []), "-j", id], { reject: false });
  return String(result.stdout).trim();
}

describe.skipIf(!slurm)("ClusterExecutor on a real SLURM cluster", () => {
  it("runs jobs to success and failure, polling every job in flight with one squeue", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    expect(runner.kind).toBe("slurm");
    expect(runner.maxInFlight).toBe(50);
    const ok = start(runner, spec(workdir, "hello_S1", "echo hello from $SLURM_JOB_ID > hello.txt\necho to-stdout"));
    const bad = start(runner, spec(workdir, "broken_S1", "echo about to fail >&2\nexit 3"));
    const slow = start(runner, spec(workdir, "slow_S1", "sleep 2; echo slow > slow.txt"));
    const [okResult, badResult, slowResult] = await Promise.all([ok.result, bad.result, slow.result]);
    await runner.close();

    expect(okResult).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: ok.started[0] });
    expect(ok.started[0]).toMatch(/^\d+$/);
    expect(readFileSync(join(workdir, "hello.txt"), "utf8")).toBe(`hello from ${ok.started[0]}\n`);
    expect(readFileSync(join(workdir, ".strand/runs/r1/logs/hello_S1.out"), "utf8")).toBe("to-stdout\n");

    expect(badResult).toMatchObject({ status: "failed", exitCode: 3, nativeId: bad.started[0] });
    expect(badResult.message).toBe(`SLURM job ${bad.started[0]} ended FAILED (exit 3); see ${join(workdir, ".strand/runs/r1/logs/broken_S1.err")}`);
    expect(readFileSync(join(workdir, ".strand/runs/r1/logs/broken_S1.err"), "utf8")).toBe("about to fail\n");

    expect(slowResult).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(slowResult.wallMs).toBeGreaterThanOrEqual(1500);

    // The job script is kept in the run folder; the records are gone once the results are delivered.
    const script = readFileSync(join(workdir, ".strand/runs/r1/jobs/hello_S1/job.sh"), "utf8");
    // Named by rule and submission number (no --run-id here), never by the instance name with its sample.
    expect(script).toMatch(/^#SBATCH --job-name=hello-[123]\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=100M\n/m);
    const numbers = ["hello_S1", "broken_S1", "slow_S1"].map((job) => Number(/--job-name=[a-z]+-(\d+)$/m.exec(readFileSync(join(workdir, `.strand/runs/r1/jobs/${job}/job.sh`), "utf8"))?.[1]));
    expect(numbers.sort()).toEqual([1, 2, 3]);
    expect(readFileSync(join(workdir, ".strand/runs/r1/jobs/hello_S1/job.id"), "utf8")).toBe(`${ok.started[0]}\n`);
    expect(existsSync(recordPath(workdir, "hello_S1"))).toBe(false);

    // Every poll asks about all jobs still in flight in one call; the first one covers all three.
    const ids = [ok.started[0], bad.started[0], slow.started[0]];
    const firstPoll = calls("squeue")[0]!;
    expect(firstPoll).toMatch(/^squeue -h -o %i %T -t all -j [\d,]+$/);
    expect(firstPoll.split(" -j ")[1]!.split(",").sort()).toEqual([...ids].sort());
    expect(calls("sbatch")).toHaveLength(3);
  });

  it("cancels every job in flight with scancel", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    const long = start(runner, spec(workdir, "long_S1", "sleep 300"));
    const longer = start(runner, spec(workdir, "long_S2", "sleep 300"));
    await until(() => long.started.length === 1 && longer.started.length === 1, "both submissions");
    await until(async () => (await squeueState(long.started[0]!)) === "RUNNING", "the job to run");
    await runner.cancelAll(5000);
    const [result, other] = await Promise.all([long.result, longer.result]);
    await runner.close();

    expect(result).toMatchObject({ status: "cancelled", nativeId: long.started[0] });
    expect(other).toMatchObject({ status: "cancelled", nativeId: longer.started[0] });
    const cancels = calls("scancel");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.split(" ").slice(1).sort()).toEqual([long.started[0], longer.started[0]].sort());
    expect(await squeueState(long.started[0]!)).toBe("");
    expect(await squeueState(long.started[0]!, true)).toBe("CANCELLED");
    expect(existsSync(recordPath(workdir, "long_S1"))).toBe(false);
  });

  it("cancels a job whose submission was under way when cancelAll came", async () => {
    const workdir = tempDir();
    const { env, calls, failSbatch } = shims();
    failSbatch(1); // keeps the submission busy (one retry) while cancelAll starts
    const runner = executor(workdir, env, { retryBaseMs: 300 });
    const job = start(runner, spec(workdir, "racing_S1", "sleep 300"));
    await until(() => calls("sbatch").length === 1, "the first sbatch try");
    await runner.cancelAll(3000);
    const result = await job.result;
    await runner.close();
    expect(job.started).toHaveLength(1);
    expect(result).toMatchObject({ status: "cancelled", nativeId: job.started[0] });
    expect(calls("scancel")).toEqual([`scancel ${job.started[0]}`]);
    expect(await squeueState(job.started[0]!)).toBe("");
  });

  it("submits a run that starts after cancelAll as usual", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    await runner.cancelAll(1000);
    const late = start(runner, spec(workdir, "late_S1", "true"));
    // A run that starts after cancelAll is a new run: it is submitted normally.
    expect((await late.result).status).toBe("succeeded");
    await runner.close();
    expect(calls("sbatch")).toHaveLength(1);
  });

  it("fails the attempt when the scheduler stops answering, keeps the record, and a new executor adopts the job", async () => {
    const workdir = tempDir();
    const { env, calls, breakSqueue } = shims();
    const job = spec(workdir, "unpolled_S1", "sleep 2; echo polled > polled.txt");
    const logs: string[] = [];
    const first = executor(workdir, env, { retryBaseMs: 20, maxRetries: 1, log: (message) => logs.push(message) });
    const attempt = start(first, job);
    await until(() => attempt.started.length === 1, "the submission");
    breakSqueue(true);
    const failed = await attempt.result;
    await first.close();
    const id = attempt.started[0]!;
    expect(failed.status).toBe("failed");
    expect(failed.message).toBe(
      `could not get job states from SLURM: squeue -h -o %i %T -t all -j ${id} failed 2 times; last: exit 1: squeue: error: Unable to contact slurm controller (connect failure); job ${id} may still be running`,
    );
    expect(logs[0]).toBe("squeue failed (exit 1: squeue: error: Unable to contact slurm controller (connect failure)); retry 1 of 1 in 20 ms");
    expect(existsSync(recordPath(workdir, "unpolled_S1"))).toBe(true);

    breakSqueue(false);
    const second = executor(workdir, env);
    const adopted = start(second, job);
    expect(await adopted.result).toMatchObject({ status: "succeeded", nativeId: id });
    await second.close();
    expect(adopted.started).toEqual([id]);
    expect(calls("sbatch")).toHaveLength(1);
  });

  it("retries a flaky sbatch with backoff instead of failing the attempt", async () => {
    const workdir = tempDir();
    const { env, calls, failSbatch } = shims();
    failSbatch(2);
    const runner = executor(workdir, env, { retryBaseMs: 100 });
    const job = start(runner, spec(workdir, "flaky_S1", "echo ok > flaky.txt"));
    const result = await job.result;
    await runner.close();
    expect(result).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(calls("sbatch")).toHaveLength(3);
    expect(job.logs).toEqual([
      "sbatch failed (exit 1: sbatch: error: Batch job submission failed: Socket timed out on send/recv operation); retry 1 of 5 in 100 ms",
      "sbatch failed (exit 1: sbatch: error: Batch job submission failed: Socket timed out on send/recv operation); retry 2 of 5 in 200 ms",
    ]);
    expect(readFileSync(join(workdir, "flaky.txt"), "utf8")).toBe("ok\n");
  });

  it("fails the attempt once sbatch has failed more times than the retries allow", async () => {
    const workdir = tempDir();
    const { env, calls, failSbatch } = shims();
    failSbatch(10);
    const runner = executor(workdir, env, { retryBaseMs: 10, maxRetries: 2 });
    const result = await start(runner, spec(workdir, "never_S1", "true")).result;
    await runner.close();
    expect(result.status).toBe("failed");
    expect(result.exitCode).toBeNull();
    expect(result.message).toMatch(/^SLURM: sbatch --parsable < \(the job script\) failed 3 times; last: exit 1: sbatch: error: Batch job submission failed: Socket timed out/);
    expect(calls("sbatch")).toHaveLength(3);
    expect(existsSync(recordPath(workdir, "never_S1"))).toBe(false);
  });

  it("fails at once, naming the reason, when SLURM refuses the job", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    const result = await start(runner, spec(workdir, "refused_S1", "true", { cluster: { partition: "no-such-partition", extra_args: [] } })).result;
    await runner.close();
    expect(result.status).toBe("failed");
    expect(result.message).toMatch(/invalid partition name specified/i);
    expect(calls("sbatch")).toHaveLength(1);
  });

  it("adopts a running job after a restart instead of submitting it again", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const job = spec(workdir, "adopt_S1", "sleep 3; echo adopted > adopted.txt");
    const first = executor(workdir, env);
    const before = start(first, job);
    await until(() => before.started.length === 1, "the submission");
    const id = before.started[0]!;
    const record = JSON.parse(readFileSync(recordPath(workdir, "adopt_S1"), "utf8")) as SubmissionRecord;
    expect(record).toMatchObject({ id, name: "adopt-1", backend: "slurm", fingerprint: job.fingerprint, attempt: 1 });
    expect(Number.isNaN(Date.parse(record.submitted_at))).toBe(false);

    // The engine goes away: the old executor stops waiting, the record stays.
    await first.close();
    expect((await before.result).status).toBe("failed");
    expect(existsSync(recordPath(workdir, "adopt_S1"))).toBe(true);

    const second = executor(workdir, env);
    const after = start(second, job);
    const result = await after.result;
    await second.close();
    expect(after.started).toEqual([id]);
    expect(result).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: id });
    expect(calls("sbatch")).toHaveLength(1);
    expect(readFileSync(join(workdir, "adopted.txt"), "utf8")).toBe("adopted\n");
    expect(existsSync(recordPath(workdir, "adopt_S1"))).toBe(false);
  });

  it("names a given run's jobs strand-<run id>-<n>, and a restarted engine numbers on after the jobs it may adopt", async () => {
    const workdir = tempDir();
    const { env } = shims();
    const first = executor(workdir, env, { runId: "run-42" });
    const waiting = spec(workdir, "wait_PATIENT-0042", "sleep 3");
    const before = start(first, waiting);
    await until(() => before.started.length === 1, "the submission");
    await first.close();
    const second = executor(workdir, env, { runId: "run-42" });
    const fresh = start(second, spec(workdir, "next_PATIENT-0042", "true"));
    const adopted = start(second, waiting);
    await Promise.all([fresh.result, adopted.result]);
    await second.close();
    const nameOf = (job: string) => /^#SBATCH --job-name=(.*)$/m.exec(readFileSync(join(workdir, `.strand/runs/r1/jobs/${job}/job.sh`), "utf8"))?.[1];
    expect(nameOf("wait_PATIENT-0042")).toBe("strand-run-42-1");
    expect(nameOf("next_PATIENT-0042")).toBe("strand-run-42-2");
    expect(adopted.started).toEqual(before.started);
  });

  it("adopts a job that succeeded while the engine was down, and resubmits one that failed", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const good = spec(workdir, "done_S1", "echo done");
    const bad = spec(workdir, "lost_S1", "exit 4");
    const first = executor(workdir, env);
    const a = start(first, good);
    const b = start(first, bad);
    await until(() => a.started.length === 1 && b.started.length === 1, "the submissions");
    await first.close();
    await until(async () => (await squeueState(a.started[0]!, true)) === "COMPLETED" && (await squeueState(b.started[0]!, true)) === "FAILED", "both jobs to end");

    const second = executor(workdir, env);
    const again = start(second, good);
    const retried = start(second, bad);
    const [adopted, rerun] = await Promise.all([again.result, retried.result]);
    await second.close();
    expect(adopted).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: a.started[0] });
    expect(adopted.message).toBe(`adopted SLURM job ${a.started[0]}, which had already succeeded`);
    expect(rerun).toMatchObject({ status: "failed", exitCode: 4 });
    expect(rerun.nativeId).not.toBe(b.started[0]);
    expect(calls("sbatch")).toHaveLength(3);
  });

  it("does not adopt a job submitted for a different definition; it cancels it and submits anew", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const first = executor(workdir, env);
    const old = start(first, spec(workdir, "changed_S1", "sleep 300", { fingerprint: "old" }));
    await until(() => old.started.length === 1, "the submission");
    await first.close();

    const logs: string[] = [];
    const second = executor(workdir, env, { log: (message) => logs.push(message) });
    const fresh = start(second, spec(workdir, "changed_S1", "echo new", { fingerprint: "new" }));
    const result = await fresh.result;
    await second.close();
    expect(result).toMatchObject({ status: "succeeded" });
    expect(fresh.started[0]).not.toBe(old.started[0]);
    expect(calls("scancel")).toEqual([`scancel ${old.started[0]}`]);
    expect(logs[0]).toBe(`job changed_S1: SLURM job ${old.started[0]} was submitted for a different definition of the job; it is cancelled if still queued, and the job is submitted anew`);
    await until(async () => (await squeueState(old.started[0]!)) === "", "the old job to leave the queue");
  });

  it("submits the script it wrote, from memory: a job.sh swapped before sbatch reads it is not what runs (issue 25, finding 3)", async () => {
    const workdir = tempDir();
    const { env } = shims();
    const marker = join(tempDir(), "swapped-script-ran");
    // Between the engine writing job.sh and sbatch reading it, another job of the run replaces it (here the
    // sbatch shim does, so the race is won every time).
    const swapper = writeFile(
      tempDir(),
      "bin/sbatch",
      `#!/bin/bash\nfor script in "${workdir}"/.strand/runs/r1/jobs/*/job.sh; do printf '#!/bin/bash\\ntouch ${marker}\\n' > "$script"; done\nexport PATH="\${PATH#*/bin:}"\nexec sbatch "$@"\n`,
    );
    chmodSync(swapper, 0o755);
    // After the logging shims (which expect to lead PATH), before the real sbatch.
    const [shimBin, ...rest] = env.PATH!.split(":");
    const runner = executor(workdir, { ...env, PATH: [shimBin, join(swapper, ".."), ...rest].join(":") });
    const job = start(runner, spec(workdir, "swapped_S1", "echo the-engines-own > own.txt"));
    const result = await job.result;
    await runner.close();
    expect(existsSync(marker), "sbatch ran the swapped job.sh").toBe(false);
    expect(result).toMatchObject({ status: "succeeded" });
    expect(readFileSync(join(workdir, "own.txt"), "utf8")).toBe("the-engines-own\n");
  });

  it("writes its copy of job.sh without following a link planted there", async () => {
    const workdir = tempDir();
    const { env } = shims();
    const target = join(tempDir(), "planted-target");
    mkdirSync(join(workdir, ".strand/runs/r1/jobs/linked_S1"), { recursive: true });
    symlinkSync(target, join(workdir, ".strand/runs/r1/jobs/linked_S1/job.sh"));
    const runner = executor(workdir, env);
    const result = await start(runner, spec(workdir, "linked_S1", "echo ran > linked.txt")).result;
    await runner.close();
    expect(result).toMatchObject({ status: "succeeded" });
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(join(workdir, ".strand/runs/r1/jobs/linked_S1/job.sh")).isFile()).toBe(true);
    expect(readFileSync(join(workdir, ".strand/runs/r1/jobs/linked_S1/job.sh"), "utf8")).toMatch(/^#SBATCH --job-name=linked-1$/m);
  });

  it("neither cancels nor adopts a job of another run that a forged submission record names (issue 25, finding 3)", async () => {
    const { env, calls } = shims();
    // Another user's run, with a job in the queue.
    const otherWorkdir = tempDir();
    const other = executor(otherWorkdir, env, { runId: "other-run" });
    const victim = start(other, spec(otherWorkdir, "victim_S1", "sleep 300"));
    await until(() => victim.started.length === 1, "the other run's submission");
    const victimId = victim.started[0]!;
    await other.close();

    // A job of this run wrote records naming the other run's job: one for a different definition (the engine
    // would cancel it) and one for the same definition (the engine would adopt it, then wait for it).
    const workdir = tempDir();
    const forged = (job: JobSpec, fingerprint: string) =>
      writeFile(workdir, `.strand/cluster/${job.name}.json`, JSON.stringify({ id: victimId, name: `strand-other-run-1`, backend: "slurm", fingerprint, submitted_at: new Date().toISOString(), attempt: 1, script: "job.sh" }));
    const changed = spec(workdir, "changed_S1", "echo changed > changed.txt");
    const same = spec(workdir, "same_S1", "echo same > same.txt");
    forged(changed, "another-definition");
    forged(same, same.fingerprint);
    const logs: string[] = [];
    const runner = executor(workdir, env, { runId: "this-run", log: (message) => logs.push(message) });
    const [changedResult, sameResult] = await Promise.all([start(runner, changed).result, start(runner, same).result]);
    await runner.close();
    expect(calls("scancel"), "the engine cancelled another run's job").toEqual([]);
    expect(await squeueState(victimId)).toMatch(/PENDING|RUNNING/);
    expect(changedResult).toMatchObject({ status: "succeeded" });
    expect(sameResult).toMatchObject({ status: "succeeded" });
    expect(sameResult.nativeId).not.toBe(victimId);
    expect(readFileSync(join(workdir, "same.txt"), "utf8")).toBe("same\n");
    expect(logs.filter((line) => line.includes("not one of this run's jobs"))).toHaveLength(2);
    await execa("scancel", [victimId]);
  });
});
