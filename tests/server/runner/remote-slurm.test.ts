/**
 * A run sent to a remote cluster whose login node has SLURM: a real sshd on loopback in front of the real
 * one-node SLURM cluster. The cluster is registered with scheduler `auto`, so the service finds SLURM there
 * itself; the remote engine submits every job to it, the run completes with live status and its results come
 * back, through a dropped connection and a service restart while its jobs run; a cancel scancels the job in
 * flight and leaves no process behind. A cluster that places engines in
 * scheduler jobs (engine_placement = "job") runs the engine itself as a SLURM job, which takes the service's
 * cancel through its signal files, and is scancelled outright while it still waits in the queue.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../support/slurm-cluster.js";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../../support/sshd-server.js";
import { settledRun, waitUntil } from "../../support/remote-run-waits.js";
import { startTeamService, type TeamService } from "../../support/team-service.js";
import { openTempStore, type TempStore } from "../../support/temp-store.js";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

const slurm = SSHD_AVAILABLE ? await ensureSlurm() : false;
requireSshdUnderStrict();
failWithoutSlurmWhenStrict(slurm || !SSHD_AVAILABLE);

const PIPELINE = `[workflow]
name = "remote-slurm"

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
shell = "cat {input} > {output}"
`;

const LONG = `[workflow]
name = "remote-slurm-long"

[[rules]]
name = "forever"
output = ["never.txt"]
shell = "sleep 300 && touch {output}"
`;

/** The names of the jobs SLURM has queued or running. */
async function slurmJobNames(): Promise<string[]> {
  const result = await execa("squeue", ["-h", "-o", "%j"], { reject: false });
  return String(result.stdout).split("\n").map((line) => line.trim()).filter(Boolean);
}

describe.skipIf(!slurm || !SSHD_AVAILABLE)("a run on a remote SLURM cluster over SSH", () => {
  let sshd: SshdServer;
  let team: TeamService;
  let remoteDir: string;
  let temp: TempStore;
  const startService = () => startTeamService({ env: { SERVICE_SECRET_KEY: SECRET }, store: temp.store, dataDir: temp.dataDir, runner: { cancelGraceMs: 5000, remote: { pollMs: 200, backoffMs: 200, maxBackoffMs: 1000 } } });

  beforeAll(async () => {
    sshd = await startSshd();
    remoteDir = mkdtempSync(join(tmpdir(), "strand-remote-slurm-"));
    temp = await openTempStore();
    team = await startService();
    const saved = await team.call("admin", "POST", "/api/clusters", {
      body: { id: "slurm-login", ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey, host_key_sha256: sshd.hostKeySha256, scheduler: "auto" },
    });
    expect(saved.status).toBe(200);
    for (const [id, options] of [["slurm-jobs", []], ["slurm-held", ["--hold"]]] as const) {
      const placed = await team.call("admin", "POST", "/api/clusters", {
        body: { id, ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey, host_key_sha256: sshd.hostKeySha256, scheduler: "slurm", engine_placement: "job", engine_job_options: options },
      });
      expect(placed.status).toBe(200);
      expect(placed.body).toMatchObject({ engine_placement: "job", engine_job_options: options });
    }
  }, 600_000);
  afterAll(async () => {
    await team?.close();
    await temp?.dispose();
    await sshd?.close();
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true });
  });

  const settle = (id: string) => settledRun(team, id);
  const names = async () => (await slurmJobNames()).join(", ");

  it("submits every job to SLURM from the login node, follows them live and brings the results back", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE, cluster_id: "slurm-login", jobs: 4, target: { type: "slurm", poll_interval: "1s" } } });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { total: 3, completed: 3, failed: 0 }, remote: { cluster_id: "slurm-login", scheduler: "slurm", phase: "done" } });
    const status = await team.call("user", "GET", `/api/runs/${id}/status`);
    expect(status.text).toContain("merge");
    const results = await team.call("user", "GET", `/api/runs/${id}/results`);
    expect((results.body.files as { path: string }[]).map((file) => file.path).sort()).toEqual(["merged.txt", "out/A.txt", "out/B.txt"]);
    const merged = await team.call("user", "GET", `/api/runs/${id}/files?path=merged.txt`);
    expect(merged.text).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
    const log = await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`);
    expect((log.body.lines as string[]).join("\n")).toContain("submitted to slurm");
  }, 240_000);

  it("goes on through a dropped connection and a service restart while its SLURM jobs run, and completes", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE.replace(`shell = "echo job`, `shell = "sleep 4 && echo job`), cluster_id: "slurm-login", jobs: 4, target: { type: "slurm", poll_interval: "1s" } } });
    const id = String(created.body.id);
    await waitUntil(async () => (await slurmJobNames()).some((name) => name.includes(id)), "the run's jobs at SLURM", 120_000, names);
    sshd.dropConnections();
    await waitUntil(() => team.service.lines.some((line) => line.includes(`run ${id}: reconnected to cluster 'slurm-login'`)), "the service to reconnect", 60_000, () => team.service.lines.slice(-5).join(" | "));
    await team.service.close();
    team = await startService();
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { total: 3, completed: 3 }, remote: { scheduler: "slurm", phase: "done", engine_job: null } });
    const merged = await team.call("user", "GET", `/api/runs/${id}/files?path=merged.txt`);
    expect(merged.text).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
  }, 240_000);

  it("cancels the run: its SLURM job is scancelled and nothing of it is left on the login node", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: LONG, cluster_id: "slurm-login", target: { type: "slurm", poll_interval: "1s" } } });
    const id = String(created.body.id);
    await waitUntil(async () => (await slurmJobNames()).some((name) => name.includes(id)), "the run's job at SLURM", 120_000, names);
    expect((await team.call("user", "POST", `/api/runs/${id}/cancel`)).body.status).toBe("cancelled");
    await settle(id);
    await waitUntil(async () => !(await slurmJobNames()).some((name) => name.includes(id)) && (await execa("pgrep", ["-f", id], { reject: false })).stdout.trim() === "", "the run's jobs and processes to go", 60_000, names);
  }, 240_000);

  /** What SLURM's accounting says of a job: its name and state. */
  const accounted = async (jobId: string) => {
    const result = await execa("sacct", ["-n", "-P", "-X", "-o", "JobName,State", "-j", jobId], { reject: false });
    const [name, state] = String(result.stdout).trim().split("\n")[0]?.split("|") ?? [];
    return { name, state };
  };

  it("runs the engine itself as a SLURM job when the cluster asks for that, which submits the run's jobs", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE, cluster_id: "slurm-jobs", jobs: 4, target: { type: "slurm", poll_interval: "1s" } } });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { total: 3, completed: 3, failed: 0 }, remote: { cluster_id: "slurm-jobs", scheduler: "slurm", phase: "done", engine_job: { id: expect.stringMatching(/^\d+$/) } } });
    const engineJob = (run.remote as { engine_job: { id: string } }).engine_job.id;
    expect(await accounted(engineJob)).toMatchObject({ name: `strand-${id}-engine` });
    const log = await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`);
    expect((log.body.lines as string[]).join("\n")).toContain(`submitted to slurm on slurm-jobs as job ${engineJob}`);
    const merged = await team.call("user", "GET", `/api/runs/${id}/files?path=merged.txt`);
    expect(merged.text).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
  }, 240_000);

  it("cancels a run whose engine is a SLURM job: the engine hears it, scancels its jobs, and nothing is left", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: LONG, cluster_id: "slurm-jobs", target: { type: "slurm", poll_interval: "1s" } } });
    const id = String(created.body.id);
    // The engine's job and the pipeline's job both reach SLURM.
    await waitUntil(async () => (await slurmJobNames()).filter((name) => name.includes(id)).length >= 2, "the engine's job and the run's job at SLURM", 120_000, names);
    expect((await team.call("user", "POST", `/api/runs/${id}/cancel`)).body.status).toBe("cancelled");
    const run = await settle(id);
    await waitUntil(async () => !(await slurmJobNames()).some((name) => name.includes(id)), "the run's jobs to leave SLURM", 60_000, names);
    const engineJob = (run.remote as { engine_job: { id: string } }).engine_job.id;
    // The engine ended by itself on the service's signal (its exit code is kept), not by a scancel of its job.
    const events = await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`);
    expect((events.body.lines as string[]).join("\n")).not.toContain("without an exit code");
    expect((await accounted(engineJob)).state).not.toMatch(/RUNNING|PENDING/);
  }, 240_000);

  it("goes on following an engine job after the service restarts, from its queued state to the end", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE.replace(`shell = "echo job`, `shell = "sleep 3 && echo job`), cluster_id: "slurm-jobs", target: { type: "slurm", poll_interval: "1s" } } });
    const id = String(created.body.id);
    await waitUntil(async () => (await slurmJobNames()).includes(`strand-${id}-engine`), "the engine's job at SLURM", 120_000, names);
    // The service goes away (the engine's job does not); a new one on the same store and data folder takes over.
    await team.service.close();
    team = await startService();
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { total: 3, completed: 3 }, remote: { phase: "done", engine_job: { state: expect.stringMatching(/running|ended/) } } });
    const merged = await team.call("user", "GET", `/api/runs/${id}/files?path=merged.txt`);
    expect(merged.text).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
  }, 240_000);

  it("scancels a run's engine job that still waits in the queue, and the run ends cancelled", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: LONG, cluster_id: "slurm-held", target: { type: "slurm", poll_interval: "1s" } } });
    const id = String(created.body.id);
    let view = await team.call("user", "GET", `/api/runs/${id}`);
    const submitted = async () => {
      view = await team.call("user", "GET", `/api/runs/${id}`);
      return Boolean((view.body.remote as { engine_job?: unknown } | null)?.engine_job);
    };
    await waitUntil(submitted, "the engine's job to be submitted", 120_000, () => view.text);
    const engineJob = (view.body.remote as { engine_job: { id: string; state: string } }).engine_job;
    expect(engineJob.state).toBe("queued");
    expect(await slurmJobNames()).toContain(`strand-${id}-engine`);
    expect((await team.call("user", "POST", `/api/runs/${id}/cancel`)).body.status).toBe("cancelled");
    expect(await settle(id)).toMatchObject({ status: "cancelled" });
    await waitUntil(async () => !(await slurmJobNames()).some((name) => name.includes(id)), "the queued engine job to leave SLURM", 30_000, names);
    expect((await accounted(engineJob.id)).state).toMatch(/CANCELLED/);
  }, 240_000);
});
