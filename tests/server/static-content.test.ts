/**
 * Static content: hashed assets cached for a year, the index served no-cache with the base path injected,
 * client-side routes answered with the index, and no way out of the assets folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectBasePath, normaliseBasePath, PUBLIC_FILES } from "../../src/server/static-content.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

let service: TestService;
let root: string;
const dirnameOfAssets = () => join(root, "assets");
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "strand-web-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="app"></div><script src="assets/app-3f2a.js"></script></body></html>');
  writeFileSync(join(root, "assets", "app-3f2a.js"), "console.log('app');");
  writeFileSync(join(root, "assets", "style-9c1d.css"), `body { color: black; }\n${"/* padding */\n".repeat(200)}`);
  writeFileSync(join(root, "assets", "style-9c1d.css.br"), brotliCompressSync(readFileSync(join(root, "assets", "style-9c1d.css"))));
  writeFileSync(join(root, "assets", "style-9c1d.css.gz"), gzipSync(readFileSync(join(root, "assets", "style-9c1d.css"))));
  writeFileSync(join(root, "assets", "logo-1a2b.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, "assets", "data-5e6f.bin"), Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)));
  writeFileSync(join(root, "secret.txt"), "not an asset");
  writeFileSync(join(root, "robots.txt"), "User-agent: *\nDisallow: /\n");
  writeFileSync(join(root, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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

  it("answers with MIME types, an ETag and 304 to a conditional request", async () => {
    expect((await fetch(`${service.url}/assets/logo-1a2b.svg`)).headers.get("Content-Type")).toContain("image/svg+xml");
    expect((await fetch(`${service.url}/assets/data-5e6f.bin`)).headers.get("Content-Type")).toBe("application/octet-stream");
    const first = await fetch(`${service.url}/assets/app-3f2a.js`);
    const tag = first.headers.get("ETag")!;
    expect(tag).toMatch(/^W\/".+"$/);
    expect(first.headers.get("Last-Modified")).toBeTruthy();
    const again = await fetch(`${service.url}/assets/app-3f2a.js`, { headers: { "If-None-Match": tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(tag);
    expect(await again.text()).toBe("");
    expect((await fetch(`${service.url}/assets/app-3f2a.js`, { headers: { "If-None-Match": 'W/"other"' } })).status).toBe(200);
  });

  it("answers Range requests with 206 and Content-Range, and 416 for a range past the end", async () => {
    const part = await fetch(`${service.url}/assets/data-5e6f.bin`, { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 10-19/1000");
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const suffix = await fetch(`${service.url}/assets/data-5e6f.bin`, { headers: { Range: "bytes=-3" } });
    expect(suffix.headers.get("Content-Range")).toBe("bytes 997-999/1000");
    expect((await fetch(`${service.url}/assets/data-5e6f.bin`, { headers: { Range: "bytes=5000-" } })).status).toBe(416);
  });

  it("serves a precompressed .br or .gz beside a file to clients that accept it", async () => {
    const original = readFileSync(join(dirnameOfAssets(), "style-9c1d.css"));
    const viaRaw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${service.url}/assets/style-9c1d.css`, { headers: { "Accept-Encoding": encoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
          .on("error", reject)
          .end();
      });
    const br = await viaRaw("br, gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toContain("text/css");
    expect(brotliDecompressSync(br.body)).toEqual(original);
    const gz = await viaRaw("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body)).toEqual(original);
    const plain = await viaRaw("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(original);
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

  it("serves the files of public/ at the root by name, cached a day, and nothing else there", async () => {
    const robots = await fetch(`${service.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(robots.headers.get("Cache-Control")).toBe("public, max-age=86400");
    expect(robots.headers.get("ETag")).toBeTruthy();
    expect(await robots.text()).toContain("Disallow: /");
    expect((await fetch(`${service.url}/favicon.svg`)).headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    // A public file this build lacks is a client-side route: the index answers.
    const manifest = await fetch(`${service.url}/manifest.webmanifest`);
    expect(await manifest.text()).toContain('<div id="app">');
    expect(await (await fetch(`${service.url}/secret.txt`)).text()).not.toContain("not an asset");
  });

  it("names in PUBLIC_FILES exactly the files of the package's public/ folder", () => {
    expect([...PUBLIC_FILES].sort()).toEqual(readdirSync(join(PROJECT_ROOT, "public")).sort());
  });

  it("normalises and checks the base path", () => {
    expect(normaliseBasePath(undefined)).toBe("/");
    expect(normaliseBasePath("strand")).toBe("/strand/");
    expect(normaliseBasePath("/a/b/")).toBe("/a/b/");
    expect(() => normaliseBasePath('/x"><script>')).toThrow(/SERVICE_BASE_PATH/);
    expect(injectBasePath("<html><head></head></html>", "/p/")).toBe('<html><head><base href="/p/"><meta name="strand-base-path" content="/p/"></head></html>');
  });
});
