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
      uptime_s: expect.any(Number),
      license: { type: "academic", valid: true },
      components: {
        database: { status: "ok", latency_ms: expect.any(Number) },
        engine: { status: "ok", version: "9.9.9-test", active_runs: 0, queued_runs: 0 },
        ai: { status: "not_configured", provider: null },
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
        .map((route) => `${route.method} ${route.path}`)
        .filter((route) => route !== "GET /api/openapi.json"),
    );
    expect([...served].sort()).toEqual([...documented].sort());
  });
});
