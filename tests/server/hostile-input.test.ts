/**
 * The requests that used to stop the service for everyone, or reach what they should not, each sent to a
 * real service (real worker threads, real engine runs, real files): every one now gets a clear 4xx or a
 * bounded answer, and `/api/health` keeps answering while the heavy ones are under way.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventLog } from "../../src/engine/run/event-log.js";
import { LINE_CUT_MARKER, LOG_LIMITS } from "../../src/server/domains/execution/log-pages.js";
import type { LooseJson } from "../support/loose-json.js";
import { call, waitForRun } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { assertBuilt } from "../support/strand-cli.js";

assertBuilt();

const MB = 1024 * 1024;
let service: TestService;
let base: string;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0, bodyLimit: 16 * MB, engine: { deadlineMs: 4000 }, quota: { pipelineBytes: 20 * MB, ownerBytes: 30 * MB }, runner: { sampleIntervalMs: 100 } });
  base = service.url;
});
afterAll(async () => {
  const page = await service.store.listRuns({ limit: 500 });
  for (const run of page.items) await service.supervisor.whenFinished(run.id);
  await service.close();
});

/** Polls /api/health until `work` settles; every answer must be a 200. */
async function whileHealthPolled<T>(work: Promise<T>): Promise<{ result: T; polls: number }> {
  let done = false;
  let polls = 0;
  const polling = (async () => {
    while (!done) {
      const response = await fetch(`${base}/api/health`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await work, polls };
  } finally {
    done = true;
    await polling;
  }
}

const post = (path: string, body: unknown) => call(base, "POST", path, body);

/** A pipeline expanding into samples × values jobs of one rule, from a small text. */
function wideExpansion(samples: number, values: number): string {
  const names = Array.from({ length: samples }, (_, i) => `"S${i}"`).join(",");
  const chunks = Array.from({ length: values }, (_, i) => `"c${i}"`).join(",");
  return `[workflow]\nname = "wide"\n\n[[sample_groups]]\nname = "g"\nsamples = [${names}]\n\n[[values]]\nname = "chunk"\nvalues = [${chunks}]\n\n[[rules]]\nname = "work"\noutput = ["{sample}/{chunk}.txt"]\nshell = "touch {output[0]}"\n`;
}

describe("engine work runs off the event loop, bounded", () => {
  it("a wildcard constraint with nested alternation meets a near-miss sample: prepare, dag and stats answer at once", async () => {
    const nearMiss = `${"a".repeat(30)}!`;
    const toml = `[workflow]\nname = "regex"\n\n[wildcard_constraints]\nsample = "^(a|a)*$"\n\n[[sample_groups]]\nname = "g"\nsamples = ["${nearMiss}", "aaaa"]\n\n[[rules]]\nname = "qc"\noutput = ["{sample}.txt"]\nshell = "touch {output[0]}"\n`;
    const { result, polls } = await whileHealthPolled(Promise.all([post("/api/pipelines/prepare", { toml_content: toml }), post("/api/pipelines/dag", { toml_content: toml, expanded: true }), post("/api/pipelines/stats", { toml_content: toml })]));
    const [prepare, dag, stats] = result;
    expect(prepare).toMatchObject({ status: 200, body: { jobs_total: 1, jobs: [{ name: "qc_g_aaaa" }] } });
    expect(dag).toMatchObject({ status: 200, body: { nodes: [{ id: "qc_g_aaaa" }], next_cursor: null } });
    expect(stats).toMatchObject({ status: 200, body: { jobs: 1 } });
    expect(polls).toBeGreaterThan(0);
  });

  it("an expansion of 4,000,000 jobs from a 30 KB body is stopped at its limit with 422 WORK_LIMIT, while health keeps answering", async () => {
    const toml = wideExpansion(2000, 2000);
    expect(toml.length).toBeLessThan(32 * 1024);
    const { result, polls } = await whileHealthPolled(Promise.all(["dag", "stats", "prepare"].map((name) => post(`/api/pipelines/${name}`, { toml_content: toml, expanded: true }))));
    for (const answer of result) {
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ code: "WORK_LIMIT", message: expect.stringMatching(/took longer than 4 s|needed more than \d+ MB/), suggestion: expect.stringContaining("SERVICE_ENGINE_") });
    }
    // The service answered health throughout: many polls went through while three workers were busy.
    expect(polls).toBeGreaterThan(10);
    // And the workers were replaced: the next request is served.
    expect((await post("/api/pipelines/validate", { toml_content: "[workflow]\nname = \"small\"\n" })).body).toMatchObject({ valid: true });
  });

  it("a graph larger than one page comes in pages that together hold every node and every edge once", async () => {
    const toml = `[workflow]\nname = "paged"\n\n[[sample_groups]]\nname = "g"\nsamples = [${Array.from({ length: 3000 }, (_, i) => `"S${i}"`).join(", ")}]\n\n[[rules]]\nname = "a"\noutput = ["a/{sample}.txt"]\nshell = "touch {output[0]}"\n\n[[rules]]\nname = "b"\ninput = ["a/{sample}.txt"]\noutput = ["b/{sample}.txt"]\nshell = "cp {input[0]} {output[0]}"\n`;
    const nodes = new Set<string>();
    let edges = 0;
    let cursor: string | undefined;
    let pages = 0;
    let metrics: LooseJson = {};
    do {
      const page = await post("/api/pipelines/dag", { toml_content: toml, expanded: true, limit: 2500, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      const names = new Set((page.body.nodes as LooseJson[]).map((node) => node.id as string));
      expect(names.size).toBeLessThanOrEqual(2500);
      for (const edge of page.body.edges as LooseJson[]) expect(names.has(edge.to as string)).toBe(true);
      for (const name of names) nodes.add(name);
      edges += (page.body.edges as LooseJson[]).length;
      metrics = page.body.metrics;
      expect(page.body.levels).toEqual([]);
      cursor = (page.body.next_cursor as string | null) ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(metrics).toMatchObject({ nodes: 6000, edges: 3000, max_depth: 2, max_width: 3000 });
    expect(nodes.size).toBe(6000);
    expect(edges).toBe(3000);
    // prepare's job list pages the same way; a cursor it did not issue is 400.
    const first = await post("/api/pipelines/prepare", { toml_content: toml, limit: 4000 });
    expect(first.body).toMatchObject({ jobs_total: 6000, next_cursor: "4000" });
    expect((first.body.jobs as LooseJson[]).length).toBe(4000);
    const second = await post("/api/pipelines/prepare", { toml_content: toml, limit: 4000, cursor: first.body.next_cursor });
    expect(second.body).toMatchObject({ next_cursor: null });
    expect((second.body.jobs as LooseJson[]).length).toBe(2000);
    expect((await post("/api/pipelines/prepare", { toml_content: toml, cursor: "-1" })).body).toMatchObject({ code: "BAD_REQUEST" });
    expect((await post("/api/pipelines/prepare", { toml_content: toml, limit: 100_000 })).status).toBe(400);
  });

  it("a 9 MB pipeline of 150,000 rules is validated in a worker (or stopped at the limit), never blocking health", async () => {
    const rules = Array.from({ length: 150_000 }, (_, i) => `[[rules]]\nname = "r${i}"\noutput = ["o${i}.txt"]\nshell = "x"\n`).join("\n");
    const toml = `[workflow]\nname = "huge"\n\n${rules}`;
    expect(toml.length).toBeGreaterThan(8 * MB);
    const { result, polls } = await whileHealthPolled(post("/api/pipelines/validate", { toml_content: toml }));
    expect([200, 422]).toContain(result.status);
    if (result.status === 422) expect(result.body).toMatchObject({ code: "WORK_LIMIT" });
    else expect(result.body).toMatchObject({ valid: true, rules: 150_000 });
    expect(polls).toBeGreaterThan(0);
  });
});

describe("stored revisions count against quotas", () => {
  it("a 9 MB pipeline saved again and again is refused with 413 QUOTA_EXCEEDED at the pipeline's quota, then the owner's; pruning frees space", async () => {
    const padded = (name: string, round: number) => `[workflow]\nname = "${name}"\n# round ${round}\n${"# padding to make a large pipeline text\n".repeat((9 * MB) / 40)}`;
    const created = await post("/api/pipelines", { toml_content: padded("quota", 0) });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call(base, "PUT", `/api/pipelines/${id}`, { toml_content: padded("quota", 1) })).status).toBe(200);
    const refused = await call(base, "PUT", `/api/pipelines/${id}`, { toml_content: padded("quota", 2) });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: "QUOTA_EXCEEDED", message: expect.stringMatching(/this pipeline's revisions hold 27 MB, over the limit of 20 MB/), suggestion: expect.stringContaining("revisions?keep=") });
    expect((await call(base, "GET", `/api/pipelines/${id}`)).body).toMatchObject({ revision: 2 });
    const revisions = (await call(base, "GET", `/api/pipelines/${id}/revisions`)).body as LooseJson[];
    expect(revisions.map((revision) => revision.size_bytes)).toEqual([padded("quota", 1).length, padded("quota", 0).length]);

    const pruned = await call(base, "DELETE", `/api/pipelines/${id}/revisions?keep=1`);
    expect(pruned.body).toEqual({ pipeline_id: id, deleted_revisions: 1, size_bytes: padded("quota", 1).length });
    expect((await call(base, "PUT", `/api/pipelines/${id}`, { toml_content: padded("quota", 3) })).status).toBe(200);
    // 18 MB in this pipeline; a second 9 MB pipeline fits the owner's 30 MB, a change of it does not.
    const other = await post("/api/pipelines", { toml_content: padded("other", 0) });
    expect(other.status).toBe(201);
    const full = await call(base, "PUT", `/api/pipelines/${other.body.id as string}`, { toml_content: padded("other", 1) });
    expect(full).toMatchObject({ status: 413, body: { code: "QUOTA_EXCEEDED", message: expect.stringContaining("the revisions of all your pipelines") } });
    expect((await call(base, "DELETE", `/api/pipelines/${id}/revisions`)).status).toBe(400);
    for (const pipeline of [id, other.body.id as string]) await call(base, "DELETE", `/api/pipelines/${pipeline}`);
  });
});

describe("confinement", () => {
  it("results list only regular files inside the run folder: no absolute outputs, no links out of it; logs never follow a link", async () => {
    const secretDir = mkdtempSync(join(tmpdir(), "strand-secret-"));
    writeFileSync(join(secretDir, "secret.txt"), "the secret\n");
    const toml = `[workflow]\nname = "confined"\n\n[[rules]]\nname = "make"\noutput = ["ok.txt", "link.txt", "${secretDir}/secret.txt", "outside/secret.txt"]\nshell = '''\necho ok > ok.txt\nln -s ${secretDir}/secret.txt link.txt\nrmdir outside && ln -s ${secretDir} outside\necho visible >&2\n'''\n`;
    const created = await post("/api/runs", { toml_content: toml });
    expect(created.status).toBe(201);
    const run = await waitForRun(base, created.body.id as string);
    expect(run.status).toBe("completed");
    const results = await call(base, "GET", `/api/runs/${run.id as string}/results`);
    expect(results.body).toMatchObject({ files: [{ path: "ok.txt", size_bytes: 3, rule: "make" }], total_size_bytes: 3, truncated: false });
    expect(JSON.stringify(results.body)).not.toContain(secretDir);

    // A job that replaces its own log by a link to a secret shows nothing of the secret.
    const logs = await call(base, "GET", `/api/runs/${run.id as string}/logs?job=make&stream=stderr`);
    expect(logs.body.lines).toEqual(["visible"]);
    const events = readEventLog(join(run.workspace as string, ".strand", "runs", run.id as string, "events.jsonl"));
    const stderr = events.find((event) => event.type === "job_started" && typeof event.stderr === "string")!.stderr as string;
    rmSync(stderr);
    symlinkSync(join(secretDir, "secret.txt"), stderr);
    expect(readFileSync(stderr, "utf8")).toBe("the secret\n");
    expect((await call(base, "GET", `/api/runs/${run.id as string}/logs?job=make&stream=stderr`)).body).toMatchObject({ lines: [], eof: true });
    rmSync(secretDir, { recursive: true, force: true });
  });

  it("samples have one shape on every endpoint and are checked up front: ../../x and a comma-separated string are refused", async () => {
    const toml = "[workflow]\nname = \"s\"\n\n[[rules]]\nname = \"r\"\noutput = [\"{sample}.txt\"]\nshell = \"touch {output[0]}\"\n";
    for (const [path, extra] of [["/api/pipelines/prepare", {}], ["/api/runs", {}]] as const) {
      const climbing = await post(path, { toml_content: toml, samples: ["../../x"], ...extra });
      expect(climbing).toMatchObject({ status: 400, body: { code: "BAD_REQUEST", detail: expect.stringContaining("samples.0") } });
      const text = await post(path, { toml_content: toml, samples: "S1,S2", ...extra });
      expect(text).toMatchObject({ status: 400, body: { code: "BAD_REQUEST", detail: expect.stringContaining("samples") } });
    }
    expect(await post("/api/pipelines/prepare", { toml_content: toml, samples: ["S1", "S-2.b"] })).toMatchObject({ status: 200, body: { jobs_total: 2 } });
    expect((await service.store.listRuns({ limit: 500 })).items.filter((run) => run.workflow_name === "s")).toEqual([]);
  });

  it("a container image starting with '-' never reaches a runtime: refused in the target and, as E018, in the pipeline", async () => {
    const toml = "[workflow]\nname = \"img\"\n\n[[rules]]\nname = \"r\"\noutput = [\"o.txt\"]\nshell = \"touch o.txt\"\n";
    const target = await post("/api/runs", { toml_content: toml, target: { type: "container", image: "--privileged" } });
    expect(target).toMatchObject({ status: 400, body: { code: "RUN_ERROR", message: expect.stringContaining("starts with '-'") } });
    const inPipeline = toml.replace('shell = "touch o.txt"', 'shell = "touch o.txt"\nenvironment = { docker = "-v/:/host" }');
    const validated = await post("/api/pipelines/validate", { toml_content: inPipeline });
    expect(validated.body).toMatchObject({ valid: false, errors: [{ code: "E018", rule: "r", line: 8 }] });
    expect(await post("/api/runs", { toml_content: inPipeline })).toMatchObject({ status: 400, body: { code: "VALIDATE_ERROR", findings: [{ code: "E018" }] } });
  });

  it("a run's webhook to the loopback is refused (the same address guard as imports); the run still completes", async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.url ?? "");
      response.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const toml = `[workflow]\nname = "hooked"\n\n[[webhook]]\nurl = "http://127.0.0.1:${port}/hook"\nevents = ["workflow_started", "workflow_completed"]\n\n[[rules]]\nname = "r"\noutput = ["o.txt"]\nshell = "touch o.txt"\n`;
      const created = await post("/api/runs", { toml_content: toml });
      const run = await waitForRun(base, created.body.id as string);
      expect(run.status).toBe("completed");
      expect(received).toEqual([]);
      const engineLog = (await call(base, "GET", `/api/runs/${run.id as string}/logs?stream=engine`)).body.lines as string[];
      expect(engineLog.join("\n")).toMatch(/webhook #1: workflow_started not sent: the url's host is a loopback address/);
    } finally {
      receiver.close();
    }
  });
});

describe("bounded logs", () => {
  it("a job printing 40 MB without a newline, and 20 MB of lines, gives pages of at most 1 MiB with long lines cut", async () => {
    const toml = `[workflow]\nname = "chatty"\n\n[[rules]]\nname = "talk"\noutput = ["o.txt"]\nshell = '''\nhead -c 40000000 /dev/zero | tr '\\0' 'x' >&2\nfor i in $(seq 1 20); do head -c 1000000 /dev/zero | tr '\\0' 'y' | fold -w 999; done\ntouch o.txt\n'''\n`;
    const created = await post("/api/runs", { toml_content: toml });
    const run = await waitForRun(base, created.body.id as string, undefined, 60_000);
    expect(run.status).toBe("completed");
    const stderr = await fetch(`${base}/api/runs/${run.id as string}/logs?job=talk&stream=stderr`);
    const stderrText = await stderr.text();
    expect(stderrText.length).toBeLessThan(LOG_LIMITS.lineBytes + 1024);
    const page = JSON.parse(stderrText) as { lines: string[]; next_offset: number; eof: boolean };
    expect(page.lines).toEqual(["x".repeat(LOG_LIMITS.lineBytes) + LINE_CUT_MARKER]);
    expect(page).toMatchObject({ next_offset: LOG_LIMITS.scanBytes, eof: false });
    const stdout = await fetch(`${base}/api/runs/${run.id as string}/logs?job=talk&stream=stdout&limit=10000`);
    const stdoutText = await stdout.text();
    expect(stdoutText.length).toBeLessThan(LOG_LIMITS.pageBytes + 64 * 1024);
    const lines = (JSON.parse(stdoutText) as { lines: string[] }).lines;
    expect(lines.length).toBe(Math.floor(LOG_LIMITS.pageBytes / 999));
  });
});

describe("requests that are the client's mistake answer 4xx, never 500", () => {
  it("malformed percent-escapes in a path are 400", async () => {
    for (const path of ["/assets/%", "/assets/%E0%A4%A", "/%", "/api/pipelines/%ZZ", "/api/runs/%/logs"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
    }
  });

  it("a personal service refuses a Host name a DNS-rebinding page would send, and serves its own names", async () => {
    const { port } = new URL(base);
    const withHost = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        // fetch() does not let a page set Host; a raw request does what a rebinding browser would send.
        import("node:http").then(({ request }) => {
          const req = request({ host: "127.0.0.1", port: Number(port), path: "/api/health", headers: { Host: host } }, (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          req.end();
        }, reject);
      });
    const refused = await withHost(`evil.example:${port}`);
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "MISDIRECTED_REQUEST", suggestion: expect.stringContaining("SERVICE_ALLOWED_HOSTS") });
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `192.0.2.10:${port}`]) expect((await withHost(host)).status, host).toBe(200);
  });

  it("a refused license upload names no server path", async () => {
    const answer = await post("/api/license/upload", { license_data: "not a license" });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toMatch(/\/(home|root|tmp|etc|var)\//);
    expect(answer.body.detail).toBe("not a JSON document");
  });

  it("a body nested 100,000 levels deep, and one over the size cap, are 4xx", async () => {
    const deep = await fetch(`${base}/api/pipelines/validate`, { method: "POST", headers: { "Content-Type": "application/json" }, body: `${"[".repeat(100_000)}${"]".repeat(100_000)}` });
    expect(deep.status).toBe(400);
    const large = await fetch(`${base}/api/pipelines/validate`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: "#".repeat(17 * MB) }) });
    expect(large.status).toBe(413);
  });
});
