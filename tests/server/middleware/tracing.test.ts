/**
 * Tracing and logs: one JSON line per request with method, route pattern, status and latency; health at
 * DEBUG; request ids on the response and on every line of the request, taken from a client only when it is
 * a trusted proxy; credentials never reach the log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, redactUrl, withRequestContext } from "../../../src/server/logger.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService()));
afterAll(() => service.close());

describe("request tracing", () => {
  it("logs one INFO line per request with the route pattern, health checks at DEBUG, with the request id the response carries", async () => {
    service.logs.length = 0;
    const missing = await fetch(`${service.url}/api/missing`);
    const pipeline = await fetch(`${service.url}/api/pipelines/8f1d0a52-aaaa-bbbb-cccc-0123456789ab`);
    await fetch(`${service.url}/api/health`);
    const id = missing.headers.get("X-Request-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const requests = service.logs.filter((entry) => "route" in entry);
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({ level: "info", service: "strand", method: "GET", route: "(unmatched)", status: 404, request_id: id, msg: "GET (unmatched) 404" });
    expect(requests[0]!.latency_ms).toEqual(expect.any(Number));
    expect(requests[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The route pattern, never the raw path (a path may hold a share token).
    expect(requests[1]).toMatchObject({ route: "/api/pipelines/{id}", status: 404, request_id: pipeline.headers.get("X-Request-Id") });
    expect(JSON.stringify(requests[1])).not.toContain("8f1d0a52");
    expect(requests[2]).toMatchObject({ level: "debug", route: "/api/health", status: 200 });
  });

  it("ignores a client's X-Request-Id unless the client is a trusted proxy", async () => {
    const kept = await fetch(`${service.url}/api/health`, { headers: { "X-Request-Id": "client-123" } });
    expect(kept.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const proxied = await startTestService({ trustedProxies: ["127.0.0.1"] });
    try {
      const passed = await fetch(`${proxied.url}/api/health`, { headers: { "X-Request-Id": "proxy-123" } });
      expect(passed.headers.get("X-Request-Id")).toBe("proxy-123");
      const replaced = await fetch(`${proxied.url}/api/health`, { headers: { "X-Request-Id": "bad id with spaces <script>" } });
      expect(replaced.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await proxied.close();
    }
  });

  it("puts the request id on every line written while the request is handled", async () => {
    service.logs.length = 0;
    const answer = await fetch(`${service.url}/api/runs`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ toml_content: '[workflow]\nname = "t"\n\n[[rules]]\nname = "r"\noutput = ["o.txt"]\nshell = "touch o.txt"\n' }) });
    const id = answer.headers.get("X-Request-Id");
    const lines = service.logs.filter((entry) => entry.request_id === id);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    await service.supervisor.whenFinished(((await answer.json()) as { id: string }).id);
  });
});

describe("credentials never reach the log", () => {
  it("are redacted from logged objects and URLs by configuration", () => {
    const written: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void written.push(line) } });
    withRequestContext("rid", () =>
      logger.info(
        {
          headers: { authorization: "Bearer SECRET-A", cookie: "session=SECRET-B", "x-api-key": "SECRET-C", "set-cookie": "SECRET-D" },
          password: "SECRET-E",
          user: { password: "SECRET-F", api_key: "SECRET-G", token: "SECRET-H" },
          body: { license_data: "SECRET-I", client_secret: "SECRET-J", access_token: "SECRET-K" },
          url: redactUrl("https://alice:SECRET-L@example.org/api?token=SECRET-M&keep=1&api_key=SECRET-N"),
        },
        "a line with every kind of credential",
      ),
    );
    const text = written.join("");
    expect(text).not.toMatch(/SECRET-/);
    expect(text).toContain("[redacted]");
    expect(text).toContain("keep=1");
    expect(JSON.parse(text)).toMatchObject({ request_id: "rid", msg: "a line with every kind of credential" });
  });

  it("do not appear in the service's log when requests carry them in headers, cookies, URLs and bodies", async () => {
    const before = service.logText().length;
    const secret = (n: number) => `SECRET-${n}-${"x".repeat(8)}`;
    await fetch(`${service.url}/api/health`, { headers: { Authorization: `Bearer ${secret(1)}`, Cookie: `session=${secret(2)}`, "X-API-Key": secret(3) } });
    await fetch(`${service.url}/api/share/${secret(4)}?token=${secret(5)}`);
    await fetch(`${service.url}/api/license/upload`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${secret(6)}` }, body: JSON.stringify({ license_data: secret(7), password: secret(8) }) });
    await fetch(`${service.url}/api/pipelines/import`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url: `toml+https://user:${secret(9)}@example.invalid/p.toml?token=${secret(10)}` }) });
    const text = service.logText().slice(before);
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/SECRET-\d+/);
  });
});
