/**
 * Compression: brotli or gzip by Accept-Encoding, nothing for small bodies or when the client refuses.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding } from "../../../src/server/middleware/compression.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService()));
afterAll(() => service.close());

/** A raw GET (fetch would decompress on its own), returning headers and the undecoded body. */
function rawGet(path: string, headers: Record<string, string>, base = service.url): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("compression", () => {
  it("chooses br over gzip, honours q=0 and *", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("identity")).toBeUndefined();
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding(undefined)).toBeUndefined();
  });

  it("brotli-compresses a large JSON document and it decodes to the same bytes", async () => {
    const plain = await rawGet("/api/openapi.json", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await rawGet("/api/openapi.json", { "Accept-Encoding": "br, gzip" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);
    const gz = await rawGet("/api/openapi.json", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it("compresses a static asset with a Content-Length of the compressed bytes (a stale one left browsers waiting)", async () => {
    const root = mkdtempSync(join(tmpdir(), "strand-web-"));
    mkdirSync(join(root, "assets"));
    const script = Buffer.from(`console.log(${JSON.stringify("strand ".repeat(20_000))});\n`);
    writeFileSync(join(root, "assets", "app-1234.js"), script);
    const withAssets = await startTestService({ webRoot: root });
    try {
      for (const [encoding, decode] of [["gzip", gunzipSync], ["br", brotliDecompressSync]] as const) {
        const answer = await rawGet("/assets/app-1234.js", { "Accept-Encoding": encoding }, withAssets.url);
        expect(answer.headers["content-encoding"]).toBe(encoding);
        expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
        expect(decode(answer.body).equals(script)).toBe(true);
      }
    } finally {
      await withAssets.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("leaves small bodies alone", async () => {
    const small = await rawGet("/api/health", { "Accept-Encoding": "br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString()).status).toBe("ok");
  });
});
