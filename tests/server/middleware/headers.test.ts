/**
 * Security, version and license headers on every response: success, unknown path, wrong method, too large.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../../src/server/middleware/security-headers.js";
import { LICENSE_LINE } from "../../../src/server/middleware/license-headers.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService({ bodyLimit: 1024 })));
afterAll(() => service.close());

describe("headers on every response", () => {
  it("are set on 200, 404, 405 and 413 answers alike", async () => {
    const responses = [
      await fetch(`${service.url}/api/health`),
      await fetch(`${service.url}/api/nothing-here`),
      await fetch(`${service.url}/api/health`, { method: "DELETE" }),
      await fetch(`${service.url}/api/health`, { method: "POST", body: "x".repeat(4096), headers: { "Content-Type": "application/json" } }),
      await fetch(`${service.url}/some/client/route`),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 404, 405, 413, 200]);
    for (const response of responses) {
      expect(response.headers.get("X-Service-Version")).toBe("9.9.9-test");
      expect(response.headers.get("X-Service-License")).toBe(LICENSE_LINE);
      expect(response.headers.get("Content-Security-Policy")).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
      expect(response.headers.get("X-Frame-Options")).toBe("DENY");
      expect(response.headers.get("Strict-Transport-Security")).toBeNull();
      expect(response.headers.get("X-Request-Id")).toBeTruthy();
    }
  });

  it("turn on HSTS when a trusted proxy says the client used HTTPS, and only then", async () => {
    const proto = { "X-Forwarded-Proto": "https" };
    expect((await fetch(`${service.url}/api/health`, { headers: proto })).headers.get("Strict-Transport-Security")).toBeNull();
    const proxied = await startTestService({ trustedProxies: ["127.0.0.1"] });
    try {
      expect((await fetch(`${proxied.url}/api/health`, { headers: proto })).headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
      expect((await fetch(`${proxied.url}/api/missing`, { headers: proto })).headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
      expect((await fetch(`${proxied.url}/api/health`, { headers: { "X-Forwarded-Proto": "http" } })).headers.get("Strict-Transport-Security")).toBeNull();
    } finally {
      await proxied.close();
    }
  });
});
