/**
 * Imports of `oxo+https://<host>/share/<token>` links, over real sockets: the service fetches the share from a
 * local HTTPS server (throwaway self-signed certificate) that answers `GET /api/share/<token>` exactly as an
 * oxo-flow 0.14 server does (§1.13 of the predecessor's notes: `{pipeline: {name, version, rules_count,
 * visibility}, dag, toml_content, owner, created_at, expires_at, recent_run}`, its `{code, message}` error
 * envelope with 404 for an unknown token and 410 EXPIRED for an expired one, its SPA page for other paths),
 * and maps it into a private pipeline. The same guard, caps and error codes as strand+https apply.
 * Without openssl these tests skip, except under STRICT_SERVICES=1, where that is a failure.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppOptions } from "../../../../src/server/app.js";
import { selfSignedCertificate } from "../../../support/self-signed-certificate.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";

/** A pipeline as an oxo-flow lab writes it: a version, no description. */
const VARIANT_CALLING = `[workflow]
name = "variant-calling"
version = "2.1.0"

[[rules]]
name = "align"
output = ["aligned.bam"]
shell = "echo align > {output[0]}"

[[rules]]
name = "call"
input = ["aligned.bam"]
output = ["calls.vcf"]
shell = "echo call > {output[0]}"
`;

/** A pipeline whose text states neither version nor description, but has its own description line. */
const QC_NO_VERSION = `[workflow]
name = "qc"
description = "Read quality control"

[[rules]]
name = "fastqc"
output = ["qc.html"]
shell = "echo qc > {output[0]}"
`;

const LIVE_TOKEN = "6f1c2a9e-8b7d-4c3e-9a1f-0e2d3c4b5a69";
const QC_TOKEN = "0a7b3c1d-2e4f-4a6b-8c9d-1e2f3a4b5c6d";
const EXPIRED_TOKEN = "d41d8cd9-8f00-4b20-9e98-00998ecf8427";

/** The landing document of an oxo-flow share, field for field as the predecessor serialises it. */
function oxoLanding(toml: string, pipeline: { name: string; version: string; rules_count: number }, dag: string[], owner: string | null) {
  return {
    pipeline: { ...pipeline, visibility: "link" },
    dag,
    toml_content: toml,
    owner,
    created_at: "2025-11-03T09:14:27.512093+00:00",
    expires_at: "2099-12-03T09:14:27.512093+00:00",
    recent_run: { status: "completed", finished_at: "2025-11-04T18:02:11.000000+00:00" },
  };
}

/** Writes a JSON answer with the headers an oxo-flow server adds to every response. */
function oxoJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "x-oxoflow-version": "0.14.1", "x-oxoflow-license": "community" });
  response.end(JSON.stringify(body));
}

/** The share landing route of an oxo-flow server, with a few tokens and a few misbehaviours. */
function oxoFlowShareServer(request: IncomingMessage, response: ServerResponse, requested: string[]): void {
  const path = new URL(request.url ?? "/", "https://localhost").pathname;
  requested.push(path);
  const token = /^\/api\/share\/([^/]+)$/.exec(path)?.[1];
  if (token === undefined) {
    // Any other /api path is a JSON 404; any other path is the SPA page (200 text/html), as on oxo-flow.
    if (path.startsWith("/api/")) return oxoJson(response, 404, { code: "NOT_FOUND", message: "API endpoint not found" });
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
    return void response.end('<!doctype html><html><head><base href="/"></head><body><div id="root"></div></body></html>');
  }
  switch (token) {
    case LIVE_TOKEN:
      return oxoJson(response, 200, oxoLanding(VARIANT_CALLING, { name: "variant-calling", version: "2.1.0", rules_count: 2 }, ["align", "call"], "anna"));
    case QC_TOKEN:
      return oxoJson(response, 200, oxoLanding(QC_NO_VERSION, { name: "qc", version: "0.3.0", rules_count: 1 }, ["fastqc"], null));
    case EXPIRED_TOKEN:
      return oxoJson(response, 410, { code: "EXPIRED", message: "Share link has expired" });
    case "html-instead":
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return void response.end("<!doctype html><html><body>Shared Pipeline</body></html>");
    case "no-toml":
      return oxoJson(response, 200, { ...oxoLanding(VARIANT_CALLING, { name: "x", version: "1", rules_count: 1 }, [], null), toml_content: null });
    case "not-a-pipeline":
      return oxoJson(response, 200, oxoLanding("this [ is = not TOML", { name: "broken", version: "1", rules_count: 0 }, [], null));
    case "moved":
      response.writeHead(302, { location: `/api/share/${LIVE_TOKEN}` });
      return void response.end();
    case "huge": {
      // A valid landing padded past 1 MiB inside the TOML text, streamed without Content-Length.
      response.writeHead(200, { "content-type": "application/json" });
      const padding = `# ${"x".repeat(1021)}\n`.repeat(1100);
      return void response.end(JSON.stringify(oxoLanding(VARIANT_CALLING + padding, { name: "huge", version: "1", rules_count: 2 }, [], null)));
    }
    case "never-answers":
      return; // holds the request open until the client hangs up
    default:
      return oxoJson(response, 404, { code: "NOT_FOUND", message: "Share not found" });
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; message?: string; suggestion?: string };
}

/** POST /api/pipelines/import of `url` on `service`. */
async function importUrl(service: TestService, url: string): Promise<Answer> {
  const response = await fetch(`${service.url}/api/pipelines/import`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

/** How many pipelines the service lists. */
async function pipelineCount(service: TestService): Promise<number> {
  return ((await (await fetch(`${service.url}/api/pipelines`)).json()) as unknown[]).length;
}

describe("oxo+https links are refused before any fetch like strand+https ones", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ rateLimit: 0 });
  });
  afterAll(() => service.close());

  it.each([
    ["a loopback address", "oxo+https://127.0.0.1:3000/share/t", /loopback/],
    ["the cloud metadata address", "oxo+https://169.254.169.254/share/t", /link-local/],
    ["oxo+http", "oxo+http://flow.example/share/t", /only https/],
    ["a path other than /share/<token>", "oxo+https://flow.example/api/share/t", /\/share\/<token>/],
  ])("refuses %s with 400 INVALID_URL and saves nothing", async (_what, url, message) => {
    const before = await pipelineCount(service);
    const answer = await importUrl(service, url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ code: "INVALID_URL", message: expect.stringMatching(message), suggestion: expect.stringMatching(/\S/) });
    expect(await pipelineCount(service)).toBe(before);
  });
});

const certificate = selfSignedCertificate();

if (!certificate && STRICT_SERVICES) {
  describe("oxo-flow imports from a live HTTPS server under STRICT_SERVICES=1", () => {
    it("needs openssl", () => {
      throw new Error("openssl is not on PATH under STRICT_SERVICES=1: cannot make the test certificate");
    });
  });
}

describe.skipIf(!certificate)(`POST /api/pipelines/import of oxo+https links from a local oxo-flow server${certificate ? "" : " (skipped: openssl is not on PATH)"}`, () => {
  const fetchOptions = (extra: Partial<NonNullable<AppOptions["importFetch"]>> = {}): Partial<AppOptions> => ({ rateLimit: 0, importFetch: { allowPrivate: true, ca: certificate?.cert, ...extra } });
  let service: TestService;
  let slow: TestService;
  let server: HttpsServer;
  let remote: string;
  const requested: string[] = [];

  beforeAll(async () => {
    service = await startTestService(fetchOptions());
    slow = await startTestService(fetchOptions({ timeoutMs: 300 }));
    server = createHttpsServer({ key: certificate?.key, cert: certificate?.cert }, (request, response) => oxoFlowShareServer(request, response, requested));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    remote = `localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await Promise.all([service.close(), slow.close(), new Promise((resolve) => server.close(resolve))]);
  });

  it("fetches https://<host>/api/share/<token> and saves a private copy: name, version, text, provenance", async () => {
    const url = `oxo+https://${remote}/share/${LIVE_TOKEN}`;
    const answer = await importUrl(service, url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      name: "variant-calling (imported)",
      version: "2.1.0",
      description: "Imported from an oxo-flow share by anna, shared on 2025-11-03",
      toml_content: VARIANT_CALLING,
      rules_count: 2,
      visibility: "private",
      owner: "local",
      forked_from: null,
      revision: 1,
      source: { kind: "share", url, local: false },
      validation: { valid: true, errors: [] },
    });
    expect(requested).toContain(`/api/share/${LIVE_TOKEN}`);

    // Saved like any pipeline: readable and listed.
    const saved = (await (await fetch(`${service.url}/api/pipelines/${String(answer.body.id)}`)).json()) as Record<string, unknown>;
    expect(saved).toMatchObject({ name: "variant-calling (imported)", toml_content: VARIANT_CALLING });
  });

  it("keeps the text's own description, and the share's version when the text states none", async () => {
    const answer = await importUrl(service, `oxo+https://${remote}/share/${QC_TOKEN}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ name: "qc (imported)", version: "0.3.0", description: "Read quality control", toml_content: QC_NO_VERSION });
  });

  it("takes a custom name", async () => {
    const response = await fetch(`${service.url}/api/pipelines/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `oxo+https://${remote}/share/${LIVE_TOKEN}`, name: "VC from the old server" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: "VC from the old server" });
  });

  it("answers the server's 410 for an expired token with 410 EXPIRED and saves nothing", async () => {
    const before = await pipelineCount(service);
    const answer = await importUrl(service, `oxo+https://${remote}/share/${EXPIRED_TOKEN}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(410);
    expect(answer.body).toMatchObject({ code: "EXPIRED", message: expect.stringContaining(remote), suggestion: expect.stringMatching(/new link/) });
    expect(await pipelineCount(service)).toBe(before);
  });

  it("answers the server's 404 for an unknown token with 404 NOT_FOUND and saves nothing", async () => {
    const before = await pipelineCount(service);
    const answer = await importUrl(service, `oxo+https://${remote}/share/00000000-0000-4000-8000-000000000000`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(answer.body).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no such share link") });
    expect(await pipelineCount(service)).toBe(before);
  });

  it.each([
    ["an HTML page instead of the landing document", "html-instead", /did not answer with an oxo-flow share document/],
    ["a landing document without its text", "no-toml", /did not answer with an oxo-flow share document/],
    ["a redirect, without following it", "moved", /redirect/],
    ["a landing over 1 MiB", "huge", /larger than 1048576 bytes/],
  ])("refuses %s with 400 INVALID_URL", async (_what, token, message) => {
    const before = await pipelineCount(service);
    const answer = await importUrl(service, `oxo+https://${remote}/share/${token}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ code: "INVALID_URL", message: expect.stringMatching(message) });
    expect(await pipelineCount(service)).toBe(before);
  });

  it("refuses shared text that is not a pipeline with 400 PARSE_ERROR", async () => {
    const answer = await importUrl(service, `oxo+https://${remote}/share/not-a-pipeline`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.code).toBe("PARSE_ERROR");
  });

  it("answers 502 UPSTREAM_ERROR, quickly, when the server never answers", async () => {
    const started = Date.now();
    const answer = await importUrl(slow, `oxo+https://${remote}/share/never-answers`);
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ code: "UPSTREAM_ERROR", message: expect.stringMatching(/longer than 300 ms/) });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers a strand server's 410 and 404 the same way for strand+https links", async () => {
    expect((await importUrl(service, `strand+https://${remote}/share/${EXPIRED_TOKEN}`)).body.code).toBe("EXPIRED");
    expect((await importUrl(service, `strand+https://${remote}/share/unknown-token`)).status).toBe(404);
  });
});
