/**
 * CORS: same origin only by default; SERVICE_CORS_ORIGINS allows named origins (with credentials, and
 * preflights); `*` grants reading without credentials; an arbitrary origin is never reflected.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readSetting } from "../../../src/server/settings.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

const services: TestService[] = [];
afterAll(() => Promise.all(services.map((service) => service.close())));

async function start(corsOrigins?: string[]): Promise<TestService> {
  const service = await startTestService(corsOrigins ? { corsOrigins } : {});
  services.push(service);
  return service;
}

describe("CORS", () => {
  it("sends no CORS headers by default, so other origins are refused by browsers", async () => {
    const service = await start();
    const response = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://elsewhere.example" } });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });

  it("allows the configured origins only, including preflight requests", async () => {
    const service = await start(readSetting({ SERVICE_CORS_ORIGINS: "https://lab.example/, https://other.example" }, "SERVICE_CORS_ORIGINS"));
    const allowed = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://lab.example" } });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://lab.example");
    expect(allowed.headers.get("Access-Control-Allow-Credentials")).toBe("true");
    expect(allowed.headers.get("Access-Control-Expose-Headers")).toContain("X-Request-Id");
    expect(allowed.headers.get("Vary")).toContain("Origin");
    const refused = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://evil.example" } });
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("a random Origin gets neither Access-Control-Allow-Origin nor Allow-Credentials, on answers and preflights (predecessor 14.1 #13: CSP and CORS)", async () => {
    const service = await start(["https://lab.example"]);
    for (const origin of ["https://evil.example", "https://lab.example.evil.example", "http://lab.example", "null"]) {
      const answer = await fetch(`${service.url}/api/pipelines`, { headers: { Origin: origin } });
      expect(answer.headers.get("Access-Control-Allow-Origin"), origin).toBeNull();
      expect(answer.headers.get("Access-Control-Allow-Credentials"), origin).toBeNull();
      const preflight = await fetch(`${service.url}/api/pipelines`, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" } });
      expect(preflight.headers.get("Access-Control-Allow-Origin"), origin).toBeNull();
      expect(preflight.headers.get("Access-Control-Allow-Credentials"), origin).toBeNull();
      expect(preflight.headers.get("Access-Control-Allow-Methods"), origin).toBeNull();
    }
  });

  it("a preflight from a configured origin is answered 204 and lists Authorization and Content-Type", async () => {
    const service = await start(["https://lab.example"]);
    const preflight = await fetch(`${service.url}/api/pipelines`, {
      method: "OPTIONS",
      headers: { Origin: "https://lab.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("https://lab.example");
    expect(preflight.headers.get("Access-Control-Allow-Credentials")).toBe("true");
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    const allowedHeaders = (preflight.headers.get("Access-Control-Allow-Headers") ?? "").split(",").map((name) => name.trim().toLowerCase());
    expect(allowedHeaders).toEqual(expect.arrayContaining(["authorization", "content-type"]));
  });

  it("with '*', any page may read without credentials: the answer is the literal '*', never the caller's origin", async () => {
    const service = await start(["*"]);
    const answer = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://anyone.example" } });
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(answer.headers.get("Access-Control-Allow-Credentials")).toBeNull();
    const preflight = await fetch(`${service.url}/api/health`, { method: "OPTIONS", headers: { Origin: "https://anyone.example", "Access-Control-Request-Method": "GET" } });
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });
});
