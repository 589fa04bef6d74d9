/**
 * `npm run bench:api`: how fast the service answers, on each store.
 *
 * Starts `strand serve` as its own process (rate limit off, a fresh data directory), saves 1,000 pipelines,
 * then drives it with autocannon (50 connections, 10 s per endpoint by default) against `GET /api/health`,
 * `GET /api/pipelines` (1,000 saved; the list holds the newest 100) and `POST /api/pipelines/validate` with a gallery pipeline (the built-in
 * germline-variants template), printing requests per second and p50/p99 latency. It then times one
 * `POST /api/pipelines/validate` of a 100,000-job pipeline (best of three, whole round trip), and, since
 * validation checks rules and their wildcards rather than every job, one `POST /api/pipelines/prepare`
 * that expands all 100,001 jobs (`limit: 0`: counts only, no job list in the answer). Last, health under
 * hostile load: `GET /api/health` driven with 10 connections while other clients keep sending the two
 * requests that used to stop the service (a wildcard constraint that backtracks exponentially in JavaScript
 * against a near-miss sample, and a 30 KB pipeline expanding into 4,000,000 jobs), with its p99. Runs on
 * embedded SQLite and on PostgreSQL (`BENCH_POSTGRES_URL`, else the throwaway server of
 * scripts/postgres-local.sh; skipped with the reason when neither is there).
 * Goals: p99 under 20 ms for health and the list (with 50 concurrent clients); the 100,000-job validate under 2 s.
 * Options: `--seconds N` (per endpoint), `--connections N`, `--sqlite-only`.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { option, ROOT, startService } from "./service-process.js";
import { wildcardPipelineText } from "./wildcard-pipeline.js";


const SECONDS = Number(option("seconds") ?? 10);
const CONNECTIONS = Number(option("connections") ?? 50);
const GALLERY = readFileSync(join(ROOT, "templates", "germline-variants.oxoflow"), "utf8");

interface Row {
  store: string;
  endpoint: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  goal?: number;
}


async function load(url: string, path: string, init: { method?: string; body?: string } = {}): Promise<Pick<Row, "rps" | "p50" | "p99" | "errors">> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: (init.method ?? "GET") as "GET" | "POST",
    headers: init.body ? { "content-type": "application/json" } : {},
    body: init.body,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The best of three round trips of one request, in ms; the answer must be a 200 with `field`. */
async function bestOfThree(url: string, body: string, field: string): Promise<number> {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = performance.now();
    const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    const result = (await answer.json()) as Record<string, unknown>;
    const ms = performance.now() - started;
    if (answer.status !== 200 || result[field] === undefined) throw new Error(`${url}: ${answer.status} ${JSON.stringify(result).slice(0, 300)}`);
    best = Math.min(best, ms);
  }
  return best;
}

async function benchStore(store: string, env: Record<string, string>, logFile: string): Promise<{ rows: Row[]; validateMs: number; prepareMs: number; jobs: number }> {
  const { url, child } = await startService(env, logFile);
  try {
    process.stderr.write(`  ${store}: saving 1,000 pipelines …\n`);
    for (let i = 0; i < 1000; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const saved = await fetch(`${url}/api/pipelines`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ toml_content: GALLERY, name: `saved-${i + j}` }) });
          if (saved.status !== 201) throw new Error(`saving pipeline ${i + j}: ${saved.status} ${await saved.text()}`);
        }),
      );
    }
    const rows: Row[] = [];
    process.stderr.write(`  ${store}: GET /api/health …\n`);
    rows.push({ store, endpoint: "GET /api/health", goal: 20, ...(await load(url, "/api/health")) });
    process.stderr.write(`  ${store}: GET /api/pipelines (1,000 saved) …\n`);
    rows.push({ store, endpoint: "GET /api/pipelines (1,000 saved)", goal: 20, ...(await load(url, "/api/pipelines")) });
    process.stderr.write(`  ${store}: POST /api/pipelines/validate (gallery) …\n`);
    rows.push({ store, endpoint: "POST /api/pipelines/validate (gallery)", ...(await load(url, "/api/pipelines/validate", { method: "POST", body: JSON.stringify({ toml_content: GALLERY }) })) });

    const samples = 50_000;
    const big = wildcardPipelineText(samples);
    const validateMs = await bestOfThree(`${url}/api/pipelines/validate`, JSON.stringify({ toml_content: big }), "valid");
    const prepareMs = await bestOfThree(`${url}/api/pipelines/prepare`, JSON.stringify({ toml_content: big, limit: 0 }), "jobs_total");
    process.stderr.write(`  ${store}: GET /api/health while hostile requests are under way …\n`);
    rows.push({ store, endpoint: "GET /api/health under hostile load", goal: 20, ...(await healthUnderHostileLoad(url)) });
    return { rows, validateMs, prepareMs, jobs: samples * 2 + 1 };
  } finally {
    child.kill("SIGTERM");
  }
}

/** The requests that used to block the service for minutes, each sent over and over by its own client. */
const HOSTILE: { path: string; body: string }[] = [
  {
    path: "/api/pipelines/prepare",
    body: JSON.stringify({
      toml_content: `[workflow]\nname = "regex"\n\n[wildcard_constraints]\nsample = "(a|a)*$"\n\n[[sample_groups]]\nname = "g"\nsamples = ["${"a".repeat(30)}!"]\n\n[[rules]]\nname = "qc"\noutput = ["{sample}.txt"]\nshell = "touch {output[0]}"\n`,
    }),
  },
  {
    path: "/api/pipelines/dag",
    body: JSON.stringify({
      expanded: true,
      toml_content: `[workflow]\nname = "wide"\n\n[[sample_groups]]\nname = "g"\nsamples = [${Array.from({ length: 2000 }, (_, i) => `"S${i}"`).join(",")}]\n\n[[values]]\nname = "chunk"\nvalues = [${Array.from({ length: 2000 }, (_, i) => `"c${i}"`).join(",")}]\n\n[[rules]]\nname = "work"\noutput = ["{sample}/{chunk}.txt"]\nshell = "touch {output[0]}"\n`,
    }),
  },
];

/** Health latency with 10 connections while the hostile requests keep coming (their answers are 200 or 422, never 5xx). */
async function healthUnderHostileLoad(url: string): Promise<Pick<Row, "rps" | "p50" | "p99" | "errors">> {
  let running = true;
  let hostileErrors = 0;
  const attackers = HOSTILE.map(async ({ path, body }) => {
    while (running) {
      const answer = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      await answer.arrayBuffer();
      if (answer.status >= 500) hostileErrors++;
    }
  });
  try {
    const result = await autocannon({ url: `${url}/api/health`, connections: 10, duration: SECONDS });
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + hostileErrors };
  } finally {
    running = false;
    await Promise.all(attackers);
  }
}

/** A fresh database on BENCH_POSTGRES_URL's server or the project's throwaway server, or why there is none. */
async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | string> {
  let admin = process.env.BENCH_POSTGRES_URL;
  if (!admin) {
    const started = spawnSync(join(ROOT, "scripts", "postgres-local.sh"), ["start"], { encoding: "utf8" });
    if (started.status !== 0) return `scripts/postgres-local.sh start failed: ${(started.stderr || started.stdout).trim().split("\n").pop()}`;
    admin = started.stdout.trim().split("\n").pop()!;
  }
  const name = `strand_bench_${randomBytes(4).toString("hex")}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database ${name}`);
  } catch (error) {
    return `cannot create a database on ${admin}: ${(error as Error).message}`;
  } finally {
    await sql.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = postgres(admin!, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number, digits = 1) => value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<void> {
  console.log(`bench:api — ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per endpoint`);
  const rows: Row[] = [];
  const validations: { store: string; ms: number; prepareMs: number; jobs: number }[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "strand-bench-api-"));
  try {
    const sqlite = await benchStore("sqlite", { SERVICE_DATA_DIR: join(dataDir, "sqlite") }, join(dataDir, "sqlite.log"));
    rows.push(...sqlite.rows);
    validations.push({ store: "sqlite", ms: sqlite.validateMs, prepareMs: sqlite.prepareMs, jobs: sqlite.jobs });
    if (!process.argv.includes("--sqlite-only")) {
      const database = await postgresDatabase();
      if (typeof database === "string") console.log(`PostgreSQL: skipped (${database})`);
      else {
        try {
          const pg = await benchStore("postgres", { SERVICE_DATA_DIR: join(dataDir, "pg"), SERVICE_DATABASE_URL: database.url }, join(dataDir, "postgres.log"));
          rows.push(...pg.rows);
          validations.push({ store: "postgres", ms: pg.validateMs, prepareMs: pg.prepareMs, jobs: pg.jobs });
        } finally {
          await database.drop();
        }
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log("");
  console.log(`${pad("store", 9)}${pad("endpoint", 40)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("errors", 8)}goal`);
  for (const row of rows) {
    const goal = row.goal === undefined ? "" : `p99 < ${row.goal} ms: ${row.p99 < row.goal ? "met" : "MISSED"}`;
    console.log(`${pad(row.store, 9)}${pad(row.endpoint, 40)}${pad(num(row.rps, 0), 10)}${pad(num(row.p50), 9)}${pad(num(row.p99), 9)}${pad(String(row.errors), 8)}${goal}`);
  }
  console.log("");
  for (const validation of validations) {
    const jobs = validation.jobs.toLocaleString("en-US");
    console.log(`${pad(validation.store, 9)}POST /api/pipelines/validate, ${jobs}-job pipeline: ${num(validation.ms / 1000, 2)} s (goal < 2 s: ${validation.ms < 2000 ? "met" : "MISSED"})`);
    console.log(`${pad(validation.store, 9)}POST /api/pipelines/prepare, all ${jobs} jobs expanded: ${num(validation.prepareMs / 1000, 2)} s`);
  }
}

await main();
