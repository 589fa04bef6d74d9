/**
 * Collaboration end to end, over real sockets: forks, share links (create, list, public landing, revoke,
 * expiry, the public host in the link), imports of this service's own share links (resolved locally, no
 * fetch), the import URLs that are refused before anything is fetched or saved, imports from a real local
 * HTTPS server with a throwaway self-signed certificate (raw TOML files, remote share documents, redirects,
 * oversized and non-TOML bodies, a remote that never answers), and the audit entries all of this leaves.
 * Without openssl the live-HTTPS tests skip, except under STRICT_SERVICES=1, where that is a failure.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppOptions } from "../../../../src/server/app.js";
import { selfSignedCertificate } from "../../../support/self-signed-certificate.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

const STRICT_SERVICES = process.env.STRICT_SERVICES === "1";

const PIPELINE = `[workflow]
name = "demo"
version = "1.0.0"

[[rules]]
name = "hello"
output = ["hello.txt"]
shell = "echo hi > {output[0]}"
`;

const DAY_MS = 86_400_000;

/** A loosely typed JSON object, as the tests read response bodies. */
type Json = Record<string, unknown>;

interface Reply<T = Json> {
  status: number;
  body: T;
}

interface ErrorReply {
  code: string;
  message: string;
  suggestion?: string;
}

interface SavedPipeline {
  id: string;
  name: string;
  owner: string;
  visibility: string;
  toml_content: string;
  forked_from: string | null;
  revision: number;
  validation?: Json;
  source?: { kind: string; url: string; local: boolean };
}

interface ShareLink {
  share_url: string;
  token: string;
  pipeline_id: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  state: string;
}

interface AuditEntry {
  action: string;
  user: string | null;
  result: string;
  ip: string | null;
  resource: string | null;
}

/** What one request sends: a JSON value (`json`), or raw text with or without a content type. */
interface Send {
  json?: unknown;
  raw?: string;
  contentType?: string;
}

/** Requests against one running service; every answer is read as JSON. */
function client(service: TestService) {
  async function call<T>(method: string, path: string, send: Send = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (send.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(send.json);
    } else if (send.raw !== undefined) {
      body = send.raw;
    }
    if (send.contentType !== undefined) headers["Content-Type"] = send.contentType;
    const response = await fetch(`${service.url}${path}`, { method, headers, body });
    return { status: response.status, body: (await response.json()) as T };
  }
  return {
    get: <T = Json>(path: string) => call<T>("GET", path),
    post: <T = Json>(path: string, json?: unknown) => call<T>("POST", path, { json }),
    postRaw: <T = Json>(path: string, raw: string, contentType = "application/json") => call<T>("POST", path, { raw, contentType }),
    put: <T = Json>(path: string, json: unknown) => call<T>("PUT", path, { json }),
    del: <T = Json>(path: string) => call<T>("DELETE", path),
    /** Saves a pipeline and returns its id. */
    async save(fields: Json = {}): Promise<string> {
      const created = await call<SavedPipeline>("POST", "/api/pipelines", { json: { toml_content: PIPELINE, ...fields } });
      expect(created.status).toBe(201);
      return created.body.id;
    },
    /** How many pipelines GET /api/pipelines lists. */
    async count(): Promise<number> {
      const listed = await call<unknown[]>("GET", "/api/pipelines");
      expect(listed.status).toBe(200);
      return listed.body.length;
    },
  };
}

/** Starts a service for the tests of one block (rate limit off) and closes it afterwards. */
function serviceFor(options: () => Partial<AppOptions> = () => ({})) {
  const holder: { service?: TestService; api?: ReturnType<typeof client> } = {};
  beforeAll(async () => {
    holder.service = await startTestService({ rateLimit: 0, ...options() });
    holder.api = client(holder.service);
  });
  afterAll(() => holder.service?.close());
  return {
    get service(): TestService {
      return holder.service as TestService;
    },
    get api(): ReturnType<typeof client> {
      return holder.api as ReturnType<typeof client>;
    },
  };
}

/** `host:port` of a service as its clients send it in the Host header. */
function hostOf(service: TestService): string {
  return new URL(service.url).host;
}

/** Expects an error answer with this status and code, and returns it. */
function expectError(reply: Reply<unknown>, status: number, code: string): ErrorReply {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const body = reply.body as ErrorReply;
  expect(body.code).toBe(code);
  expect(body.message).toEqual(expect.any(String));
  return body;
}

describe("POST /api/pipelines/{id}/fork", () => {
  const ctx = serviceFor();
  let sourceId: string;

  beforeAll(async () => {
    sourceId = await ctx.api.save({ name: "Variant calling", visibility: "workspace", tags: ["dna"] });
    // A second revision, so the copy's own revision 1 means something.
    const changed = await ctx.api.put(`/api/pipelines/${sourceId}`, { tags: ["dna", "wgs"] });
    expect(changed.status).toBe(200);
  });

  it("copies with the default name, without any body", async () => {
    const fork = await ctx.api.post(`/api/pipelines/${sourceId}/fork`);
    expect(fork.status).toBe(201);
    expect(fork.body).toEqual({ id: expect.any(String), name: "Variant calling (fork)", forked_from: sourceId });
    expect(fork.body.id).not.toBe(sourceId);
  });

  it("takes a custom name", async () => {
    const fork = await ctx.api.post(`/api/pipelines/${sourceId}/fork`, { name: "my copy" });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({ name: "my copy", forked_from: sourceId });
  });

  it("accepts an empty body and an empty JSON object", async () => {
    const empty = await ctx.api.postRaw(`/api/pipelines/${sourceId}/fork`, "");
    expect(empty.status, JSON.stringify(empty.body)).toBe(201);
    expect(empty.body).toMatchObject({ name: "Variant calling (fork)" });
    const object = await ctx.api.post(`/api/pipelines/${sourceId}/fork`, {});
    expect(object.status).toBe(201);
    expect(object.body).toMatchObject({ name: "Variant calling (fork)" });
  });

  it("refuses a malformed JSON body with 400 BAD_REQUEST", async () => {
    const error = expectError(await ctx.api.postRaw(`/api/pipelines/${sourceId}/fork`, '{"name": '), 400, "BAD_REQUEST");
    expect(error.message).toMatch(/JSON/);
  });

  it("makes a private copy owned by the caller, with the same text and its own revision 1", async () => {
    const fork = await ctx.api.post<{ id: string }>(`/api/pipelines/${sourceId}/fork`);
    const source = await ctx.api.get<SavedPipeline>(`/api/pipelines/${sourceId}`);
    const copy = await ctx.api.get<SavedPipeline>(`/api/pipelines/${fork.body.id}`);
    expect(copy.status).toBe(200);
    expect(source.body).toMatchObject({ visibility: "workspace", revision: 2 });
    expect(copy.body).toMatchObject({ visibility: "private", owner: "local", toml_content: source.body.toml_content, forked_from: sourceId, revision: 1, tags: ["dna", "wgs"] });
    const revisions = await ctx.api.get<unknown[]>(`/api/pipelines/${fork.body.id}/revisions`);
    expect(revisions.body).toHaveLength(1);
  });

  it("answers 404 NOT_FOUND for an unknown pipeline", async () => {
    expectError(await ctx.api.post("/api/pipelines/no-such-pipeline/fork"), 404, "NOT_FOUND");
  });
});

describe("share links", () => {
  const ctx = serviceFor();
  let pipelineId: string;

  beforeAll(async () => {
    pipelineId = await ctx.api.save({ name: "Shared demo" });
  });

  it("creates a strand+https link naming the Host the request used, valid 30 days by default", async () => {
    const before = Date.now();
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${pipelineId}/share`);
    expect(share.status).toBe(201);
    expect(share.body).toMatchObject({ pipeline_id: pipelineId, state: "active", revoked_at: null });
    expect(share.body.token).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(share.body.share_url).toBe(`strand+https://${hostOf(ctx.service)}/share/${share.body.token}`);
    const expires = Date.parse(share.body.expires_at ?? "");
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 1000);
  });

  it("honours expires_in_days and refuses 0 and 4000", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${pipelineId}/share`, { expires_in_days: 2 });
    expect(share.status).toBe(201);
    expect(Math.abs(Date.parse(share.body.expires_at ?? "") - (Date.now() + 2 * DAY_MS))).toBeLessThan(5000);
    expectError(await ctx.api.post(`/api/pipelines/${pipelineId}/share`, { expires_in_days: 0 }), 400, "BAD_REQUEST");
    expectError(await ctx.api.post(`/api/pipelines/${pipelineId}/share`, { expires_in_days: 4000 }), 400, "BAD_REQUEST");
  });

  it("takes an empty body like none", async () => {
    const share = await ctx.api.postRaw<ShareLink>(`/api/pipelines/${pipelineId}/share`, "");
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    expect(share.body.state).toBe("active");
  });

  it("lists a pipeline's links newest first, with their states", async () => {
    const id = await ctx.api.save({ name: "Listed" });
    const first = await ctx.api.post<ShareLink>(`/api/pipelines/${id}/share`);
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct created_at
    const second = await ctx.api.post<ShareLink>(`/api/pipelines/${id}/share`);
    expect((await ctx.api.del(`/api/pipelines/${id}/share/${first.body.token}`)).status).toBe(200);
    const listed = await ctx.api.get<ShareLink[]>(`/api/pipelines/${id}/shares`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((share) => [share.token, share.state])).toEqual([
      [second.body.token, "active"],
      [first.body.token, "revoked"],
    ]);
    expect(listed.body[0]?.share_url).toBe(second.body.share_url);
  });

  it("serves the public landing document of a live link; 404 for an unknown token", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${pipelineId}/share`);
    const landing = await ctx.api.get(`/api/share/${share.body.token}`);
    expect(landing.status).toBe(200);
    expect(landing.body).toEqual({
      token: share.body.token,
      expires_at: share.body.expires_at,
      pipeline: { id: pipelineId, name: "Shared demo", version: "1.0.0", description: null, tags: [], rules_count: 1, updated_at: expect.any(String) },
      toml_content: PIPELINE,
    });
    expectError(await ctx.api.get("/api/share/no-such-token"), 404, "NOT_FOUND");
  });

  it("revokes a link at once: the landing answers 410 EXPIRED saying it was revoked", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${pipelineId}/share`);
    const revoked = await ctx.api.del<ShareLink>(`/api/pipelines/${pipelineId}/share/${share.body.token}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ token: share.body.token, state: "revoked", revoked_at: expect.any(String) });
    const landing = expectError(await ctx.api.get(`/api/share/${share.body.token}`), 410, "EXPIRED");
    expect(landing.message).toMatch(/revoked/);
  });

  it("answers 410 EXPIRED saying the link expired once it has", async () => {
    const share = await ctx.service.store.createShare({ pipeline_id: pipelineId, expires_at: "2000-01-01T00:00:00.000Z" });
    const landing = expectError(await ctx.api.get(`/api/share/${share.token}`), 410, "EXPIRED");
    expect(landing.message).toMatch(/expired/);
  });

  it("answers 404 for revoking an unknown token", async () => {
    expectError(await ctx.api.del(`/api/pipelines/${pipelineId}/share/no-such-token`), 404, "NOT_FOUND");
  });

  it("drops a pipeline's links with the pipeline", async () => {
    const id = await ctx.api.save({ name: "Short-lived" });
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${id}/share`);
    expect((await ctx.api.get(`/api/share/${share.body.token}`)).status).toBe(200);
    expect((await ctx.api.del(`/api/pipelines/${id}`)).status).toBe(200);
    expectError(await ctx.api.get(`/api/share/${share.body.token}`), 404, "NOT_FOUND");
    expectError(await ctx.api.get(`/api/pipelines/${id}/shares`), 404, "NOT_FOUND");
  });
});

describe("share links with a public URL", () => {
  const ctx = serviceFor(() => ({ publicUrl: "https://strand.example.org" }));

  it("name the public host instead of the request's", async () => {
    const id = await ctx.api.save();
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${id}/share`);
    expect(share.status).toBe(201);
    expect(share.body.share_url).toBe(`strand+https://strand.example.org/share/${share.body.token}`);
  });
});

describe("POST /api/pipelines/import of this service's own share links", () => {
  // Default import options: a fetch of this service (loopback, plain HTTP) would be refused, so a success
  // shows the share was read from the store.
  const ctx = serviceFor();
  let sourceId: string;

  beforeAll(async () => {
    sourceId = await ctx.api.save({ name: "Local original", visibility: "workspace" });
  });

  it("imports a private copy named after the source, without a fetch", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${sourceId}/share`);
    const imported = await ctx.api.post<SavedPipeline>("/api/pipelines/import", { url: share.body.share_url });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({
      name: "Local original (imported)",
      forked_from: sourceId,
      visibility: "private",
      owner: "local",
      toml_content: PIPELINE,
      revision: 1,
      validation: { valid: expect.any(Boolean) },
      source: { kind: "share", url: share.body.share_url, local: true },
    });
    expect(imported.body.id).not.toBe(sourceId);
    expect((await ctx.api.get(`/api/pipelines/${imported.body.id}`)).status).toBe(200);
  });

  it("takes a custom name", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${sourceId}/share`);
    const imported = await ctx.api.post<SavedPipeline>("/api/pipelines/import", { url: share.body.share_url, name: "mine" });
    expect(imported.status).toBe(201);
    expect(imported.body.name).toBe("mine");
  });

  it("answers 410 for a revoked link and saves nothing", async () => {
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${sourceId}/share`);
    await ctx.api.del(`/api/pipelines/${sourceId}/share/${share.body.token}`);
    const before = await ctx.api.count();
    expectError(await ctx.api.post("/api/pipelines/import", { url: share.body.share_url }), 410, "EXPIRED");
    expect(await ctx.api.count()).toBe(before);
  });
});

describe("POST /api/pipelines/import refusals", () => {
  const ctx = serviceFor();

  beforeAll(async () => {
    await ctx.api.save();
  });

  const refused: [string, (port: number) => string, RegExp?][] = [
    ["a plain https URL", () => "https://example.org/pipeline.toml"],
    ["a plain http URL", () => "http://example.org/pipeline.toml"],
    ["another product's scheme", () => "galaxy+https://example.org/share/abc"],
    ["oxo+http", () => "oxo+http://example.org/share/abc"],
    ["strand+http", () => "strand+http://example.org/share/abc"],
    ["a file URL", () => "file:///etc/passwd"],
    ["this service's loopback address", (port) => `toml+https://127.0.0.1:${port}/x`, /loopback|private/],
    ["the cloud metadata address", () => "toml+https://169.254.169.254/latest/meta-data", /link-local|private/],
    ["the IPv6 loopback address", () => "toml+https://[::1]/x", /loopback|private/],
  ];

  for (const [what, url, reason] of refused) {
    it(`refuses ${what} with 400 INVALID_URL and saves nothing`, async () => {
      const before = await ctx.api.count();
      const error = expectError(await ctx.api.post("/api/pipelines/import", { url: url(Number(new URL(ctx.service.url).port)) }), 400, "INVALID_URL");
      expect(error.message.length).toBeGreaterThan(0);
      expect(error.suggestion).toEqual(expect.stringMatching(/\S/));
      if (reason) expect(error.message).toMatch(reason);
      expect(await ctx.api.count()).toBe(before);
    });
  }

  it("refuses a body without url with 400 MISSING_FIELD", async () => {
    const before = await ctx.api.count();
    const error = expectError(await ctx.api.post("/api/pipelines/import", { name: "x" }), 400, "MISSING_FIELD");
    expect(error.message).toMatch(/url/);
    expect(await ctx.api.count()).toBe(before);
  });
});

const certificate = selfSignedCertificate();

// Registered only when it applies, so a normal run without openssl shows the skip reason instead.
if (!certificate && STRICT_SERVICES) {
  describe("imports from a live HTTPS server under STRICT_SERVICES=1", () => {
    it("needs openssl", () => {
      throw new Error("openssl is not on PATH under STRICT_SERVICES=1: cannot make the test certificate");
    });
  });
}

describe.skipIf(!certificate)(`POST /api/pipelines/import from a local HTTPS server${certificate ? "" : " (skipped: openssl is not on PATH)"}`, () => {
  const REMOTE_PIPELINE = PIPELINE.replace('name = "demo"', 'name = "remote-demo"');
  const SHARED_PIPELINE = PIPELINE.replace('name = "demo"', 'name = "shared-remote"');
  const ctx = serviceFor(() => ({ importFetch: { allowPrivate: true, ca: certificate?.cert } }));
  const slow = serviceFor(() => ({ importFetch: { allowPrivate: true, ca: certificate?.cert, timeoutMs: 300 } }));
  let server: HttpsServer;
  let remote: string;
  const requested: string[] = [];

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
    "/demo.oxoflow": (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end(REMOTE_PIPELINE);
    },
    "/api/share/abc123": (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          token: "abc123",
          expires_at: "2099-01-01T00:00:00.000Z",
          pipeline: { id: "remote-id", name: "Remote shared", version: "1.0.0", description: null, tags: [], rules_count: 1, updated_at: "2026-01-01T00:00:00.000Z" },
          toml_content: SHARED_PIPELINE,
        }),
      );
    },
    "/moved.toml": (_request, response) => {
      response.writeHead(302, { location: "/redirect-target.toml" });
      response.end();
    },
    "/redirect-target.toml": (_request, response) => {
      response.end(REMOTE_PIPELINE);
    },
    "/huge.toml": (_request, response) => {
      // A valid pipeline padded past 1 MiB with comments, streamed without Content-Length.
      response.writeHead(200, { "content-type": "text/plain" });
      response.write(REMOTE_PIPELINE);
      const line = `# ${"x".repeat(1021)}\n`;
      for (let written = 0; written <= 1024 * 1024; written += line.length) response.write(line);
      response.end();
    },
    "/not-toml.txt": (_request, response) => {
      response.end("<html><body>this [ is = not TOML</body></html>\n");
    },
    "/never-answers": () => {
      // Holds the request open until the client hangs up (or the server closes its connections).
    },
  };

  beforeAll(async () => {
    if (!certificate) return;
    server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      const path = new URL(request.url ?? "/", "https://localhost").pathname;
      requested.push(path);
      const route = routes[path];
      if (route) route(request, response);
      else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    remote = `localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (!certificate) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("imports a raw pipeline file from toml+https", async () => {
    const url = `toml+https://${remote}/demo.oxoflow`;
    const imported = await ctx.api.post<SavedPipeline>("/api/pipelines/import", { url });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({
      name: "remote-demo",
      toml_content: REMOTE_PIPELINE,
      forked_from: null,
      visibility: "private",
      owner: "local",
      source: { kind: "toml", url, local: false },
      validation: { valid: expect.any(Boolean), errors: expect.any(Array) },
    });
    expect(requested).toContain("/demo.oxoflow");
  });

  it("imports a remote share by fetching https://<host>/api/share/<token>", async () => {
    const url = `strand+https://${remote}/share/abc123`;
    const imported = await ctx.api.post<SavedPipeline>("/api/pipelines/import", { url });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ name: "Remote shared (imported)", toml_content: SHARED_PIPELINE, forked_from: null, source: { kind: "share", url, local: false } });
    expect(requested).toContain("/api/share/abc123");
  });

  it("refuses a redirect without requesting its Location", async () => {
    const before = await ctx.api.count();
    const error = expectError(await ctx.api.post("/api/pipelines/import", { url: `toml+https://${remote}/moved.toml` }), 400, "INVALID_URL");
    expect(error.message).toMatch(/redirect/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requested).toContain("/moved.toml");
    expect(requested).not.toContain("/redirect-target.toml");
    expect(await ctx.api.count()).toBe(before);
  });

  it("refuses a body over 1 MiB", async () => {
    const before = await ctx.api.count();
    const error = expectError(await ctx.api.post("/api/pipelines/import", { url: `toml+https://${remote}/huge.toml` }), 400, "INVALID_URL");
    expect(error.message).toMatch(/larger than 1048576 bytes/);
    expect(await ctx.api.count()).toBe(before);
  });

  it("refuses remote text that is not TOML with 400 PARSE_ERROR", async () => {
    const before = await ctx.api.count();
    expectError(await ctx.api.post("/api/pipelines/import", { url: `toml+https://${remote}/not-toml.txt` }), 400, "PARSE_ERROR");
    expect(await ctx.api.count()).toBe(before);
  });

  it("answers 502 UPSTREAM_ERROR, quickly, when the remote never answers", async () => {
    const started = Date.now();
    const error = expectError(await slow.api.post("/api/pipelines/import", { url: `toml+https://${remote}/never-answers` }), 502, "UPSTREAM_ERROR");
    expect(error.message).toMatch(/longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("the audit trail of collaboration", () => {
  const ctx = serviceFor();

  it("records fork, share, revoke and import as successes by the local user, and a refused import as a failure", async () => {
    const id = await ctx.api.save({ name: "Audited" });
    expect((await ctx.api.post(`/api/pipelines/${id}/fork`)).status).toBe(201);
    const share = await ctx.api.post<ShareLink>(`/api/pipelines/${id}/share`);
    expect(share.status).toBe(201);
    expect((await ctx.api.post("/api/pipelines/import", { url: share.body.share_url })).status).toBe(201);
    expect((await ctx.api.del(`/api/pipelines/${id}/share/${share.body.token}`)).status).toBe(200);

    const audit = await ctx.api.get<{ items: AuditEntry[] }>("/api/audit?limit=500");
    expect(audit.status).toBe(200);
    for (const action of ["pipeline.fork", "pipeline.share", "share.revoke", "pipeline.import"]) {
      const entry = audit.body.items.find((item) => item.action === action);
      expect(entry, `no ${action} entry`).toBeDefined();
      expect(entry).toMatchObject({ user: "local", result: "success", ip: expect.stringContaining("127.0.0.1") });
    }
    expect(audit.body.items.find((item) => item.action === "pipeline.fork")?.resource).toBe(`pipeline/${id}`);

    expectError(await ctx.api.post("/api/pipelines/import", { url: "https://example.org/x.toml" }), 400, "INVALID_URL");
    const imports = await ctx.api.get<{ items: AuditEntry[] }>("/api/audit?action=pipeline.import");
    expect(imports.body.items.map((item) => item.result)).toEqual(["failure", "success"]);
    expect(imports.body.items[0]).toMatchObject({ user: "local", ip: expect.stringContaining("127.0.0.1") });
  });
});
