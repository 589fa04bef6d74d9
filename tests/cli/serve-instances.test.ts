/**
 * `strand serve` processes among the instances of one database: each has an id in its health answer and in
 * every line it prints (all JSON when its output is not a terminal); a second instance on one SQLite
 * database is refused before it touches anything, while one whose predecessor was killed starts at once;
 * instances on one PostgreSQL see each other as peers, and a stopped one leaves the list; the index page has
 * an ETag that is the same on every instance and answers 304.
 */
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { dropTestDatabase, ensurePostgres, failWithoutPostgresWhenStrict } from "../support/postgres-server.js";
import { serve, type Served } from "../support/strand-serve.js";
import { STRAND_BIN, strandEnv, tempFolder } from "../support/strand-cli.js";

interface Health {
  instance_id: string;
  peers: { instance_id: string; alive: boolean; heartbeat_at: string; pid: number }[];
}

async function health(served: Served): Promise<Health> {
  return (await (await fetch(`${served.url}/api/health`)).json()) as Health;
}

/** Every line a served process printed on both streams, parsed (a line that is not JSON fails the test). */
async function printedLines(served: Served): Promise<Record<string, unknown>[]> {
  const result = await served.process;
  const text = `${String(result.stdout ?? "")}\n${String(result.stderr ?? "")}`;
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

describe("strand serve on SQLite: one instance", () => {
  it("gives itself an id, prints only JSON lines, and refuses a second instance on the same database", async () => {
    const data = tempFolder();
    const first = await serve({ SERVICE_DATA_DIR: data.dir, SERVICE_INSTANCE_ID: "alpha" });
    try {
      expect(await health(first)).toMatchObject({ instance_id: "alpha", peers: [] });
      const second = await execa("node", [STRAND_BIN, "serve", "-p", "0"], { env: strandEnv({ SERVICE_DATA_DIR: data.dir }), reject: false, timeout: 60_000 });
      expect(second.exitCode).toBe(1);
      const refusal = JSON.parse(String(second.stderr).trim().split("\n").pop()!) as Record<string, string>;
      expect(refusal).toMatchObject({ level: "fatal", code: "SERVICE_ERROR" });
      expect(refusal.msg).toContain(`another strand service (instance alpha, process ${first.process.pid}`);
      expect(refusal.suggestion).toContain("PostgreSQL (SERVICE_DATABASE_URL)");
      // The first goes on serving, unaware.
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const lines = await printedLines(first);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => line.instance_id === "alpha")).toBe(true);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(["service started", "stopping", "service stopped"]));
    // Stopped cleanly, it left no registration: the next start is not refused.
    const next = await serve({ SERVICE_DATA_DIR: data.dir });
    try {
      const shown = await health(next);
      expect(shown.instance_id).toMatch(/-\d+-[0-9a-f]{6}$/);
      expect(shown.peers).toEqual([]);
    } finally {
      await next.stop();
      data.remove();
    }
  }, 120_000);

  it("starts at once after the instance before it was killed", async () => {
    const data = tempFolder();
    const killed = await serve({ SERVICE_DATA_DIR: data.dir });
    killed.process.kill("SIGKILL");
    await killed.process;
    const next = await serve({ SERVICE_DATA_DIR: data.dir });
    try {
      expect((await health(next)).peers).toEqual([]);
    } finally {
      await next.stop();
      data.remove();
    }
  }, 60_000);

  it("answers a reload of the index page with 304 while it is the same", async () => {
    const data = tempFolder();
    const served = await serve({ SERVICE_DATA_DIR: data.dir });
    try {
      const page = await fetch(`${served.url}/runs`);
      const etag = page.headers.get("etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(page.headers.get("cache-control")).toBe("no-cache");
      const again = await fetch(`${served.url}/pipelines`, { headers: { "If-None-Match": `W/${etag}` } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
      expect((await fetch(`${served.url}/`, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
    } finally {
      await served.stop();
      data.remove();
    }
  }, 60_000);
});

const postgresUrl = await ensurePostgres();
failWithoutPostgresWhenStrict(postgresUrl !== undefined);
afterAll(async () => {
  if (postgresUrl) await dropTestDatabase(postgresUrl);
});

describe.skipIf(!postgresUrl)("strand serve on PostgreSQL: several instances", () => {
  it("lets two instances serve one database, each listing the other as a live peer, and forgets one that stopped", async () => {
    const [dataA, dataB] = [tempFolder(), tempFolder()];
    const a = await serve({ SERVICE_DATA_DIR: dataA.dir, SERVICE_DATABASE_URL: postgresUrl!, SERVICE_INSTANCE_ID: "web-a" });
    const b = await serve({ SERVICE_DATA_DIR: dataB.dir, SERVICE_DATABASE_URL: postgresUrl!, SERVICE_INSTANCE_ID: "web-b" });
    try {
      // A registered before B: it sees B at its next heartbeat (every 5 s); B saw A at its start.
      expect(await health(b)).toMatchObject({ instance_id: "web-b", peers: [{ instance_id: "web-a", alive: true, pid: a.process.pid }] });
      const deadline = Date.now() + 15_000;
      while (!(await health(a)).peers.some((peer) => peer.instance_id === "web-b")) {
        if (Date.now() > deadline) throw new Error(`web-a never saw web-b: ${JSON.stringify(await health(a))}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The same build gives the same index ETag on every instance: a reload through a balancer stays a 304.
      const [pageA, pageB] = await Promise.all([fetch(`${a.url}/`), fetch(`${b.url}/`)]);
      expect(pageA.headers.get("etag")).toBe(pageB.headers.get("etag"));
      expect(await b.stop()).toBe(0);
      const gone = Date.now() + 15_000;
      while ((await health(a)).peers.some((peer) => peer.instance_id === "web-b")) {
        if (Date.now() > gone) throw new Error(`web-a still lists web-b: ${JSON.stringify(await health(a))}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await a.stop();
      await b.stop();
      dataA.remove();
      dataB.remove();
    }
  }, 120_000);
});
