/**
 * The typed client: its generated types match the service's current OpenAPI document (a route changed
 * without `npm run client:generate` fails here), and it talks to a real service — requests typed by path,
 * answers typed by status, failures in the error body.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, renderClientTypes } from "../../scripts/generate-client.js";
import { createServiceClient, expectData, type ServiceClient } from "../../src/client/service-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";

const PIPELINE = `[workflow]
name = "typed-client"
version = "1.0.0"

[[rules]]
name = "hello"
output = ["hello.txt"]
shell = "echo hello > hello.txt"
`;

const CYCLE = `[workflow]
name = "cycle"
version = "1"

[[rules]]
name = "a"
input = ["b.txt"]
output = ["a.txt"]
shell = "cat b.txt > a.txt"

[[rules]]
name = "b"
input = ["a.txt"]
output = ["b.txt"]
shell = "cat a.txt > b.txt"
`;

describe("generated client types", () => {
  it("are up to date with the service's OpenAPI document", async () => {
    const expected = await renderClientTypes();
    const committed = readFileSync(CLIENT_TYPES_FILE, "utf8");
    // A plain boolean first: a failing diff of 200 kB helps nobody; the message says what to run.
    expect(committed === expected, "src/client/api-types.ts is out of date: run npm run client:generate").toBe(true);
  }, 60_000);
});

describe("service client", () => {
  let service: TestService;
  let client: ServiceClient;
  beforeAll(async () => {
    service = await startTestService();
    client = createServiceClient({ baseUrl: `${service.url}/` });
  });
  afterAll(() => service.close());

  it("saves, lists and reads a pipeline", async () => {
    const created = expectData(await client.POST("/api/pipelines", { body: { toml_content: PIPELINE, tags: ["demo"] } }));
    expect(created).toMatchObject({ name: "typed-client", version: "1.0.0", revision: 1, tags: ["demo"] });
    const listed = expectData(await client.GET("/api/pipelines", { params: { query: { limit: 10 } } }));
    expect(listed.map((pipeline) => pipeline.id)).toContain(created.id);
    const read = expectData(await client.GET("/api/pipelines/{id}", { params: { path: { id: created.id } } }));
    expect(read.toml_content).toBe(PIPELINE);
  });

  it("calls the stateless tooling with typed findings", async () => {
    const report = expectData(await client.POST("/api/pipelines/validate", { body: { toml_content: PIPELINE.replace('version = "1.0.0"\n', "") } }));
    expect(report.valid).toBe(true);
    const broken = expectData(await client.POST("/api/pipelines/validate", { body: { toml_content: CYCLE } }));
    expect(broken.valid).toBe(false);
    expect(broken.errors[0]).toMatchObject({ severity: "error", code: "E006", line: 5 });
  });

  it("answers failures with the error body and status", async () => {
    const missing = await client.GET("/api/pipelines/{id}", { params: { path: { id: "no-such-pipeline" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no-such-pipeline") });
    await expect(async () => expectData(missing)).rejects.toThrow(/^404 from .*NOT_FOUND/);
  });

  it("sends a bearer token when given one", async () => {
    const seen: string[] = [];
    const withToken = createServiceClient({
      baseUrl: service.url,
      token: "strand_pat_example",
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        seen.push(new Request(input, init).headers.get("authorization") ?? "");
        return fetch(input, init);
      },
    });
    expectData(await withToken.GET("/api/health"));
    expect(seen).toEqual(["Bearer strand_pat_example"]);
  });
});
