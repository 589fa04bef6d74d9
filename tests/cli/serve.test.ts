/**
 * `strand serve` as users start it: the embedded SQLite store in SERVICE_DATA_DIR (kept across restarts),
 * PostgreSQL through SERVICE_DATABASE_URL, and clear start failures (a bad database URL, a taken port).
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dropTestDatabase, ensurePostgres, failWithoutPostgresWhenStrict } from "../support/postgres-server.js";
import { assertBuilt, runStrand, tempFolder } from "../support/strand-cli.js";
import { serve } from "../support/strand-serve.js";

assertBuilt();

const PIPELINE = '[workflow]\nname = "kept"\nversion = "1.0.0"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > {output[0]}"\n';

describe("strand serve", () => {
  it("keeps pipelines in the SQLite file of SERVICE_DATA_DIR across restarts", async () => {
    const data = tempFolder();
    const env = { SERVICE_DATA_DIR: join(data.dir, "data"), SERVICE_CONFIG_DIR: join(data.dir, "config") };
    const first = await serve(env);
    const saved = (await (await fetch(`${first.url}/api/pipelines`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: PIPELINE }) })).json()) as { id: string };
    expect(await (await fetch(`${first.url}/api/system`)).json()).toMatchObject({ storage: "sqlite", data_dir: join(data.dir, "data") });
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(data.dir, "data", "strand.db"))).toBe(true);

    const second = await serve(env);
    try {
      const listed = (await (await fetch(`${second.url}/api/pipelines`)).json()) as { id: string }[];
      expect(listed.map((pipeline) => pipeline.id)).toEqual([saved.id]);
      expect((await (await fetch(`${second.url}/api/health`)).json()) as object).toMatchObject({ status: "ok", components: { database: { status: "ok" } } });
    } finally {
      await second.stop();
      data.remove();
    }
  }, 60_000);

  it("refuses a database URL that is not PostgreSQL, naming the variable", async () => {
    const data = tempFolder();
    const result = await runStrand(["serve", "-p", "0"], { env: { SERVICE_DATA_DIR: data.dir, SERVICE_DATABASE_URL: "mysql://db.example/strand" } });
    data.remove();
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("SERVICE_DATABASE_URL");
    expect(result.stderr).toContain("postgres://");
    expect(result.stderr).not.toContain("internal error");
  });

  it("says which port is taken", async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as { port: number }).port)));
    const data = tempFolder();
    try {
      const result = await runStrand(["serve", "-p", String(port)], { env: { SERVICE_DATA_DIR: data.dir } });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`port ${port}`);
      expect(result.stderr).toContain("already in use");
    } finally {
      blocker.close();
      data.remove();
    }
  });
});

const postgresUrl = await ensurePostgres();
failWithoutPostgresWhenStrict(postgresUrl !== undefined);
afterAll(async () => {
  if (postgresUrl) await dropTestDatabase(postgresUrl);
});

describe.skipIf(!postgresUrl)("strand serve on PostgreSQL", () => {
  it("stores pipelines in the database SERVICE_DATABASE_URL names", async () => {
    const data = tempFolder();
    const served = await serve({ SERVICE_DATA_DIR: data.dir, SERVICE_DATABASE_URL: postgresUrl! });
    try {
      expect(await (await fetch(`${served.url}/api/system`)).json()).toMatchObject({ storage: "postgres" });
      const created = await fetch(`${served.url}/api/pipelines`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: PIPELINE }) });
      expect(created.status).toBe(201);
      expect(existsSync(join(data.dir, "strand.db"))).toBe(false);
    } finally {
      expect(await served.stop()).toBe(0);
      data.remove();
    }
  }, 60_000);
});
