/**
 * The app as a whole: the middleware order, the error body for every failure, the OpenAPI document
 * (validated by a real OpenAPI 3.1 validator, and in step with the routes actually served).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, MIDDLEWARE_ORDER } from "../../src/server/app.js";
import { startTestService, type TestService } from "../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService({ bodyLimit: 1024 })));
afterAll(() => service.close());

describe("the service app", () => {
  it("installs the middleware in the specified order, outermost first", () => {
    expect(MIDDLEWARE_ORDER).toEqual(["compression", "tracing", "cors", "rate-limit", "security-headers", "license-headers"]);
    expect(createApp({ version: "1", store: service.store }).middleware).toEqual([...MIDDLEWARE_ORDER]);
  });

  it("answers unknown API paths, wrong methods and oversized bodies with the error body", async () => {
    const missing = await fetch(`${service.url}/api/pipelines-that-do-not-exist`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("/api/pipelines-that-do-not-exist") });
    const wrong = await fetch(`${service.url}/api/health`, { method: "PUT" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("GET, HEAD");
    expect(await wrong.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    const large = await fetch(`${service.url}/api/health`, { method: "POST", body: "y".repeat(2048) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("serves the index page for client-side routes (no-cache)", async () => {
    const page = await fetch(`${service.url}/pipelines/abc`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    expect(page.headers.get("Cache-Control")).toBe("no-cache");
  });

  it("health answers with version, mode, license and components", async () => {
    const health = await (await fetch(`${service.url}/api/health`)).json();
    expect(health).toEqual({
      status: "ok",
      version: "9.9.9-test",
      mode: "personal",
      instance_id: expect.stringMatching(/^[A-Za-z0-9._-]+-\d+-[0-9a-f]{6}$/),
      peers: [],
      uptime_s: expect.any(Number),
      license: { type: "academic", valid: true },
      components: {
        database: { status: "ok", latency_ms: expect.any(Number) },
        engine: { status: "ok", version: "9.9.9-test", active_runs: 0, queued_runs: 0 },
        ai: { status: "not_configured", provider: null },
        // A personal service runs no sandbox unless asked: health says so, and that nothing limits jobs.
        sandbox: { status: "off", kind: "none", capabilities: "the service's", runs_as: "the service's account", network: "host", limits: "none", processes_per_job: null, workspace_quota_mb: null },
      },
    });
  });

  it("health is 503 and degraded when the database cannot be reached", async () => {
    const unreachable = Object.create(service.store, { ping: { value: () => Promise.reject(new Error("connection refused")) } }) as typeof service.store;
    const broken = await startTestService({ store: unreachable });
    try {
      const response = await fetch(`${broken.url}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: "degraded", components: { database: { status: "down", latency_ms: null, detail: "connection refused" }, engine: { status: "ok" } } });
    } finally {
      await broken.close();
    }
  });
});

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, serialized once, listing exactly the /api routes served", async () => {
    const first = await fetch(`${service.url}/api/openapi.json`);
    const text = await first.text();
    expect(await (await fetch(`${service.url}/api/openapi.json`)).text()).toBe(text);
    const document = JSON.parse(text) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const documented = new Set(Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`)));
    const { app } = createApp({ version: "1", store: service.store });
    const served = new Set(
      app.routes
        .filter((route) => route.path.startsWith("/api/") && !route.path.includes("*") && route.method !== "ALL")
        .map((route) => `${route.method} ${route.path}`),
    );
    expect([...served].sort()).toEqual([...documented].sort());
    expect(documented).toContain("GET /api/openapi.json");
    expect(documented).toContain("GET /api/events");
  });

  it("gives every operation a unique operationId, a summary and a tag, and declares its error answers with the error schema", async () => {
    type Operation = { operationId?: string; summary?: string; tags?: string[]; requestBody?: unknown; parameters?: unknown[]; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { required?: string[] }> };
      security: unknown[];
    };
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      sessionCookie: expect.objectContaining({ type: "apiKey", in: "cookie", name: "session" }),
    });
    expect(document.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(operation.operationId!), `${where}: operationId used twice`).toBe(false);
        ids.add(operation.operationId!);
        expect(operation.summary, where).toBeTruthy();
        expect(operation.tags?.length, where).toBeGreaterThan(0);
        const expected = ["421", "429", "500"];
        if (operation.requestBody) expected.push("400", "413", "415");
        if (operation.parameters?.length) expected.push("400");
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (!isPublic) expected.push("401");
        for (const status of expected) expect(Object.keys(operation.responses), where).toContain(status);
        for (const [status, response] of Object.entries(operation.responses)) {
          // Health answers 503 with its own document (a degraded service still describes itself).
          if (Number(status) < 400 || (operation.operationId === "getHealth" && status === "503")) continue;
          // The error body, or a schema extending it (a refused run adds its findings).
          const schema = response.content?.["application/json"]?.schema?.$ref?.replace("#/components/schemas/", "");
          expect(document.components.schemas[schema ?? ""]?.required, `${where} ${status}`).toEqual(expect.arrayContaining(["code", "message"]));
        }
      }
    }
    expect([...ids].filter((id) => document.paths["/api/health"]?.get?.operationId === id)).toEqual(["getHealth"]);
    expect(document.paths["/api/events"]?.get?.responses["200"]?.content).toHaveProperty("text/event-stream");
    expect(document.paths["/api/pipelines/validate"]?.post?.responses).toHaveProperty("422");
    expect(document.paths["/api/health"]?.get?.security).toEqual([]);
  });

  it("serves interactive documentation at /api/docs from the service itself, under its content security policy", async () => {
    const page = await fetch(`${service.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script>[^<]/); // no inline script: the policy would block it
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^docs\/assets\//);
      const answer = await fetch(new URL(asset, `${service.url}/api/docs`));
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get("Content-Type")).toMatch(/text\/(javascript|css)/);
      expect(answer.headers.get("Cache-Control")).toContain("immutable");
      expect((await answer.text()).length).toBeGreaterThan(100);
    }
    expect((await fetch(`${service.url}/api/docs/assets/0.0.0/swagger-ui-bundle.js`)).status).toBe(404);
  });

  it("answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const answer = await fetch(`${service.url}/api/pipelines/validate`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"toml_content": ""}' });
    expect(answer.status).toBe(415);
    expect(await answer.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", suggestion: expect.stringContaining("application/json") });
  });
});
