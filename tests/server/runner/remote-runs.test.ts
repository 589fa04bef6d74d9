/**
 * Runs on a remote cluster against a real sshd on loopback (the cluster has no scheduler here: jobs run on
 * its "login node"). The service stages the run over SFTP, starts its own bundled engine there detached,
 * follows it live, brings the results back; a dropped connection is retried, a restarted service goes on
 * following, a cancel leaves nothing running, a changed host key is refused, another user sees nothing,
 * and hostile names and values reach the engine as text, never as shell.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventSource } from "eventsource";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppOptions } from "../../../src/server/app.js";
import { requireSshdUnderStrict, SSHD_AVAILABLE, startSshd, type SshdServer } from "../../support/sshd-server.js";
import { settledRun, waitUntil } from "../../support/remote-run-waits.js";
import { startTeamService, type TeamService } from "../../support/team-service.js";
import { openTempStore, type TempStore } from "../../support/temp-store.js";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/** Remote runs poll fast and reconnect soon in tests. */
const FAST: Partial<AppOptions> = { runner: { cancelGraceMs: 2000, remote: { pollMs: 150, backoffMs: 200, maxBackoffMs: 1000 } } };

const PIPELINE = `[workflow]
name = "remote-hello"

[config]
greeting = "hello"

[[rules]]
name = "greet"
output = ["out/greeting.txt"]
shell = "printf '%s from %s' {config.greeting} \\"$(hostname)\\" > {output}"

[[rules]]
name = "shout"
input = ["out/greeting.txt"]
output = ["out/shout.txt"]
shell = "tr a-z A-Z < {input} > {output}"
`;

const SLOW = `[workflow]
name = "remote-slow"

[[rules]]
name = "wait"
output = ["waited.txt"]
shell = "sleep 6 && echo done > {output}"
`;

const LONG = `[workflow]
name = "remote-long"

[[rules]]
name = "forever"
output = ["never.txt"]
shell = "sleep 300 && touch {output}"
`;

requireSshdUnderStrict();

describe.skipIf(!SSHD_AVAILABLE)("runs on a remote cluster over SSH", () => {
  let sshd: SshdServer;
  let temp: TempStore;
  let team: TeamService;
  let remoteDir: string;

  beforeAll(async () => {
    sshd = await startSshd();
    temp = await openTempStore();
    remoteDir = mkdtempSync(join(tmpdir(), "strand-remote-"));
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET }, store: temp.store, dataDir: temp.dataDir, ...FAST });
    const saved = await team.call("admin", "POST", "/api/clusters", {
      body: { id: "loopback", name: "Loopback", ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey, host_key_sha256: sshd.hostKeySha256, scheduler: "none" },
    });
    expect(saved.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await team?.close();
    await temp?.dispose();
    await sshd?.close();
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true });
  });

  const start = (body: Record<string, unknown>, who: "user" | "other" = "user") => team.call(who, "POST", "/api/runs", { body: { cluster_id: "loopback", ...body } });

  const settle = (id: string, service: TeamService = team, timeoutMs = 60_000) => settledRun(service, id, timeoutMs);

  /** The events `GET /api/events` sends the user, as `type` or `type:state` for run_connection, per run. */
  const listen = async () => {
    const source = new EventSource(`${team.url}/api/events`, { fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${team.tokens.user}` } }) });
    const seen = new Map<string, string[]>();
    source.addEventListener("message", (message) => {
      const event = JSON.parse(message.data as string) as { type: string; data: { run_id?: string; state?: string } };
      const id = event.data.run_id ?? "";
      seen.set(id, [...(seen.get(id) ?? []), event.type === "run_connection" ? `${event.type}:${event.data.state}` : event.type]);
    });
    await new Promise<void>((resolve, reject) => {
      source.addEventListener("open", () => resolve(), { once: true });
      source.addEventListener("error", (error) => reject(new Error(error.message)), { once: true });
    });
    return { seen: (id: string) => seen.get(id) ?? [], close: () => source.close() };
  };

  /** Whether the run's engine has started on the cluster (the service recorded its process). */
  const remoteRunning = async (id: string) => {
    const run = (await team.call("user", "GET", `/api/runs/${id}`)).body;
    return run.status === "running" && (run.remote as { phase: string }).phase === "running";
  };

  /** Processes on this machine (the "login node") whose command line names the run. */
  const remoteProcesses = async (runId: string) => (await execa("pgrep", ["-f", runId], { reject: false })).stdout.split("\n").filter(Boolean);

  it("stages the pipeline, runs it on the login node, follows it live and brings the results back", async () => {
    const events = await listen();
    const created = await start({ toml_content: PIPELINE, config: { greeting: "hi" } });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(created.body.remote).toMatchObject({ cluster_id: "loopback", phase: "staging", results: "pull" });
    expect(created.body.remote).not.toHaveProperty("pid");
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, exit_code: 0, counts: { total: 2, completed: 2, failed: 0 } });
    expect(run.remote).toMatchObject({ cluster_id: "loopback", scheduler: "none", phase: "done" });
    // Administrators see server paths (users see `<path>/…`, as for every path of a server).
    const remoteWorkspace = String(((await team.call("admin", "GET", `/api/runs/${id}`)).body.remote as { workspace: string }).workspace);
    expect(remoteWorkspace.startsWith(`${remoteDir}/users/`)).toBe(true);
    // The job ran in the remote workspace, and its outputs came back to the local one.
    expect(readFileSync(join(remoteWorkspace, "out", "shout.txt"), "utf8")).toMatch(/^HI FROM /);
    const results = await team.call("user", "GET", `/api/runs/${id}/results`);
    expect((results.body.files as { path: string }[]).map((file) => file.path).sort()).toEqual(["out/greeting.txt", "out/shout.txt"]);
    // Status, DAG status and job logs read the mirror as for a local run.
    const status = await team.call("user", "GET", `/api/runs/${id}/status`);
    expect(status.status).toBe(200);
    const dag = await team.call("user", "GET", `/api/runs/${id}/dag-status`);
    expect(dag.body).toMatchObject({ completed: 2, failed: 0 });
    const engineLog = await team.call("user", "GET", `/api/runs/${id}/logs?stream=engine`);
    expect(engineLog.text).toContain("staged");
    expect(engineLog.text).toContain("brought back");
    // Nothing is left running on the login node.
    expect(await remoteProcesses(id)).toEqual([]);
    // GET /api/events told the run's story live, as for a local run.
    await waitUntil(async () => events.seen(id).includes("run_completed"), "run_completed on the event stream");
    events.close();
    expect(events.seen(id).filter((type) => !type.startsWith("run_connection"))).toEqual(["run_queued", "run_started", "job_started", "job_completed", "job_started", "job_completed", "run_completed"]);
  }, 90_000);

  it("goes on through a dropped connection: retried with backoff, shown on the run, and the run completes", async () => {
    const events = await listen();
    const created = await start({ toml_content: SLOW });
    const id = String(created.body.id);
    await waitUntil(() => remoteRunning(id), "the remote engine");
    sshd.dropConnections();
    const run = await settle(id);
    events.close();
    // Subscribers saw the link go and come back.
    const connection = events.seen(id).filter((type) => type.startsWith("run_connection"));
    expect(connection.indexOf("run_connection:reconnecting")).toBeGreaterThanOrEqual(0);
    expect(connection.lastIndexOf("run_connection:connected")).toBeGreaterThan(connection.indexOf("run_connection:reconnecting"));
    expect(run).toMatchObject({ status: "completed", error: null, counts: { completed: 1 } });
    expect(team.service.lines.some((line) => line.includes(`run ${id}: the connection to cluster 'loopback' dropped`))).toBe(true);
    expect(team.service.lines.some((line) => line.includes(`run ${id}: reconnected to cluster 'loopback'`))).toBe(true);
  }, 90_000);

  it("goes on following a run after the service restarts mid-run", async () => {
    const created = await start({ toml_content: SLOW.replace("remote-slow", "remote-restart") });
    const id = String(created.body.id);
    await waitUntil(() => remoteRunning(id), "the remote engine");
    // The service goes away (its engines do not); a new one on the same store and data folder takes over.
    await team.service.close();
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET }, store: temp.store, dataDir: temp.dataDir, ...FAST });
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, counts: { completed: 1 } });
    expect(run.remote).toMatchObject({ phase: "done" });
    const results = await team.call("user", "GET", `/api/runs/${id}/results`);
    expect((results.body.files as { path: string }[]).map((file) => file.path)).toEqual(["waited.txt"]);
  }, 90_000);

  it("cancels the remote engine and its jobs: nothing is left running on the login node", async () => {
    const created = await start({ toml_content: LONG });
    const id = String(created.body.id);
    await waitUntil(async () => (await remoteRunning(id)) && (await execa("pgrep", ["-f", "sleep 300"], { reject: false })).stdout !== "", "the remote job");
    const cancelled = await team.call("user", "POST", `/api/runs/${id}/cancel`);
    expect(cancelled.body.status).toBe("cancelled");
    await settle(id);
    await waitUntil(async () => (await remoteProcesses(id)).length === 0, "the remote engine to stop", 20_000);
    // No `sleep 300` survives the cancel either (the job's own process group went with it).
    const sleeps = (await execa("pgrep", ["-f", "sleep 300"], { reject: false })).stdout.split("\n").filter(Boolean);
    expect(sleeps).toEqual([]);
  }, 90_000);

  it("hands hostile names and values to the engine as text, never to the shell", async () => {
    const marker = join(tmpdir(), `strand-pwned-${process.pid}`);
    const hostile = `it's $(touch ${marker}) \`touch ${marker}\`; "quoted"\nnext line`;
    // The engine refuses shell syntax in a config value from the command line: it names the value it got, whole.
    const created = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-hostile"), config: { greeting: hostile }, targets: ["greet"] });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run.status).toBe("failed");
    expect(existsSync(marker)).toBe(false);
    const log = await team.call("admin", "GET", `/api/runs/${id}/logs?stream=engine`);
    const lines = (log.body.lines as string[]).join("\n");
    expect(lines).toContain(`it's $(touch ${marker}) \`touch ${marker}\`; "quoted"\nnext line`);
    // A value that looks like an engine option stays a value, and arrives as written.
    const quoted = "--keep-going";
    const ok = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-quoted"), config: { greeting: quoted }, targets: ["greet"] });
    const done = await settle(String(ok.body.id));
    expect(done).toMatchObject({ status: "completed", error: null });
    const remoteWorkspace = String(((await team.call("admin", "GET", `/api/runs/${String(ok.body.id)}`)).body.remote as { workspace: string }).workspace);
    expect(readFileSync(join(remoteWorkspace, "out", "greeting.txt"), "utf8").startsWith(`${quoted} from `)).toBe(true);
  }, 90_000);

  it("dry-runs on the cluster: the plan there (its checkpoint decides) comes back as the run's plan", async () => {
    const created = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-dry"), dry_run: true });
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, dry_run: true, counts: { total: 2 } });
    const status = await team.call("user", "GET", `/api/runs/${id}/status`);
    expect(status.text).toContain("would_run");
  }, 90_000);

  it("leaves the results on a cluster that keeps them, listing them with where they are; the logs still come back", async () => {
    await team.call("admin", "POST", "/api/clusters", {
      body: { id: "keeps-results", ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey, host_key_sha256: sshd.hostKeySha256, scheduler: "none", results: "remote" },
    });
    const created = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-left-there"), cluster_id: "keeps-results" });
    const id = String(created.body.id);
    const run = await settle(id);
    expect(run).toMatchObject({ status: "completed", error: null, remote: { results: "remote", phase: "done" } });
    const admin = (await team.call("admin", "GET", `/api/runs/${id}`)).body as { workspace: string; remote: { workspace: string } };
    const results = (await team.call("admin", "GET", `/api/runs/${id}/results`)).body as { files: { path: string; size_bytes: number; rule: string }[]; remote: { cluster_id: string; workspace: string } };
    expect(results.remote).toEqual({ cluster_id: "keeps-results", workspace: admin.remote.workspace });
    expect(results.files.map((file) => [file.path, file.rule]).sort()).toEqual([["out/greeting.txt", "greet"], ["out/shout.txt", "shout"]]);
    expect(results.files.every((file) => file.size_bytes > 0)).toBe(true);
    // Not copied here; the job logs are.
    expect(existsSync(join(admin.workspace, "out", "shout.txt"))).toBe(false);
    expect(existsSync(join(admin.remote.workspace, "out", "shout.txt"))).toBe(true);
    const log = await team.call("user", "GET", `/api/runs/${id}/logs?job=greet&stream=stderr`);
    expect(log.status).toBe(200);
  }, 90_000);

  it("keeps other users out: another user's remote run is not found, and no view holds a key", async () => {
    const created = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-private") });
    const id = String(created.body.id);
    await settle(id);
    expect((await team.call("other", "GET", `/api/runs/${id}`)).status).toBe(404);
    expect((await team.call("other", "GET", `/api/runs/${id}/logs?stream=engine`)).status).toBe(404);
    const listed = await team.call("other", "GET", "/api/runs");
    expect(listed.text).not.toContain(id);
    const mine = await team.call("user", "GET", `/api/runs/${id}`);
    expect(mine.text).not.toContain("PRIVATE KEY");
    expect(mine.text).not.toContain('"pid"');
  }, 90_000);

  it("refuses to start on an unknown cluster or one without a pinned key, before anything is written", async () => {
    const before = (await team.call("admin", "GET", "/api/runs")).body.total;
    expect((await start({ toml_content: PIPELINE, cluster_id: "nowhere" })).status).toBe(404);
    await team.call("admin", "POST", "/api/clusters", { body: { id: "unpinned", ssh_host: sshd.host, ssh_port: sshd.port, ssh_user: sshd.user, remote_dir: remoteDir, private_key: sshd.clientKey } });
    const unpinned = await start({ toml_content: PIPELINE, cluster_id: "unpinned" });
    expect(unpinned.status).toBe(409);
    expect(unpinned.body.message).toContain("no pinned host key");
    expect((await team.call("admin", "GET", "/api/runs")).body.total).toBe(before);
    // Remote runs are audited as such, refused ones too, naming the cluster.
    const audit = (await team.call("admin", "GET", "/api/audit?action=run.create.remote")).body.items as { resource: string; result: string }[];
    expect(audit.some((entry) => entry.resource === "cluster/unpinned" && entry.result === "failure")).toBe(true);
    expect(audit.some((entry) => /^cluster\/loopback\/run\/[0-9a-f-]{36}$/.test(entry.resource) && entry.result === "success")).toBe(true);
  });

  it("refuses a changed host key, naming both keys, and then refuses new runs until an administrator re-pins", async () => {
    await sshd.swapHostKey();
    try {
      const created = await start({ toml_content: PIPELINE.replace("remote-hello", "remote-changed-key") });
      const run = await settle(String(created.body.id));
      expect(run.status).toBe("failed");
      expect(String(run.error)).toContain(sshd.hostKeySha256);
      expect(String(run.error)).toContain(sshd.otherHostKeySha256);
      const again = await start({ toml_content: PIPELINE });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain(sshd.otherHostKeySha256);
    } finally {
      await sshd.swapHostKey();
    }
  }, 60_000);
});
