/**
 * Odd and malformed Host headers (issue 25, finding 11: `Host: xn--localhost` answered a bare 500). Sent
 * through a real socket to a personal and a team service: every one answers a 4xx with the error body (JSON,
 * a code and a message, no stack), never a bare status, and the service goes on answering.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../../support/service-harness.js";

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** One GET with exactly this Host header, through a plain socket (fetch would set its own). */
function withHost(base: string, host: string, path = "/api/health"): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path, headers: { host }, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, contentType: response.headers["content-type"], text }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

// Names the URL parser refuses (bad punycode), and Host values the adapter cannot build a URL from.
const ODD_HOSTS = ["xn--localhost", "xn--abc.localhost", "xn--", "[::1", "exa mple", "localhost:99999", "[fe80::1%25eth0]"];

for (const mode of ["personal", "team"] as const) {
  describe(`odd Host headers, ${mode} mode`, () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService({ mode, rateLimit: 0 });
    });
    afterAll(async () => {
      await service?.close();
    });

    it.each(ODD_HOSTS.flatMap((host) => ["/api/health", "/", "/api/pipelines"].map((path) => [host, path])))("Host %j on %s answers a 4xx with the error body", async (host, path) => {
      const answer = await withHost(service.url, host, path);
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(answer.contentType).toMatch(/^application\/json/);
      const body = JSON.parse(answer.text) as { code?: string; message?: string };
      expect(body.code).toMatch(/^[A-Z_]+$/);
      expect(body.message).toMatch(/\S/);
      expect(answer.text).not.toMatch(/\bat .*\.(js|ts):\d+/);
    });

    it("keeps answering requests with a usable Host", async () => {
      expect((await withHost(service.url, "localhost")).status).toBe(200);
    });
  });
}
