/**
 * Static content: hashed assets cached for a year, the index served no-cache with the base path injected,
 * client-side routes answered with the index, and no way out of the assets folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectBasePath, normaliseBasePath } from "../../src/server/static-content.js";
import { startTestService, type TestService } from "../support/service-harness.js";

let service: TestService;
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "strand-web-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="app"></div><script src="assets/app-3f2a.js"></script></body></html>');
  writeFileSync(join(root, "assets", "app-3f2a.js"), "console.log('app');");
  writeFileSync(join(root, "secret.txt"), "not an asset");
  service = await startTestService({ webRoot: root, basePath: "/strand" });
});
afterAll(() => service.close());

/** A GET with the path sent exactly as given (fetch would normalise `..`); resolves with the body. */
function rawBody(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(`${service.url}${path}`, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(body));
    })
      .on("error", reject)
      .end();
  });
}

describe("static content", () => {
  it("serves assets with a one-year immutable cache", async () => {
    const asset = await fetch(`${service.url}/assets/app-3f2a.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("Content-Type")).toContain("text/javascript");
    expect(await asset.text()).toBe("console.log('app');");
    expect((await fetch(`${service.url}/assets/missing.js`)).status).toBe(404);
  });

  it("answers the index, no-cache and with the base path, for the root and for client-side routes", async () => {
    for (const path of ["/", "/pipelines/42/edit", "/runs"]) {
      const page = await fetch(`${service.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("Cache-Control")).toBe("no-cache");
      const html = await page.text();
      expect(html).toContain('<base href="/strand/">');
      expect(html).toContain('<div id="app">');
    }
  });

  it("never serves files outside the assets folder", async () => {
    // The URL is normalised to /secret.txt, a client-side route: the index answers, never the file.
    expect(await rawBody("/assets/../secret.txt")).not.toContain("not an asset");
    const encoded = await fetch(`${service.url}/assets/%2e%2e%2fsecret.txt`);
    expect(encoded.status).toBe(404);
    expect(await encoded.text()).not.toContain("not an asset");
  });

  it("normalises and checks the base path", () => {
    expect(normaliseBasePath(undefined)).toBe("/");
    expect(normaliseBasePath("strand")).toBe("/strand/");
    expect(normaliseBasePath("/a/b/")).toBe("/a/b/");
    expect(() => normaliseBasePath('/x"><script>')).toThrow(/SERVICE_BASE_PATH/);
    expect(injectBasePath("<html><head></head></html>", "/p/")).toBe('<html><head><base href="/p/"><meta name="strand-base-path" content="/p/"></head></html>');
  });
});
