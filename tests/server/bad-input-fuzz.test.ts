/**
 * Bad input never gets a 5xx: thousands of generated bodies (wrong types, missing and extra fields, huge
 * strings, deep nesting, invalid UTF-8, path-traversal-looking values, broken TOML) sent to every POST
 * endpoint, and odd paths and methods to the rest. Every answer is JSON: a result, or a coded error body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";

const { app } = createApp({ version: "fuzz", rateLimit: 0, bodyLimit: 256 * 1024, log: () => undefined, env: { SERVICE_CONFIG_DIR: "/nonexistent/strand-fuzz" } });

const POST_ENDPOINTS = ["parse", "validate", "prepare", "dag", "format", "lint", "stats", "diff", "export"].map((name) => `/api/pipelines/${name}`).concat(["/api/license/upload"]);

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

  it("odd paths and methods", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), fc.oneof(fc.constantFrom("/api/pipelines/../../etc/passwd", "/api/%00", "/api/pipelines/%2e%2e/health", "/api//health", "/api/health/x"), fc.webPath().map((path) => `/api${path}`)), async (method, path) => {
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
