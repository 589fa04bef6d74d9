/**
 * Issue 25, findings 3, 4 and 9: a job reaches nothing the sandbox does not grant. Against a real hpc-mode
 * `strand serve`, real bubblewrap and the real one-node SLURM, with the service running as root (which it
 * must be told it may) and as an unprivileged account:
 *
 * - a job's command, local or on a SLURM node, reaches no scheduler (its `sbatch` submits nothing), no MUNGE
 *   socket, no container daemon, no database socket and not the service's API or anything else on the
 *   loopback; the engine's own submissions still run, inside the job sandbox on the node (finding 3);
 * - a job has no capabilities, cannot undo the sandbox's mounts, and as root does not run as root (finding 4);
 *   team and hpc modes refuse to start as root unless SERVICE_ALLOW_ROOT=1 says they may;
 * - a job gets its declared memory and no more, a cap on its processes, and its user a workspace quota; the
 *   health document says which mechanism enforces them (finding 9).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createTcpServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../support/slurm-cluster.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serve } from "../../support/strand-serve.js";
import { serveTeam, serviceAccounts, type ServedTeam } from "../../support/team-serve.js";

assertBuilt();
failWithoutBwrapWhenStrict();
const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

/** A folder outside /tmp and /run (both are the sandbox's own) for the stand-in daemon's socket. */
const outside = mkdtempSync("/var/tmp/strand-job-sandbox-");
chmodSync(outside, 0o755);
const daemonSocket = join(outside, "docker.sock");
/** Where an escaped scheduler job would leave its mark (the host's /tmp: no job sees it). */
const marker = `/tmp/strand-escaped-${process.pid}`;

let daemon: Server;
let loopback: Server;
let loopbackPort = 0;
const daemonConnections: string[] = [];
const loopbackConnections: string[] = [];

beforeAll(async () => {
  // Stand-ins for a container daemon's socket and for any service on the host's loopback.
  daemon = createTcpServer((socket) => {
    socket.on("error", () => undefined);
    daemonConnections.push("daemon");
    socket.end("HTTP/1.1 200 OK\r\n\r\ndaemon-answered\n");
  });
  await new Promise<void>((resolve) => daemon.listen(daemonSocket, resolve));
  chmodSync(daemonSocket, 0o777);
  loopback = createTcpServer((socket) => {
    socket.on("error", () => undefined);
    loopbackConnections.push("loopback");
    socket.end("loopback-answered\n");
  });
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  loopbackPort = (loopback.address() as { port: number }).port;
});

afterAll(() => {
  daemon?.close();
  loopback?.close();
  rmSync(outside, { recursive: true, force: true });
  rmSync(marker, { force: true });
});

/** The probe a job runs: one `name=outcome` line per thing it tries to reach. */
function probeScript(servicePort: string): string {
  return [
    'echo "uid=$(id -u)"',
    'echo "caps=$(awk \'/^CapEff/ {print $2}\' /proc/self/status)"',
    '(munge -n </dev/null >/dev/null 2>&1 && echo munge=reached) || echo munge=refused',
    '(ls -A /run/munge 2>/dev/null | grep -q . && echo munge-folder=visible) || echo munge-folder=hidden',
    `(sbatch --wrap "touch ${marker}" >/dev/null 2>&1 && echo sbatch=submitted) || echo sbatch=refused`,
    '(squeue >/dev/null 2>&1 && echo squeue=answered) || echo squeue=refused',
    `(exec 3<>/dev/tcp/127.0.0.1/${servicePort} && echo api=reached) 2>/dev/null || echo api=refused`,
    `(exec 3<>/dev/tcp/127.0.0.1/${loopbackPort} && echo loopback=reached) 2>/dev/null || echo loopback=refused`,
    `(python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "\${DOCKER_HOST#unix://}" 2>/dev/null && echo daemon=reached) || echo daemon=refused`,
    `(python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" ${daemonSocket} 2>/dev/null && echo daemon-path=reached) || echo daemon-path=refused`,
    '(ls /run/postgresql /run/mysqld /var/run/postgresql 2>/dev/null | grep -q "\\.s\\.PGSQL\\|mysqld.sock" && echo db-socket=visible) || echo db-socket=hidden',
    '(umount /tmp 2>/dev/null && echo umount=done) || echo umount=refused',
    '(mount -o remount,rw / 2>/dev/null && echo remount=done) || echo remount=refused',
    '(unshare -U true 2>/dev/null && echo userns=made) || echo userns=refused',
  ].join("\n");
}

function pipeline(name: string, shell: string, rule = ""): string {
  return `[workflow]\nname = "${name}"\n\n[[rules]]\nname = "probe"\noutput = ["probe.txt"]\n${rule}shell = ${JSON.stringify(`{\n${shell}\n} > probe.txt 2>&1`)}\n`;
}

async function runToEnd(team: ServedTeam, body: Record<string, unknown>, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const created = await team.call("alice", "POST", "/api/runs", { body });
  if (created.status !== 201) throw new Error(`POST /api/runs: ${created.status} ${created.text}`);
  const id = created.body.id as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await team.call("alice", "GET", `/api/runs/${id}`);
    if (["completed", "failed", "cancelled"].includes(String(answer.body.status))) return answer.body;
    if (Date.now() > deadline) throw new Error(`run ${id} did not end: ${answer.text.slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function fileOf(team: ServedTeam, runId: string, path: string): Promise<string> {
  const answer = await team.call("alice", "GET", `/api/runs/${runId}/files?path=${encodeURIComponent(path)}`);
  return answer.status === 200 ? answer.text : `(${answer.status}) ${answer.text}`;
}

/** The probe's lines as a map. */
function outcomes(text: string): Record<string, string> {
  return Object.fromEntries(text.split("\n").filter((line) => line.includes("=")).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
}

const REFUSED = {
  munge: "refused",
  "munge-folder": "hidden",
  sbatch: "refused",
  squeue: "refused",
  api: "refused",
  loopback: "refused",
  daemon: "refused",
  "daemon-path": "refused",
  "db-socket": "hidden",
  umount: "refused",
  remount: "refused",
  userns: "refused",
};

for (const account of BWRAP_WORKS ? serviceAccounts() : []) {
  describe(`jobs of an hpc service running as ${account.name} (uid ${account.uid})`, () => {
    let team: ServedTeam;
    let port: string;
    beforeAll(async () => {
      team = await serveTeam(account, {
        mode: "hpc",
        env: { DOCKER_HOST: `unix://${daemonSocket}`, SERVICE_JOB_MAX_PROCESSES: "64", SERVICE_USER_WORKSPACE_MB: "100" },
      });
      port = new URL(team.url).port;
    }, 60_000);
    afterAll(() => team?.stop());

    it("a local job reaches no scheduler, MUNGE, container daemon, database socket, service API or loopback, and has no capabilities (findings 3, 4)", async () => {
      const run = await runToEnd(team, { toml_content: pipeline("reach-local", probeScript(port)) });
      const seen = outcomes(await fileOf(team, run.id as string, "probe.txt"));
      expect(seen, JSON.stringify(seen)).toMatchObject(REFUSED);
      expect(seen.caps).toBe("0000000000000000");
      // Root's jobs run under an unprivileged account (SERVICE_SANDBOX_USER), never as uid 0.
      expect(seen.uid).not.toBe("0");
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(existsSync(marker), "a job submitted a scheduler job of its own").toBe(false);
      expect(daemonConnections).toEqual([]);
      expect(loopbackConnections).toEqual([]);
    }, 180_000);

    it.skipIf(!slurm)("a SLURM job on the node is in the job sandbox too, while the engine's own submissions run (finding 3)", async () => {
      const run = await runToEnd(team, { toml_content: pipeline("reach-slurm", `echo job=$SLURM_JOB_ID\n${probeScript(port)}`), target: { type: "slurm", poll_interval: "1s" } });
      const seen = outcomes(await fileOf(team, run.id as string, "probe.txt"));
      expect(run.status, JSON.stringify(run)).toBe("completed");
      expect(seen.job).toMatch(/^\d+$/);
      expect(seen, JSON.stringify(seen)).toMatchObject(REFUSED);
      expect(seen.uid).not.toBe("0");
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(existsSync(marker)).toBe(false);
    }, 180_000);

    it("holds a job to its declared memory and a process cap, and its user to the workspace quota; health says how (finding 9)", async () => {
      const memory = await runToEnd(team, { toml_content: pipeline("memory", 'python3 -c "x = bytearray(600 * 1024 * 1024); print(\'allocated\', len(x))" || echo allocation=refused', 'memory = "100M"\n') });
      const memoryOut = await fileOf(team, memory.id as string, "probe.txt");
      expect(memoryOut).not.toContain("allocated");
      expect(memoryOut).toContain("allocation=refused");
      const forks = ["import os, time", "n = 0", "for i in range(400):", "    try:", "        pid = os.fork()", "    except OSError:", "        break", "    if pid == 0:", "        time.sleep(5)", "        os._exit(0)", "    n += 1", "print('started=%d' % n)"].join("\n");
      const processes = await runToEnd(team, { toml_content: pipeline("processes", `echo ${Buffer.from(forks).toString("base64")} | base64 -d > forks.py && python3 forks.py`) });
      const started = Number(outcomes(await fileOf(team, processes.id as string, "probe.txt")).started);
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThan(64);
      // 300 MB written 10 MB at a time against a quota of 100 MB: the run is stopped, with the quota named.
      const quota = await runToEnd(team, { toml_content: pipeline("quota", "for i in $(seq 30); do head -c 10485760 /dev/zero > big-$i || { echo write=refused; exit 1; }; sleep 0.4; done; echo write=done") });
      expect(quota.status).not.toBe("completed");
      expect(String(quota.error ?? "")).toMatch(/quota/);
      const listing = await team.call("alice", "GET", `/api/runs/${quota.id as string}/files`);
      const written = (listing.body.entries as { name: string }[]).filter((entry) => entry.name.startsWith("big-")).length;
      expect(written).toBeLessThan(30);
      const health = await team.call("anonymous", "GET", "/api/health");
      const sandbox = (health.body.components as Record<string, Record<string, unknown>>).sandbox!;
      expect(sandbox).toMatchObject({ kind: "bwrap", network: "none", capabilities: "none", processes_per_job: 64, workspace_quota_mb: 100 });
      expect(["cgroup-v2", "rlimits"]).toContain(sandbox.limits);
    }, 240_000);
  });
}

describe.runIf(process.getuid?.() === 0 && BWRAP_WORKS)("a team service started as root", () => {
  it("refuses to start unless SERVICE_ALLOW_ROOT=1 says it may, and says why", async () => {
    const root = mkdtempSync("/var/tmp/strand-root-refusal-");
    // Its sandboxes run as an unprivileged account, which must pass through to the data folder.
    chmodSync(root, 0o711);
    mkdirSync(join(root, "data"));
    try {
      const result = spawnSync(process.execPath, [join(import.meta.dirname, "../../../bin/strand.js"), "serve", "-p", "0"], {
        env: { ...process.env, SERVICE_MODE: "team", SERVICE_DATA_DIR: join(root, "data"), SERVICE_CONFIG_DIR: join(root, "config"), SERVICE_ALLOW_ROOT: "" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/runs as root/);
      expect(result.stderr).toMatch(/SERVICE_ALLOW_ROOT=1/);
      const allowed = await serve({ SERVICE_MODE: "team", SERVICE_DATA_DIR: join(root, "data"), SERVICE_CONFIG_DIR: join(root, "config"), SERVICE_ALLOW_ROOT: "1", HOME: root });
      expect((await fetch(`${allowed.url}/api/health`)).status).toBe(200);
      await allowed.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
