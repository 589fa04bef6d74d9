/**
 * Tracing: one line per request with method, path, status and latency; health at DEBUG; request ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService()));
afterAll(() => service.close());

describe("request tracing", () => {
  it("logs one INFO line per request, health checks at DEBUG, with the request id the response carries", async () => {
    service.lines.length = 0;
    const missing = await fetch(`${service.url}/api/missing`);
    await fetch(`${service.url}/api/health`);
    const id = missing.headers.get("X-Request-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(service.lines).toHaveLength(2);
    expect(service.lines[0]).toMatch(new RegExp(`^info GET /api/missing 404 \\d+\\.\\dms request_id=${id}$`));
    expect(service.lines[1]).toMatch(/^debug GET \/api\/health 200 /);
  });

  it("keeps a sane client request id and replaces an unsafe one", async () => {
    const kept = await fetch(`${service.url}/api/health`, { headers: { "X-Request-Id": "client-123" } });
    expect(kept.headers.get("X-Request-Id")).toBe("client-123");
    const replaced = await fetch(`${service.url}/api/health`, { headers: { "X-Request-Id": "bad id with spaces <script>" } });
    expect(replaced.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
