/**
 * ClusterExecutor against a real one-node Grid Engine (Debian's Son of Grid Engine 8.1.9, started by
 * scripts/gridengine-local.sh): jobs run to success and failure under bash, one `qstat` per poll for every job
 * in flight, exit codes and the granted resources from `qacct`, a finished job that stays known until qmaster
 * has written its accounting record, a walltime Grid Engine enforces, cancelAll with a real qdel of running and
 * queued jobs (real qstat then lists none of them), a refused submission, and adoption after an engine restart.
 *
 * The scheduler's programs are reached through logging shims on PATH, so the tests can count the calls.
 */
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { ClusterExecutor, type ClusterExecutorOptions } from "../../../../src/engine/run/cluster/cluster-executor.js";
import { schedulerCommandRunner } from "../../../../src/engine/run/cluster/scheduler-commands.js";
import { createBackend } from "../../../../src/engine/run/cluster/scheduler-registry.js";
import { recordPath } from "../../../../src/engine/run/cluster/submission-records.js";
import type { AttemptResult, JobSpec } from "../../../../src/engine/run/executor.js";
import { ensureGridEngine, failWithoutGridEngineWhenStrict } from "../../../support/gridengine-cluster.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

const gridEngine = await ensureGridEngine();
failWithoutGridEngineWhenStrict(gridEngine);

afterAll(removeTempDirs);

const POLL_MS = 1000;
const PROGRAMS = ["qsub", "qstat", "qacct", "qdel"];

interface Shims {
  env: NodeJS.ProcessEnv;
  /** Logged calls as "program args…", optionally of one program only. */
  calls: (program?: string) => string[];
}

/** Logging wrappers around the real Grid Engine programs. */
function shims(): Shims {
  const dir = tempDir();
  const log = join(dir, "calls.log");
  for (const program of PROGRAMS) {
    // The shim's folder leads PATH; dropping it makes `exec` find the real program.
    const path = writeFile(dir, `bin/${program}`, `#!/bin/bash\necho "${program} $*" >> "${log}"\nexport PATH="\${PATH#${dir}/bin:}"\nexec ${program} "$@"\n`);
    chmodSync(path, 0o755);
  }
  return {
    env: { ...process.env, PATH: `${join(dir, "bin")}:${process.env.PATH}` },
    calls: (program) => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []).filter((line) => !program || line.startsWith(`${program} `)),
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
  return new ClusterExecutor({ backend: "sge", workdir, runDir: join(workdir, ".strand", "runs", "r1"), pollIntervalMs: POLL_MS, retryBaseMs: 50, env, ...extra });
}

/** Runs an attempt, recording the native ids `started` reports and the log lines. */
function start(runner: ClusterExecutor, job: JobSpec): { result: Promise<AttemptResult>; started: string[]; logs: string[] } {
  const started: string[] = [];
  const logs: string[] = [];
  const result = runner.run(job, { started: (id) => started.push(id ?? "?"), log: (message) => logs.push(message) });
  return { result, started, logs };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The state word real `qstat` gives a job that is queued, running or being deleted ("" when it lists none). */
async function qstatState(id: string): Promise<string> {
  const result = await execa("qstat", ["-s", "prs"], { reject: false });
  const line = String(result.stdout)
    .split("\n")
    .map((row) => row.trim().split(/\s+/))
    .find((columns) => columns[0] === id);
  return line?.[4] ?? "";
}

/** The fields of the job's last record in the real accounting file, blanks squeezed (empty until qmaster has written it). */
async function qacct(id: string): Promise<Record<string, string>> {
  const result = await execa("qacct", ["-j", id], { reject: false });
  const fields: Record<string, string> = {};
  for (const line of String(result.stdout).split("\n")) {
    const match = /^(\w+)\s+(.*?)\s*$/.exec(line);
    if (match) fields[match[1]!] = match[2]!.replace(/\s+/g, " ");
  }
  return fields;
}

describe.skipIf(!gridEngine)("ClusterExecutor on a real Grid Engine", () => {
  it("runs jobs to success and failure under bash, polling every job in flight with one qstat and taking exit codes from qacct", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    expect(runner.kind).toBe("sge");
    // Bash arrays: Grid Engine's default queue runs scripts with /bin/sh unless the job names its shell (-S).
    const ok = start(runner, spec(workdir, "hello_S1", "words=(hello from); echo ${words[*]} $JOB_ID > hello.txt\necho to-stdout"));
    const bad = start(runner, spec(workdir, "broken_S1", "echo about to fail >&2\nexit 3"));
    const slow = start(runner, spec(workdir, "slow_S1", "sleep 2; echo slow > slow.txt"));
    const [okResult, badResult, slowResult] = await Promise.all([ok.result, bad.result, slow.result]);
    await runner.close();

    expect(okResult).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: ok.started[0] });
    expect(ok.started[0]).toMatch(/^\d+$/);
    expect(readFileSync(join(workdir, "hello.txt"), "utf8")).toBe(`hello from ${ok.started[0]}\n`);
    expect(readFileSync(join(workdir, ".strand/runs/r1/logs/hello_S1.out"), "utf8")).toBe("to-stdout\n");

    expect(badResult).toMatchObject({ status: "failed", exitCode: 3, nativeId: bad.started[0] });
    expect(badResult.message).toBe(`SGE job ${bad.started[0]} ended failed=0 exit_status=3 (exit 3); see ${join(workdir, ".strand/runs/r1/logs/broken_S1.err")}`);
    expect(readFileSync(join(workdir, ".strand/runs/r1/logs/broken_S1.err"), "utf8")).toBe("about to fail\n");

    expect(slowResult).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(readFileSync(join(workdir, "slow.txt"), "utf8")).toBe("slow\n");

    // The job script as submitted, named by rule and submission number (no --run-id here).
    const script = readFileSync(join(workdir, ".strand/runs/r1/jobs/hello_S1/job.sh"), "utf8");
    expect(script).toMatch(/^#!\/bin\/bash\n#\$ -N hello-[123]\n#\$ -S \/bin\/bash\n#\$ -pe smp 1\n#\$ -l h_vmem=100M\n#\$ -o .*hello_S1\.out\n#\$ -e .*hello_S1\.err\n/);
    expect(readFileSync(join(workdir, ".strand/runs/r1/jobs/hello_S1/job.id"), "utf8")).toBe(`${ok.started[0]}\n`);
    expect(existsSync(recordPath(workdir, "hello_S1"))).toBe(false);

    // Every poll asks about all jobs in one qstat; finished ones are asked of qacct, each once it has a record.
    expect(calls("qsub")).toEqual(["qsub -terse", "qsub -terse", "qsub -terse"]);
    expect(new Set(calls("qstat"))).toEqual(new Set(["qstat -s prsz"]));
    const accounted = calls("qacct").map((line) => line.replace("qacct -j ", ""));
    for (const id of [ok.started[0], bad.started[0], slow.started[0]]) expect(accounted).toContain(id);

    // What Grid Engine's accounting says of them.
    expect(await qacct(ok.started[0]!)).toMatchObject({ jobname: /^#\$ -N (.*)$/m.exec(script)?.[1], failed: "0", exit_status: "0", granted_pe: "smp", slots: "1" });
    expect(await qacct(bad.started[0]!)).toMatchObject({ failed: "0", exit_status: "3" });
  });

  it("keeps a finished job known between leaving the queue and its accounting record (qacct lags by up to flush_time)", async () => {
    const workdir = tempDir();
    const backend = createBackend("sge");
    const run = schedulerCommandRunner();
    const submitted = await run(backend.submitCommand("#!/bin/bash\n#$ -N lag-1\n#$ -S /bin/bash\n#$ -o /dev/null\n#$ -e /dev/null\nsleep 1\n", workdir));
    const id = backend.parseJobId(submitted.stdout)!;
    // Asked as often as a test can: every answer until the record is there is pending, running or running
    // on its way to the record ("z"); never nothing, which the executor would count towards "vanished".
    const seen: string[] = [];
    let final: string | undefined;
    await until(async () => {
      const status = (await backend.queryStatus([id], run)).get(id);
      const word = status ? `${status.state}:${status.native}` : "unknown";
      if (seen.at(-1) !== word) seen.push(word);
      if (status && status.state !== "pending" && status.state !== "running") final = word;
      return final !== undefined;
    }, "the job's accounting record");
    expect(seen, seen.join(" → ")).not.toContain("unknown");
    expect(final).toBe("succeeded:failed=0 exit_status=0");
    expect(seen.filter((word) => !/^(pending:qw|running:[rt]|running:z \(ended; not yet accounted\))$/.test(word))).toEqual([final]);
  });

  it("asks Grid Engine for the threads, memory and walltime it was given; qacct records them and the job sees them", async () => {
    const workdir = tempDir();
    const { env } = shims();
    const runner = executor(workdir, env);
    const job = start(runner, spec(workdir, "sized_S1", 'echo "slots=$NSLOTS pe=$PE vmem=$(ulimit -v)" > sized.txt', { threads: 2, memory: "300M", cluster: { walltime: "00:10:00", extra_args: [] } }));
    const result = await job.result;
    await runner.close();
    expect(result).toMatchObject({ status: "succeeded", exitCode: 0 });
    // h_vmem is per slot: two slots of 300M give the job 600M of address space (ulimit -v is in KiB).
    expect(readFileSync(join(workdir, "sized.txt"), "utf8")).toBe(`slots=2 pe=smp vmem=${600 * 1024}\n`);
    const record = await qacct(job.started[0]!);
    expect(record).toMatchObject({ granted_pe: "smp", slots: "2", failed: "0", exit_status: "0" });
    expect(record.category).toMatch(/-l h_rt=600,h_vmem=300M -pe smp 2/);
  });

  it("fails a job Grid Engine kills at its walltime, with the reason qacct gives", async () => {
    const workdir = tempDir();
    const { env } = shims();
    const runner = executor(workdir, env);
    const job = start(runner, spec(workdir, "late_S1", "sleep 120", { cluster: { walltime: "00:00:02", extra_args: [] } }));
    const result = await job.result;
    await runner.close();
    expect(result).toMatchObject({ status: "failed", exitCode: 137, nativeId: job.started[0] });
    expect(result.message).toMatch(new RegExp(`^SGE job ${job.started[0]} ended failed=37 \\(qmaster enforced h_rt, h_cpu, or h_vmem limit\\) exit_status=137 \\(exit 137\\)`));
  });

  it("cancels every job in flight, running or queued, with one qdel; qstat then lists none of them", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    const running = start(runner, spec(workdir, "long_S1", "touch long.started; sleep 300"));
    // -h: held in the queue (hqw), so this one is deleted before it ever starts and gets no accounting record.
    const held = start(runner, spec(workdir, "held_S1", "sleep 300", { cluster: { extra_args: ["-h"] } }));
    await until(() => running.started.length === 1 && held.started.length === 1, "both submissions");
    await until(() => existsSync(join(workdir, "long.started")), "the first job to start");
    expect(await qstatState(running.started[0]!)).toBe("r");
    expect(await qstatState(held.started[0]!)).toBe("hqw");
    await runner.cancelAll(10_000);
    const [runningResult, heldResult] = await Promise.all([running.result, held.result]);
    await runner.close();

    expect(runningResult).toMatchObject({ status: "cancelled", nativeId: running.started[0] });
    expect(heldResult).toMatchObject({ status: "cancelled", nativeId: held.started[0] });
    // Confirmed by Grid Engine, not given up on after the grace time.
    expect(runningResult.message ?? "").not.toMatch(/not yet confirmed/);
    expect(heldResult.message ?? "").not.toMatch(/not yet confirmed/);
    const cancels = calls("qdel");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.split(" ").slice(1).sort()).toEqual([running.started[0], held.started[0]].sort());
    expect(await qstatState(running.started[0]!)).toBe("");
    expect(await qstatState(held.started[0]!)).toBe("");
    expect(existsSync(recordPath(workdir, "long_S1"))).toBe(false);
    // The running one was killed: its accounting record says qdel's way.
    await until(async () => (await qacct(running.started[0]!)).failed !== undefined, "the killed job's accounting record", 30_000);
    expect(await qacct(running.started[0]!)).toMatchObject({ failed: "100 : assumedly after job", exit_status: "137 (Killed)" });
  });

  it("fails at once, naming the reason, when Grid Engine refuses the job", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const runner = executor(workdir, env);
    const result = await start(runner, spec(workdir, "refused_S1", "true", { cluster: { partition: "no-such-queue", extra_args: [] } })).result;
    await runner.close();
    expect(result.status).toBe("failed");
    expect(result.message).toMatch(/Job was rejected because job requests unknown queue "no-such-queue"/);
    expect(calls("qsub")).toHaveLength(1);
  });

  it("adopts a job after a restart instead of submitting it again, checking its name with Grid Engine", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const job = spec(workdir, "adopt_S1", "sleep 3; echo adopted > adopted.txt");
    const first = executor(workdir, env, { runId: "ge-7" });
    const before = start(first, job);
    await until(() => before.started.length === 1, "the submission");
    const id = before.started[0]!;
    await first.close();
    expect((await before.result).status).toBe("failed");
    expect(existsSync(recordPath(workdir, "adopt_S1"))).toBe(true);

    const second = executor(workdir, env, { runId: "ge-7" });
    const after = start(second, job);
    const result = await after.result;
    await second.close();
    expect(after.started).toEqual([id]);
    expect(result).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: id });
    expect(calls("qsub")).toHaveLength(1);
    // A run given an id checks that the job is named strand-<run id>-<n> at the scheduler before adopting it.
    expect(calls("qstat")).toContain(`qstat -j ${id}`);
    expect(readFileSync(join(workdir, "adopted.txt"), "utf8")).toBe("adopted\n");
    expect((await qacct(id)).jobname).toBe("strand-ge-7-1");
  });

  it("adopts a job that succeeded while the engine was down, and resubmits one that failed", async () => {
    const workdir = tempDir();
    const { env, calls } = shims();
    const good = spec(workdir, "done_S1", "echo done");
    const bad = spec(workdir, "lost_S1", "exit 4");
    const first = executor(workdir, env, { runId: "ge-8" });
    const a = start(first, good);
    const b = start(first, bad);
    await until(() => a.started.length === 1 && b.started.length === 1, "the submissions");
    await first.close();
    await until(async () => (await qacct(a.started[0]!)).exit_status === "0" && (await qacct(b.started[0]!)).exit_status === "4", "both jobs to be accounted");

    const second = executor(workdir, env, { runId: "ge-8" });
    const again = start(second, good);
    const retried = start(second, bad);
    const [adopted, rerun] = await Promise.all([again.result, retried.result]);
    await second.close();
    expect(adopted).toMatchObject({ status: "succeeded", exitCode: 0, nativeId: a.started[0] });
    expect(adopted.message).toBe(`adopted SGE job ${a.started[0]}, which had already succeeded`);
    expect(rerun).toMatchObject({ status: "failed", exitCode: 4 });
    expect(rerun.nativeId).not.toBe(b.started[0]);
    expect(calls("qsub")).toHaveLength(3);
  });
});
