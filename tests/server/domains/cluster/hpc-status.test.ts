/**
 * GET /api/hpc: the local scheduler's partitions, nodes and jobs, in hpc mode only. Read from the real
 * one-node SLURM cluster (scripts/slurm-local.sh) with a real `sleep` job in its queue; a missing scheduler
 * and a controller that fails or hangs are played by small scripts on the service's PATH.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import type { ServiceMode } from "../../../../src/server/app.js";
import type { Caller } from "../../../../src/server/caller.js";
import { hashPassword } from "../../../../src/server/domains/auth/passwords.js";
import type { HpcStatus } from "../../../../src/server/domains/cluster/schemas.js";
import { parseJobs, parseNodes, parsePartitions, runIdsInQueue, RunOwners, type SchedulerReaderOptions, type SchedulerSnapshot, statusFor } from "../../../../src/server/domains/cluster/service.js";
import type { UserRole } from "../../../../src/server/store/accounts/contract.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../../support/slurm-cluster.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const services: TestService[] = [];
afterAll(async () => {
  await Promise.all(services.map((service) => service.close()));
  removeTempDirs();
});

/** A service in `mode`, and a bearer header of a signed-in account of `role` (none in personal mode). */
async function serviceAs(mode: ServiceMode, role: UserRole = "user", scheduler?: SchedulerReaderOptions): Promise<{ service: TestService; headers: Record<string, string> }> {
  const service = await startTestService({ mode, scheduler });
  services.push(service);
  if (mode === "personal") return { service, headers: {} };
  return { service, headers: await signedIn(service, role) };
}

/** A bearer header of a new account of `role` on `service`. */
async function signedIn(service: TestService, role: UserRole): Promise<Record<string, string>> {
  const username = `${role}-${randomUUID().slice(0, 8)}`;
  const password = "a long enough password";
  await service.store.createUser({ username, role, password_hash: await hashPassword(password) });
  const login = await fetch(`${service.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username, password }) });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { Authorization: `Bearer ${token}` };
}

async function hpcStatus(service: TestService, headers: Record<string, string>): Promise<HpcStatus> {
  const response = await fetch(`${service.url}/api/hpc`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as HpcStatus;
}

/** Scripts named like SLURM's programs that log their calls and run `body`, on an otherwise empty PATH. */
function fakeScheduler(body: string): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = tempDir();
  const log = join(dir, "calls.log");
  for (const program of ["sinfo", "squeue"]) {
    chmodSync(writeFile(dir, `bin/${program}`, `#!/bin/sh\necho "${program} $*" >> "${log}"\n${body}\n`), 0o755);
  }
  return { env: { PATH: `${join(dir, "bin")}:/usr/bin:/bin` }, calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) };
}

describe("GET /api/hpc outside hpc mode", () => {
  it("answers 404 NOT_FOUND in personal mode, like an unknown path", async () => {
    const { service, headers } = await serviceAs("personal");
    const response = await fetch(`${service.url}/api/hpc`, { headers });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND", message: "no such endpoint: GET /api/hpc" });
  });

  it("answers 404 NOT_FOUND in team mode to a signed-in user", async () => {
    const { service, headers } = await serviceAs("team");
    const response = await fetch(`${service.url}/api/hpc`, { headers });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("is described by the OpenAPI document in every mode (operationId getHpcStatus, tag cluster)", async () => {
    const { service } = await serviceAs("personal");
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, { get?: { operationId: string; tags: string[] } }> };
    expect(document.paths["/api/hpc"]?.get).toMatchObject({ operationId: "getHpcStatus", tags: ["cluster"] });
  });
});

describe("GET /api/hpc without a working scheduler", () => {
  it("says so with 200, available false and scheduler null when no SLURM is installed", async () => {
    const { service, headers } = await serviceAs("hpc", "user", { env: { PATH: tempDir() } });
    const status = await hpcStatus(service, headers);
    expect(status).toMatchObject({ available: false, scheduler: null, version: null, partitions: [], nodes: [], jobs: [], total_jobs: 0 });
    expect(status.message).toMatch(/sinfo is not on the service's PATH/);
  });

  it("reports the controller's own error when sinfo and squeue fail", async () => {
    const fake = fakeScheduler(`echo "$0: error: Unable to contact slurm controller (connect failure)" >&2\nexit 1`);
    const { service, headers } = await serviceAs("hpc", "user", { env: fake.env });
    const status = await hpcStatus(service, headers);
    expect(status).toMatchObject({ available: false, scheduler: "slurm", jobs: [] });
    expect(status.message).toMatch(/failed: .*Unable to contact slurm controller \(connect failure\)/);
  });

  it("gives up on a hung controller after the time-out instead of holding the request", async () => {
    // `exec`: the hung program is the one the service started, as a real sinfo waiting on its controller is.
    const fake = fakeScheduler("exec sleep 30");
    const { service, headers } = await serviceAs("hpc", "user", { env: fake.env, timeoutMs: 500 });
    const started = Date.now();
    const status = await hpcStatus(service, headers);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(status).toMatchObject({ available: false, scheduler: "slurm" });
    expect(status.message).toMatch(/did not answer within/);
  });

  it("shares one reading between many viewers at once: 20 requests run each command once", async () => {
    const fake = fakeScheduler(`echo "$0: error: Unable to contact slurm controller" >&2\nexit 1`);
    const { service, headers } = await serviceAs("hpc", "viewer", { env: fake.env });
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${service.url}/api/hpc`, { headers })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(fake.calls().map((call) => call.split(" ")[0]).sort()).toEqual(["sinfo", "sinfo", "squeue"]);
  });
});

describe.skipIf(!slurm)("GET /api/hpc against the real SLURM cluster", () => {
  it("lists a submitted sleep job with its partition and state, the node and the default partition (to an administrator)", async () => {
    const { service, headers } = await serviceAs("hpc", "admin");
    const name = `strand-hpc-${randomUUID().slice(0, 8)}`;
    const submitted = await execa("sbatch", ["--parsable", `--job-name=${name}`, "--time=5", "--output=/dev/null", "--wrap", "sleep 120"]);
    const jobId = String(submitted.stdout).trim().split(";")[0]!;
    try {
      let status: HpcStatus | undefined;
      // Answers are shared for 2 s; the job may take a moment to be scheduled, and sinfo may count its CPU a
      // moment after squeue shows it running (other tests' jobs come and go on the same cluster).
      await expect
        .poll(
          async () => {
            status = await hpcStatus(service, headers);
            return `${status.jobs.find((job) => job.id === jobId)?.state} with ${status.partitions[0]?.cpus_allocated ? "CPUs" : "no CPUs"} allocated`;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe("RUNNING with CPUs allocated");
      const { stdout: user } = await execa("id", ["-un"]);
      expect(status!).toMatchObject({ available: true, scheduler: "slurm", message: null, jobs_visibility: "all" });
      expect(status!.version).toMatch(/^\d+\.\d+/);
      expect(status!.jobs.find((job) => job.id === jobId)).toMatchObject({
        name,
        user: user.trim(),
        partition: "debug",
        state: "RUNNING",
        time_limit: "5:00",
        time_limit_s: 300,
        node_count: 1,
        nodes: "localhost",
        reason: null,
      });
      expect(status!.partitions).toEqual([expect.objectContaining({ name: "debug", state: "up", default: true, nodes: 1, time_limit: "infinite", time_limit_s: null })]);
      const partition = status!.partitions[0]!;
      expect(partition.cpus_total).toBeGreaterThanOrEqual(1);
      expect(partition.cpus_allocated).toBeGreaterThanOrEqual(1);
      const node = status!.nodes.find((candidate) => candidate.name === "localhost");
      expect(node).toMatchObject({ partitions: ["debug"], reason: null });
      expect(node!.state).toMatch(/^(mixed|allocated)$/);
      expect(node!.cpus_allocated).toBeGreaterThanOrEqual(1);
      expect(node!.cpus_allocated + node!.cpus_idle).toBeLessThanOrEqual(node!.cpus_total);
      expect(node!.memory_total_mb).toBeGreaterThan(0);
      expect(node!.memory_allocated_mb).toBeGreaterThan(0);
      expect(status!.total_jobs).toBe(status!.jobs.length);
      expect(status!.other_jobs).toBe(0);
      // A viewer sees the cluster's shape and that a job is there, not the job.
      const seen = await hpcStatus(service, await signedIn(service, "viewer"));
      expect(seen.jobs.map((job) => job.id)).not.toContain(jobId);
      expect(seen).toMatchObject({ jobs_visibility: "own", total_jobs: 0 });
      expect(seen.other_jobs).toBeGreaterThanOrEqual(1);
      expect(seen.partitions).toEqual(status!.partitions.map((partition) => expect.objectContaining({ name: partition.name })));
      expect(JSON.stringify(seen)).not.toContain(name);
    } finally {
      await execa("scancel", [jobId], { reject: false });
    }
  }, 60_000);

  it("needs a signed-in caller in hpc mode (401 AUTH_REQUIRED without credentials)", async () => {
    const { service } = await serviceAs("hpc", "viewer");
    const response = await fetch(`${service.url}/api/hpc`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "AUTH_REQUIRED" });
  });
});

describe("reading sinfo and squeue output", () => {
  const S = "\x1f";
  it("merges a partition sinfo splits over lines and marks the default one", () => {
    const text = [`batch*${S}up${S}2/1/0/3${S}10/14/0/24${S}1-00:00:00`, `batch*${S}up${S}0/0/1/1${S}0/0/8/8${S}1-00:00:00`, `gpu${S}down${S}0/2/0/2${S}0/32/0/32${S}infinite`].join("\n");
    expect(parsePartitions(text)).toEqual([
      { name: "batch", state: "up", default: true, nodes: 4, nodes_allocated: 2, nodes_idle: 1, cpus_total: 32, cpus_allocated: 10, cpus_idle: 14, time_limit: "1-00:00:00", time_limit_s: 86_400 },
      { name: "gpu", state: "down", default: false, nodes: 2, nodes_allocated: 0, nodes_idle: 2, cpus_total: 32, cpus_allocated: 0, cpus_idle: 32, time_limit: "infinite", time_limit_s: null },
    ]);
  });

  it("lists a node in two partitions once, with a drain reason that holds the separator-free free text", () => {
    const text = [`n01${S}drained${S}0/0/8/8${S}64000${S}0${S}N/A${S}batch${S}disk failing: see ticket #42 | ops`, `n01${S}drained${S}0/0/8/8${S}64000${S}0${S}N/A${S}gpu${S}disk failing: see ticket #42 | ops`].join("\n");
    expect(parseNodes(text)).toEqual([
      { name: "n01", state: "drained", cpus_total: 8, cpus_allocated: 0, cpus_idle: 0, memory_total_mb: 64000, memory_allocated_mb: 0, memory_free_mb: null, partitions: ["batch", "gpu"], reason: "disk failing: see ticket #42 | ops" },
    ]);
  });

  it("reads a pending job's reason and a job name with spaces and bars", () => {
    const [job] = parseJobs(`77_[1-3]${S}alice${S}batch${S}PENDING${S}0:00${S}2-12:30:00${S}1${S}4${S}${S}Priority${S}2026-01-02T03:04:05${S}align | sample 1`);
    expect(job).toMatchObject({ id: "77_[1-3]", user: "alice", state: "PENDING", elapsed_s: 0, time_limit_s: 2 * 86_400 + 12 * 3600 + 30 * 60, nodes: null, reason: "Priority", name: "align | sample 1" });
    expect(job!.submitted_at).toBe(new Date("2026-01-02T03:04:05").toISOString());
  });

  it("shows administrators every job and anyone else the jobs of their own runs, with a count of the rest", async () => {
    const line = (id: string, user: string, name: string) => `${id}${S}${user}${S}b${S}RUNNING${S}1:00${S}5:00${S}1${S}1${S}n01${S}None${S}N/A${S}${name}`;
    const jobs = parseJobs(
      [line("1", "svc", "strand-run-a-1"), line("2", "svc", "strand-run-b-1"), line("3", "svc", "strand-run-a-2"), line("4", "alice", "align_PATIENT-7"), line("5", "svc", "strand-unknown-3")].join("\n"),
    );
    const snapshot: SchedulerSnapshot = { available: true, scheduler: "slurm", version: "22.05.8", message: null, checkedAt: new Date().toISOString(), partitions: [], nodes: [], jobs };
    expect(runIdsInQueue(snapshot)).toEqual(["run-a", "run-b", "unknown"]);
    const lookups: string[] = [];
    const owners = new RunOwners(async (runId) => {
      lookups.push(runId);
      return ({ "run-a": "u1", "run-b": "u2" } as Record<string, string>)[runId] ?? null;
    });
    const alice: Caller = { id: "u1", username: "alice", role: "user", admin: false };
    const admin: Caller = { id: "u9", username: "root", role: "admin", admin: true };
    const own = await owners.ownedBy(alice.id, runIdsInQueue(snapshot));
    expect([...own]).toEqual(["run-a"]);
    // A run's owner is looked up once, however often the dashboard asks.
    await owners.ownedBy("u2", runIdsInQueue(snapshot));
    expect(lookups).toEqual(["run-a", "run-b", "unknown"]);
    // The strand user "alice" does not see the Unix user alice's job: names are matched by run, never by user.
    expect(statusFor(snapshot, alice, own)).toMatchObject({ jobs_visibility: "own", total_jobs: 2, other_jobs: 3, jobs: [{ id: "1" }, { id: "3" }] });
    expect(statusFor(snapshot, admin)).toMatchObject({ jobs_visibility: "all", total_jobs: 5, other_jobs: 0 });
    expect(statusFor(snapshot, { ...alice, role: "viewer" })).toMatchObject({ jobs: [], total_jobs: 0, other_jobs: 5 });
  });
});
