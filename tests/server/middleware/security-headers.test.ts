/**
 * The content security policy: strict, with no inline or evaluated scripts, on HTML pages (the app's index
 * page, the API documentation) and API answers alike. That the pages still work under it is shown in a real
 * browser by tests/e2e/content-security-policy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../../src/server/middleware/security-headers.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService()));
afterAll(() => service.close());

/** The policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("content security policy", () => {
  it("allows scripts from the service only: no inline scripts, no eval, no plugins, no framing (predecessor 14.1 #13: CSP and CORS)", () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|strict-dynamic|\*/);
    for (const [name, values] of policy) if (name !== "style-src") expect(values, name).not.toContain("'unsafe-inline'");
  });

  it("is sent on an HTML page and on an API answer", async () => {
    for (const path of ["/", "/runs/some-client-route", "/api/docs", "/api/health", "/api/pipelines"]) {
      const answer = await fetch(`${service.url}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("Content-Security-Policy"), path).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it("the documentation page and the placeholder index page hold no inline script", async () => {
    for (const path of ["/", "/api/docs"]) {
      const html = await (await fetch(`${service.url}${path}`)).text();
      expect(html, path).toMatch(/<html/i);
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      for (const [, attributes, body] of scripts) {
        expect(attributes, path).toMatch(/\bsrc=/);
        expect(body!.trim(), path).toBe("");
      }
      expect(html, path).not.toMatch(/\son[a-z]+\s*=/i);
    }
  });
});
