/**
 * Bad input never gets a 5xx: thousands of generated bodies (wrong types, missing and extra fields, huge
 * strings, deep nesting, invalid UTF-8, path-traversal-looking values, broken TOML) sent to every POST
 * endpoint, and odd paths and methods to the rest. Every answer is JSON: a result, or a coded error body.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";
import { createLogger } from "../../src/server/logger.js";
import { openTempStore } from "../support/temp-store.js";

const temp = await openTempStore();
afterAll(async () => {
  // Generated bodies that happen to be valid pipelines start real runs: let them end first.
  for (let waited = 0; waited < 300 && supervisor.counts().active + supervisor.counts().queued > 0; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
  supervisor.close();
  await temp.dispose();
});
// Imports never leave the machine here: no private addresses, and a short time-out for anything else.
const { app, supervisor } = createApp({ version: "fuzz", store: temp.store, dataDir: temp.dataDir, rateLimit: 0, bodyLimit: 256 * 1024, logger: createLogger({ level: "silent" }), env: { SERVICE_CONFIG_DIR: "/nonexistent/strand-fuzz" }, importFetch: { timeoutMs: 300 } });

const saved = temp.store.createPipeline({ name: "fuzz-target", toml_content: '[workflow]\nname = "fuzz-target"\n', owner: "local" });
const { id: SAVED_ID } = await saved;
const { token: SHARE_TOKEN } = await temp.store.createShare({ pipeline_id: SAVED_ID });

const POST_ENDPOINTS = ["parse", "validate", "prepare", "dag", "format", "lint", "stats", "diff", "export", "search", "import"]
  .map((name) => `/api/pipelines/${name}`)
  .concat(["/api/license/upload", "/api/pipelines", "/api/templates", `/api/pipelines/${SAVED_ID}/fork`, `/api/pipelines/${SAVED_ID}/share`, `/api/pipelines/${SAVED_ID}/rollback`, "/api/pipelines/..%2f..%2fetc%2fpasswd/fork"]);

const HOSTILE_STRINGS = fc.oneof(
  fc.string(),
  fc.constantFrom("../../../etc/passwd", "..%2f..%2fetc", "\u0000", "$(rm -rf /)", "'; DROP TABLE pipelines; --", "\ud800", "🧬".repeat(50), "[workflow]\nname = 1", "[workflow\n"),
  fc.string({ minLength: 1000, maxLength: 20_000 }),
);

const TOMLISH = fc.oneof(
  HOSTILE_STRINGS,
  fc.constantFrom(
    '[workflow]\nname = "x"\nversion = "1"\n',
    '[workflow]\nname = "x"\nversion = "1"\n[[rules]]\nname = "a"\ninput = ["b"]\noutput = ["a"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["a"]\noutput = ["b"]\nshell = "x"\n',
    '[workflow]\nname = "x"\nversion = "1"\n[[include]]\npath = "/etc/passwd"\n',
    '[workflow]\nname = "x"\nversion = "1"\nsample_pattern = "/etc/{sample}"\n[[rules]]\nname = "a"\noutput = ["{sample}.txt"]\nshell = "x"\n',
    '[workflow]\nname = "x"\nversion = "1"\n[[sample_groups]]\nname = "g"\nsamples = ["a;rm -rf /"]\n[[rules]]\nname = "a"\noutput = ["{sample}.txt"]\nshell = "echo {sample}"\n',
  ),
);

const JSON_VALUE = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), HOSTILE_STRINGS, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 12 }), tie("value"), { maxKeys: 4 })),
})).value;

const BODY = fc.oneof(
  fc.record({ toml_content: TOMLISH }, { requiredKeys: [] }),
  fc.record({ toml_content: TOMLISH, strict: fc.anything(), expanded: fc.anything(), format: fc.anything(), limit: fc.anything(), samples: fc.anything(), config: fc.anything() }, { requiredKeys: ["toml_content"] }),
  fc.record({ toml_a: TOMLISH, toml_b: TOMLISH }, { requiredKeys: [] }),
  fc.record({ license_data: fc.oneof(HOSTILE_STRINGS, JSON_VALUE) }, { requiredKeys: [] }),
  fc.record({ toml_content: TOMLISH, name: fc.oneof(HOSTILE_STRINGS, JSON_VALUE), tags: fc.oneof(fc.array(HOSTILE_STRINGS, { maxLength: 40 }), JSON_VALUE), visibility: fc.oneof(fc.constantFrom("private", "workspace", "link", "public"), JSON_VALUE), revision: JSON_VALUE, description: JSON_VALUE }, { requiredKeys: [] }),
  fc.record({ query: fc.oneof(HOSTILE_STRINGS, fc.constantFrom("%", "_", "\\", "' OR 1=1 --", "fuzz target"), JSON_VALUE), limit: JSON_VALUE }, { requiredKeys: [] }),
  fc.record({ url: fc.oneof(HOSTILE_STRINGS, fc.constantFrom("toml+http://127.0.0.1/x", "strand+https://127.0.0.1:1/share/abc", "toml+https://169.254.169.254/latest/meta-data", "toml+https://[::1]/x", "file:///etc/passwd", "strand+https://user:pw@host/share/x", `strand+https://local.test/share/${"a".repeat(200)}`), JSON_VALUE), name: JSON_VALUE }, { requiredKeys: [] }),
  fc.record({ revision_id: fc.oneof(fc.integer(), HOSTILE_STRINGS, JSON_VALUE), expires_in_days: fc.oneof(fc.integer(), JSON_VALUE) }, { requiredKeys: [] }),
  JSON_VALUE,
);

async function expectCodedAnswer(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500);
  const text = await response.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  if (response.status >= 400) {
    expect(typeof body.code).toBe("string");
    expect(typeof body.message).toBe("string");
    expect(text).not.toMatch(/\n\s+at /);
  }
}

const RUN_BODY = fc.oneof(
  BODY,
  fc.record(
    {
      toml_content: TOMLISH,
      pipeline_id: fc.oneof(fc.constant(SAVED_ID), HOSTILE_STRINGS, JSON_VALUE),
      target: fc.oneof(fc.record({ type: fc.oneof(fc.constantFrom("local", "slurm", "pbs", "sge", "lsf", "container", "cloud_batch", "x"), JSON_VALUE), image: fc.oneof(HOSTILE_STRINGS, JSON_VALUE), runtime: JSON_VALUE, partition: HOSTILE_STRINGS, extra_args: JSON_VALUE }, { requiredKeys: [] }), JSON_VALUE),
      jobs: fc.oneof(fc.integer(), JSON_VALUE),
      keep_going: JSON_VALUE,
      dry_run: fc.constant(true),
      samples: fc.oneof(fc.array(HOSTILE_STRINGS, { maxLength: 5 }), JSON_VALUE),
      targets: fc.oneof(fc.array(HOSTILE_STRINGS, { maxLength: 5 }), JSON_VALUE),
      config: fc.oneof(fc.dictionary(HOSTILE_STRINGS, fc.oneof(HOSTILE_STRINGS, fc.integer(), fc.boolean(), JSON_VALUE), { maxKeys: 3 }), JSON_VALUE),
    },
    { requiredKeys: [] },
  ),
);

describe("no 5xx for bad input to runs", () => {
  it("generated bodies to POST /api/runs (dry runs where they are valid)", async () => {
    await fc.assert(
      fc.asyncProperty(RUN_BODY, async (body) => {
        await expectCodedAnswer(await app.request("/api/runs", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
      }),
      { numRuns: 400 },
    );
  }, 120_000);

  it("hostile run ids, control operations and view queries", async () => {
    const run = await temp.store.createRun({ workflow_name: "fuzz", owner: "local", status: "failed" });
    const ids = fc.oneof(fc.constant(run.id), fc.constantFrom("..%2f..%2fetc", "%00", "x".repeat(129), "00000000-0000-4000-8000-000000000000"), fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent));
    const suffixes = fc.constantFrom("", "/status", "/dag-status", "/results", "/diagnostics", "/logs", "/logs?job=..%2f..%2fetc%2fpasswd&stream=stdout", "/logs?offset=-1", "/logs?limit=99999999", "/logs?stream=nope", "/logs?offset=abc");
    await fc.assert(
      fc.asyncProperty(ids, suffixes, fc.constantFrom("GET", "POST"), fc.constantFrom("", "/cancel", "/pause", "/resume", "/retry"), async (id, suffix, method, action) => {
        const path = method === "GET" ? `/api/runs/${id}${suffix}` : `/api/runs/${id}${action}`;
        await expectCodedAnswer(await app.request(path, { method }));
      }),
      { numRuns: 600 },
    );
    for (const query of ["limit=0", "limit=abc", "cursor=%00", "cursor=eyJ9", "status=nope", `q=${"%25".repeat(300)}`]) await expectCodedAnswer(await app.request(`/api/runs?${query}`));
  }, 120_000);
});

describe("no 5xx for bad input", () => {
  it("generated JSON bodies to every POST endpoint", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ENDPOINTS), BODY, async (path, body) => {
        await expectCodedAnswer(await app.request(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
      }),
      { numRuns: 2500 },
    );
  }, 240_000);

  it("raw bytes: invalid UTF-8, truncated JSON, wrong content types, deep nesting", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        fc.oneof(fc.uint8Array({ maxLength: 2000 }), fc.constant(new TextEncoder().encode('{"toml_content": "\\ud800"}')), fc.constant(new TextEncoder().encode("[".repeat(5000)))),
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""),
        async (path, bytes, type) => {
          await expectCodedAnswer(await app.request(path, { method: "POST", headers: type ? { "Content-Type": type } : {}, body: bytes }));
        },
      ),
      { numRuns: 800 },
    );
  }, 120_000);

  it("generated JSON bodies to PUT /api/pipelines/{id}, with real and hostile ids", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(SAVED_ID, "..%2f..%2fetc%2fpasswd", "%00", "x".repeat(129), "validate"), BODY, async (id, body) => {
        await expectCodedAnswer(await app.request(`/api/pipelines/${id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
      }),
      { numRuns: 500 },
    );
  }, 120_000);

  it("odd paths and methods", async () => {
    const storePaths = [`/api/pipelines/${SAVED_ID}/revisions/%00`, `/api/pipelines/${SAVED_ID}/revisions/99999999999`, `/api/pipelines/${SAVED_ID}/share/${SHARE_TOKEN}/x`, `/api/share/${SHARE_TOKEN}%00`, "/api/share/..%2f..", "/api/audit?limit=-1", "/api/audit?cursor=%00", "/api/audit?cursor=eyJ9", "/api/pipelines?limit=1000", "/api/templates/..%2f..%2fpackage.json"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), fc.oneof(fc.constantFrom("/api/pipelines/../../etc/passwd", "/api/%00", "/api/pipelines/%2e%2e/health", "/api//health", "/api/health/x", ...storePaths), fc.webPath().map((path) => `/api${path}`)), async (method, path) => {
        const response = await app.request(path, { method });
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(await response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: 600 },
    );
  }, 120_000);

  it("a body over the cap is 413 PAYLOAD_TOO_LARGE", async () => {
    const response = await app.request("/api/pipelines/validate", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: "x".repeat(300 * 1024) }) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});
