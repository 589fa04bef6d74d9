/**
 * CORS: same origin only by default; SERVICE_CORS_ORIGINS allows named origins (and preflights).
 */
import { afterAll, describe, expect, it } from "vitest";
import { corsOriginsFromEnv } from "../../../src/server/middleware/cors.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

const services: TestService[] = [];
afterAll(() => Promise.all(services.map((service) => service.close())));

describe("CORS", () => {
  it("sends no CORS headers by default, so other origins are refused by browsers", async () => {
    const service = await startTestService();
    services.push(service);
    const response = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://elsewhere.example" } });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("allows the configured origins only, including preflight requests", async () => {
    const service = await startTestService({ corsOrigins: corsOriginsFromEnv({ SERVICE_CORS_ORIGINS: "https://lab.example/, https://other.example" }) });
    services.push(service);
    const allowed = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://lab.example" } });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://lab.example");
    const refused = await fetch(`${service.url}/api/health`, { headers: { Origin: "https://evil.example" } });
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const preflight = await fetch(`${service.url}/api/health`, { method: "OPTIONS", headers: { Origin: "https://other.example", "Access-Control-Request-Method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("POST");
  });
});
