/**
 * Runs on a remote Grid Engine cluster whose engines run as batch jobs (engine_placement = "job"): a real
 * sshd on loopback in front of the real one-node Grid Engine (scripts/gridengine-local.sh). The engine is
 * qsub'ed with the cluster's submit options, submits the run's jobs to Grid Engine itself and the run
 * completes with its results back; an engine job that Grid Engine ends at its time limit fails the run with
 * that said, and the run's job it left behind is qdel'ed by the service.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGridEngine, failWithoutGridEngineWhenStrict } from "../../support/gridengine-cluster.js";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../../support/sshd-server.js";
import { settledRun, waitUntil } from "../../support/remote-run-waits.js";
import { startTeamService, type TeamService } from "../../support/team-service.js";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

const gridEngine = SSHD_AVAILABLE ? await ensureGridEngine() : false;
requireSshdUnderStrict();
failWithoutGridEngineWhenStrict(gridEngine || !SSHD_AVAILABLE);

const PIPELINE = `[workflow]
name = "remote-gridengine"

[[rules]]
name = "make"
output = ["made.txt"]
shell = "echo job $JOB_ID > {output}"

[[rules]]
name = "copy"
input = ["made.txt"]
output = ["copied.txt"]
shell = "cat {input} > {output}"
`;

const LONG = `[workflow]
name = "remote-gridengine-long"

[[rules]]
name = "forever"
output = ["never.txt"]
shell = "sleep 300 && touch {output}"
`;

/** The names and ids of the jobs Grid Engine has queued or running. */
async function gridEngineJobs(): Promise<{ id: string; name: string }[]> {
  const result = await execa("qstat", ["-s", "prs", "-r"], { reject: false });
  const jobs: { id: string; name: string }[] = [];
  let id: string | undefined;
  for (const line of String(result.stdout).split("\n")) {
    const row = /^\s*(\d+)\s+\S+\s+\S+/.exec(line);
    if (row) id = row[1];
    const full = /^\s+Full jobname:\s+(\S+)/.exec(line);
    if (full && id) jobs.push({ id, name: full[1]! });
  }
  return jobs;
}

describe.skipIf(!gridEngine || !SSHD_AVAILABLE)("a run on a remote Grid Engine cluster whose engine is a batch job", () => {
  let sshd: SshdServer;
  let team: TeamService;
  let remoteDir: string;

  beforeAll(async () => {
    sshd = await startSshd();
    remoteDir = mkdtempSync(join(tmpdir(), "strand-remote-sge-"));
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET }, runner: { cancelGraceMs: 5000, remote: { pollMs: 200, backoffMs: 200, maxBackoffMs: 1000 } } });
    for (const [id, options] of [
      ["sge-jobs", []],
      ["sge-short", ["-l", "h_rt=0:0:12"]],
    ] as const) {
      const saved = await team.call("admin", "POST", "/api/clusters", {
        body: { id, ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey, host_key_sha256: sshd.hostKeySha256, scheduler: "sge", engine_placement: "job", engine_job_options: options },
      });
      expect(saved.status, saved.text).toBe(200);
    }
  }, 600_000);
  afterAll(async () => {
    await team?.close();
    await sshd?.close();
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true });
  });

  const settle = (id: string) => settledRun(team, id);

  it("qsubs the engine, which submits the run's jobs to Grid Engine, and the results come back", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE, cluster_id: "sge-jobs", target: { type: "sge", poll_interval: "1s" } } });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { total: 2, completed: 2, failed: 0 }, remote: { cluster_id: "sge-jobs", scheduler: "sge", phase: "done", engine_job: { id: expect.stringMatching(/^\d+$/) } } });
    const engineJob = (run.remote as { engine_job: { id: string } }).engine_job.id;
    const log = await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`);
    expect((log.body.lines as string[]).join("\n")).toContain(`submitted to sge on sge-jobs as job ${engineJob} (strand-${id}-engine)`);
    const copied = await team.call("user", "GET", `/api/runs/${id}/files?path=copied.txt`);
    expect(copied.text).toMatch(/^job \d+\n$/);
    expect(copied.text).not.toContain(`job ${engineJob}\n`);
  }, 240_000);

  it("fails the run when Grid Engine ends the engine at its time limit, saying so, and qdels the job it left", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: LONG, cluster_id: "sge-short", target: { type: "sge", poll_interval: "1s" } } });
    const id = String(created.body.id);
    await waitUntil(async () => (await gridEngineJobs()).some((job) => job.name === `strand-${id}-1`), "the run's job at Grid Engine", 120_000, async () => JSON.stringify(await gridEngineJobs()));
    const run = await settle(id);
    expect(run).toMatchObject({ status: "failed", remote: { engine_job: { state: "ended" } } });
    expect(run.error).toMatch(/^the scheduler ended the engine.s job \d+ \(.*h_rt.*\); give it more time or memory in the cluster.s engine_job_options, then retry the run$/);
    const log = ((await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`)).body.lines as string[]).join("\n");
    expect(log).toMatch(/the engine's job \d+ ended at the scheduler \(.+\) without an exit code/);
    expect(log).toMatch(/cancelled the run's 1 job at sge that the engine left behind: \d+/);
    await waitUntil(async () => !(await gridEngineJobs()).some((job) => job.name.includes(id)), "the run's jobs to leave Grid Engine", 60_000, async () => JSON.stringify(await gridEngineJobs()));
  }, 240_000);
});
