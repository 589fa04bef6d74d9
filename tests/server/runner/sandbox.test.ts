/**
 * The job sandbox against a real `strand serve` and real bubblewrap: a pipeline whose job tries to read the
 * database file, list another user's workspace, read the service's configuration folder, read
 * /proc/<service pid>/environ and print the service's secrets gets nothing of them, while it still writes
 * its outputs, reads a declared data folder and has HOME and TMPDIR inside its run. A sandboxed run can be
 * paused, resumed and cancelled, has cpu and memory metrics, and is re-attached after kill -9 of the service;
 * in team mode runs are sandboxed by default, a job reads its owner's uploads (read-only) and one user's job
 * cannot reach another's run or uploads; a sandboxed
 * engine that died leaves no lock that would refuse the next run of its pipeline; links a job leaves in its
 * workspace never make the service write outside it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData } from "../../../src/client/service-client.js";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { chainPipeline, serviceClient, waitForRun, workspaceOf } from "../../support/run-client.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serve, type Served } from "../../support/strand-serve.js";

assertBuilt();
failWithoutBwrapWhenStrict();

/** The service's secrets: what no job may print. */
const SECRETS = {
  SERVICE_AI_API_KEY: "sk-ai-key-7f3a9c",
  SERVICE_OAUTH_GITHUB_CLIENT_ID: "gh-client-id-30c1",
  SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "gh-client-secret-51d0e2",
  DATABASE_URL: "postgres://strand:db-password-99e1@db.lab.example:5432/strand",
  PGPASSWORD: "pg-password-4c2d",
  LAB_MADE_UP_VALUE: "made-up-secret-e6f0",
};

const root = mkdtempSync(join(tmpdir(), "strand-sandbox-"));
const dataDir = join(root, "data");
const configDir = join(root, "config");
const dataRoot = join(root, "shared-references");
/** Another user's run, with a result file. */
const otherUser = "0f8e1c2a-9b7d-4e6f-8a5b-3c2d1e0f9a8b";
const otherRun = join(dataDir, "users", otherUser, "runs", "r1");
const services: ResultPromise[] = [];

async function serveSandboxed(): Promise<Served> {
  const served = await serve({
    ...SECRETS,
    SERVICE_DATA_DIR: dataDir,
    SERVICE_CONFIG_DIR: configDir,
    SERVICE_SANDBOX: "bwrap",
    SERVICE_DATA_ROOTS: dataRoot,
    SERVICE_RATE_LIMIT: "0",
    // GitHub sign-in is configured only when its id, secret and the public address are all set.
    SERVICE_PUBLIC_URL: "http://127.0.0.1:8080",
  });
  services.push(served.process);
  return served;
}

beforeAll(() => {
  mkdirSync(otherRun, { recursive: true });
  writeFileSync(join(otherRun, "variants.vcf"), "other-user-result-content\n");
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, "license.json"), '{"config": "config-folder-content"}\n');
  mkdirSync(dataRoot, { recursive: true });
  writeFileSync(join(dataRoot, "genome.fa"), ">chr1\ndata-root-content\n");
  // The probe runs from the data folder: reading it is part of what the job may do.
  writeFileSync(
    join(dataRoot, "probe.sh"),
    [
      "probe() { name=$1; shift; echo \"== $name\"; \"$@\" 2>&1; echo \"exit=$?\"; }",
      'probe database head -c 64 "$DATA/strand.db"',
      'probe data-dir ls -A "$DATA"',
      'probe users ls -A "$DATA/users"',
      'probe other-workspace ls -la "$OTHER"',
      'probe other-result cat "$OTHER/variants.vcf"',
      'probe config ls -la "$CONFIG"',
      'probe config-file cat "$CONFIG/license.json"',
      'probe service-environ cat "/proc/$HOST_PID/environ"',
      'probe all-environ sh -c "cat /proc/[0-9]*/environ | tr \\"\\\\0\\" \\"\\\\n\\""',
      "probe env env",
      'probe home-folder ls -A "$ACCOUNT_HOME"',
      'probe data-root cat "$ROOTS/genome.fa"',
      'probe places sh -c "echo HOME=$HOME; echo TMPDIR=$TMPDIR; touch $TMPDIR/scratch && echo tmp-writable"',
      "probe tmp ls -A /tmp",
      'probe write-outside sh -c "echo x > /usr/strand-was-here"',
      "exit 0",
      "",
    ].join("\n"),
  );
});

afterAll(() => {
  for (const child of services) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** The probe's sections, by name: its output and exit line. */
function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of text.split(/^== /m).slice(1)) {
    const newline = part.indexOf("\n");
    found.set(part.slice(0, newline), part.slice(newline + 1));
  }
  return found;
}

describe.skipIf(!BWRAP_WORKS)("a job in the sandbox", () => {
  it("gets nothing of the database, other users' runs, the configuration folder, the service's environment or its secrets, and still writes its outputs and reads a declared data folder", async () => {
    const served = await serveSandboxed();
    const client = serviceClient(served.url);
    const servicePid = served.process.pid!;
    const probe = `DATA=${dataDir} OTHER=${otherRun} CONFIG=${configDir} ROOTS=${dataRoot} HOST_PID=${servicePid} ACCOUNT_HOME=${process.env.HOME ?? "/root"} bash ${join(dataRoot, "probe.sh")} > {output[0]}`;
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("probe", [["probe", probe]]) } })).id;
    const run = await waitForRun(served.url, id);
    expect(run.log_tail.join("\n")).toMatch(/Done/);
    expect(run).toMatchObject({ status: "completed", exit_code: 0, counts: { completed: 1 } });
    // The run lives under its owner's folder.
    expect(workspaceOf(run)).toBe(join(dataDir, "users", "local", "runs", id));
    const output = readFileSync(join(workspaceOf(run), "probe.txt"), "utf8");
    const found = sections(output);

    // Nothing of the service's secrets anywhere in what the job saw.
    for (const value of Object.values(SECRETS)) expect(output).not.toContain(value);
    expect(output).not.toMatch(/SERVICE_|DATABASE_URL|PGPASSWORD|LAB_MADE_UP/);
    // The database, the service's data folder and other users' runs: absent.
    expect(output).not.toContain("SQLite format 3");
    expect(found.get("database")).toMatch(/No such file or directory[\s\S]*exit=1/);
    expect(found.get("data-dir")!.split("\n")).toEqual(["users", "exit=0", ""]);
    expect(found.get("users")!.split("\n")).toEqual(["local", "exit=0", ""]);
    expect(found.get("other-workspace")).toMatch(/No such file or directory[\s\S]*exit=2/);
    expect(output).not.toContain("other-user-result-content");
    // The configuration folder and the service account's home are empty.
    expect(found.get("config")).not.toContain("license.json");
    expect(output).not.toContain("config-folder-content");
    expect(found.get("home-folder")).toBe("exit=0\n");
    // No process of the service is visible.
    expect(found.get("service-environ")).toMatch(/No such file or directory[\s\S]*exit=1/);
    // What the job may do: read the declared data folder, write its run, use HOME and TMPDIR inside the run.
    expect(found.get("data-root")).toContain("data-root-content");
    const runFolder = join(workspaceOf(run), ".strand", "runs", id);
    expect(found.get("places")).toContain(`HOME=${join(workspaceOf(run), ".strand", "home")}`);
    expect(found.get("places")).toContain(`TMPDIR=${join(runFolder, "tmp")}`);
    expect(found.get("places")).toContain("tmp-writable");
    expect(existsSync(join(runFolder, "tmp", "scratch"))).toBe(true);
    // A private /tmp: only the folders leading to the run and the data folder (this test keeps them in /tmp).
    expect(found.get("tmp")!.split("\n")).toEqual([root.split("/")[2], "exit=0", ""]);
    // The system is read-only.
    expect(found.get("write-outside")).toMatch(/Read-only file system[\s\S]*exit=[12]/);
    expect(existsSync("/usr/strand-was-here")).toBe(false);
    const env = found.get("env")!;
    expect(env).toMatch(/^PATH=/m);
    // /api/system names the sandbox, and its folders to an administrator (the personal caller is one).
    const system = expectData(await client.GET("/api/system"));
    expect(system.sandbox).toEqual({ kind: "bwrap", hidden: expect.arrayContaining(["/tmp", dataDir, configDir]), data_roots: [dataRoot] });
    await served.stop();
  });

  it("can be paused, resumed and cancelled, reports cpu and memory, and is re-attached after kill -9 of the service", async () => {
    const first = await serveSandboxed();
    let client = serviceClient(first.url);
    // A job that keeps a core busy, so the metrics show it.
    const spin = "end=$((SECONDS+60)); while [ $SECONDS -lt $end ]; do :; done; touch {output[0]}";
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: chainPipeline("spin", [["spin", spin]]) } })).id;
    await waitForRun(first.url, id, (run) => run.counts.running === 1 && run.status === "running");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const status = expectData(await client.GET("/api/runs/{id}/status", { params: { path: { id } } }));
    expect(status.resources.cpu_pct).toBeGreaterThan(20);
    expect(status.resources.memory_mb).toBeGreaterThan(10);

    expect(expectData(await client.POST("/api/runs/{id}/pause", { params: { path: { id } } })).status).toBe("paused");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The job's shell is stopped: state T, seen from outside the sandbox.
    expect(jobStates("end=$((SECONDS+60))")).toEqual(["T"]);
    expect(expectData(await client.POST("/api/runs/{id}/resume", { params: { path: { id } } })).status).toBe("running");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(jobStates("end=$((SECONDS+60))")).not.toContain("T");

    // kill -9 of the service: the sandboxed engine carries on and the next service re-attaches to it.
    first.process.kill("SIGKILL");
    await first.process;
    const second = await serveSandboxed();
    client = serviceClient(second.url);
    expect(expectData(await client.GET("/api/runs/{id}", { params: { path: { id } } })).status).toBe("running");
    expect(expectData(await client.POST("/api/runs/{id}/cancel", { params: { path: { id } } })).status).toBe("cancelled");
    const run = await waitForRun(second.url, id, (found) => found.finished_at !== null, 30_000);
    expect(run).toMatchObject({ status: "cancelled", counts: { total: 1, running: 0, completed: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(jobStates("end=$((SECONDS+60))")).toEqual([]);
    await second.stop();
  });
});

describe.skipIf(!BWRAP_WORKS)("team mode", () => {
  it("sandboxes runs by default, each user's under their own folder, and one user's job cannot reach another's run", async () => {
    const data = join(root, "team-data");
    const served = await serve({ ...SECRETS, SERVICE_MODE: "team", SERVICE_ADMIN_PASSWORD: "team-admin-password", SERVICE_DATA_DIR: data, SERVICE_CONFIG_DIR: configDir, SERVICE_RATE_LIMIT: "0", SERVICE_PUBLIC_URL: "http://127.0.0.1:8080" });
    services.push(served.process);
    const request = async (token: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await response.json()) as Record<string, unknown>;
    };
    const signIn = async (username: string, password: string) => {
      const response = await fetch(`${served.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
      return ((await response.json()) as { token: string }).token;
    };
    const admin = await signIn("admin", "team-admin-password");
    const alice = (await request(admin, "POST", "/api/users", { username: "alice", password: "alice-password", role: "user" })) as { id: string };
    await request(admin, "POST", "/api/users", { username: "bob", password: "bob-password", role: "user" });
    const aliceToken = await signIn("alice", "alice-password");
    const bobToken = await signIn("bob", "bob-password");
    const waitEnded = async (id: string) => {
      for (let tries = 0; tries < 150; tries++) {
        const run = await request(admin, "GET", `/api/runs/${id}`);
        if (run.finished_at) return run;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`run ${id} did not end`);
    };
    // Alice's uploads: her job reads them (read-only) two folders above its workspace; Bob's cannot.
    const upload = await fetch(`${served.url}/api/files?name=sample.txt&path=reads`, { method: "POST", headers: { authorization: `Bearer ${aliceToken}`, "content-type": "application/octet-stream" }, body: "alice-uploaded-reads\n" });
    expect(upload.status).toBe(201);
    const reader = await request(aliceToken, "POST", "/api/runs", { toml_content: chainPipeline("reader", [["read", "{ cat ../../files/reads/sample.txt; touch ../../files/reads/new.txt || echo upload-folder-read-only; } > {output[0]} 2>&1"]]) });
    const readerDone = await waitEnded(reader.id as string);
    expect(readerDone.status).toBe("completed");
    const read = readFileSync(join(readerDone.workspace as string, "read.txt"), "utf8");
    expect(read).toContain("alice-uploaded-reads");
    expect(read).toContain("upload-folder-read-only");
    const aliceRun = await request(aliceToken, "POST", "/api/runs", { toml_content: chainPipeline("private", [["keep", "echo alice-private-result > {output[0]}"]]) });
    const aliceDone = await waitEnded(aliceRun.id as string);
    expect(aliceDone.status).toBe("completed");
    // Alice's run lives under her folder (administrators see the path).
    const aliceWorkspace = join(data, "users", alice.id, "runs", aliceRun.id as string);
    expect(aliceDone.workspace).toBe(aliceWorkspace);
    const probe = `{ ls -A ${join(data, "users")}; cat ${join(aliceWorkspace, "keep.txt")}; cat ${join(data, "users", alice.id, "files", "reads", "sample.txt")}; head -c 64 ${join(data, "strand.db")}; env; } > {output[0]} 2>&1 || true`;
    const bobRun = await request(bobToken, "POST", "/api/runs", { toml_content: chainPipeline("snoop", [["snoop", probe]]) });
    const bobDone = await waitEnded(bobRun.id as string);
    expect(bobDone.status).toBe("completed");
    const seen = readFileSync(join(bobDone.workspace as string, "snoop.txt"), "utf8");
    // Bob's job sees only his own folder under users/, and Alice's result is not there for him.
    expect(seen.split("\n")[0]).toBe(bobRun.owner);
    expect(seen).toContain(`cat: ${join(aliceWorkspace, "keep.txt")}: No such file or directory`);
    expect(seen).not.toContain("alice-private-result");
    expect(seen).not.toContain("alice-uploaded-reads");
    expect(seen).not.toContain("SQLite format 3");
    expect(seen).not.toContain("team-admin-password");
    for (const value of Object.values(SECRETS)) expect(seen).not.toContain(value);
    expect(seen).toMatch(/No such file or directory/);
    // A user learns that runs are sandboxed, not where the server's folders are.
    expect((await request(bobToken, "GET", "/api/system")).sandbox).toEqual({ kind: "bwrap", hidden: null, data_roots: null });
    expect(((await request(admin, "GET", "/api/system")).sandbox as { hidden: string[] }).hidden).toContain(data);
    await served.stop();
  });
});

describe.skipIf(!BWRAP_WORKS)("a saved pipeline's workspace after a sandboxed engine died", () => {
  it("is not locked by the dead engine's lock file (its pid meant something only inside its sandbox)", async () => {
    const served = await serveSandboxed();
    const client = serviceClient(served.url);
    const saved = expectData(await client.POST("/api/pipelines", { body: { toml_content: chainPipeline("doomed", [["wait", "sleep 60; touch {output[0]}"]]) } }));
    const first = expectData(await client.POST("/api/runs", { body: { pipeline_id: saved.id } }));
    await waitForRun(served.url, first.id, (run) => run.counts.running === 1 && run.status === "running");
    const workspace = join(dataDir, "users", "local", "pipelines", saved.id);
    const lock = JSON.parse(readFileSync(join(workspace, ".strand", "lock"), "utf8")) as { pid: number; pid_namespace?: string };
    expect(lock.pid_namespace).toMatch(/^pid:\[\d+\]$/);
    // The whole sandbox dies at once (an out-of-memory kill, a reboot): the lock file stays behind.
    process.kill(-sandboxGroup(first.id), "SIGKILL");
    expect((await waitForRun(served.url, first.id)).status).toBe("failed");
    expect(existsSync(join(workspace, ".strand", "lock"))).toBe(true);
    const second = await client.POST("/api/runs", { body: { pipeline_id: saved.id } });
    expect(second.error).toBeUndefined();
    expect(second.response.status).toBe(201);
    await client.POST("/api/runs/{id}/cancel", { params: { path: { id: expectData(second).id } } });
    await waitForRun(served.url, expectData(second).id);
    await served.stop();
  });
});

describe.skipIf(!BWRAP_WORKS)("links a job leaves in its workspace", () => {
  it("never make the service write outside the workspace: the metrics are not written through a link, and the next run refuses a linked pipeline file", async () => {
    const victim = join(root, "victim.db");
    writeFileSync(victim, "precious database\n");
    const served = await serveSandboxed();
    const client = serviceClient(served.url);
    // The job cannot see the victim, but it can name it in a link that the service (outside the sandbox) would follow.
    const plant = `ln -sf ${victim} workflow.oxoflow; ln -sf ${victim} .strand/runs/$STRAND_RUN_ID/metrics.jsonl; sleep 3; touch {output[0]}`;
    const saved = expectData(await client.POST("/api/pipelines", { body: { toml_content: chainPipeline("planter", [["plant", plant]]) } }));
    const first = expectData(await client.POST("/api/runs", { body: { pipeline_id: saved.id } }));
    expect((await waitForRun(served.url, first.id)).status).toBe("completed");
    expect(readFileSync(victim, "utf8")).toBe("precious database\n");
    const second = expectData(await client.POST("/api/runs", { body: { pipeline_id: saved.id } }));
    const refused = await waitForRun(served.url, second.id);
    expect(refused.status).toBe("failed");
    expect(refused.error).toMatch(/symbolic link at workflow\.oxoflow, where the service writes its files/);
    expect(readFileSync(victim, "utf8")).toBe("precious database\n");
    await served.stop();
  });
});

/** The process group of the sandbox running a run's engine (bwrap's, seen from outside). */
function sandboxGroup(runId: string): number {
  const listing = execFileSync("ps", ["-eo", "pgid=,args="], { encoding: "utf8" });
  const line = listing.split("\n").find((entry) => entry.includes("bwrap") && entry.includes(`--run-id=${runId}`));
  if (!line) throw new Error(`no sandbox runs ${runId}`);
  return Number(line.trim().split(/\s+/)[0]);
}

/** The states (R, S, T, …) of live processes whose command line contains `text`. */
function jobStates(text: string): string[] {
  const listing = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  return listing
    .split("\n")
    .filter((line) => line.includes(text) && !line.includes("bwrap") && !line.includes("ps -eo"))
    .map((line) => line.trim()[0]!)
    .filter((state) => state !== "Z");
}
