/**
 * The audit trail: every state-changing request is recorded once answered (who, what, on what, outcome,
 * client address, request id), stateless checks and reads are not — unless refused (401/403 on any method,
 * in team mode) — request bodies never are, and GET /api/audit pages through the log newest first with
 * filters (user, action, result, resource, since, until) and cursors. In team mode no password, token or
 * license text reaches an audit row or the log.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../../src/server/domains/auth/service.js";
import type { AuditEntry } from "../../../src/server/store/audit/contract.js";
import { startTestService, type TestService } from "../../support/service-harness.js";
import type { LooseJson } from "../../support/loose-json.js";

let service: TestService;
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const json = async (response: Response) => (await response.json()) as LooseJson;
const TOML = '[workflow]\nname = "audited"\nversion = "1.0.0"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo secret-in-body > {output[0]}"\n';

beforeAll(async () => (service = await startTestService({ rateLimit: 0, env: { SERVICE_CONFIG_DIR: "/nonexistent/strand-audit" } })));
afterAll(() => service.close());

describe("the audit trail", () => {
  it("records changes with action, resource, user, result and address; not reads, checks or bodies", async () => {
    const saved = await json(await send("POST", "/api/pipelines", { toml_content: TOML }));
    await send("PUT", `/api/pipelines/${saved.id}`, { name: "renamed" });
    await send("POST", "/api/pipelines/validate", { toml_content: TOML });
    await send("POST", "/api/pipelines/search", { query: "audited" });
    await send("GET", `/api/pipelines/${saved.id}`);
    await send("PUT", "/api/pipelines/6f1c2c1e-0000-4000-8000-000000000000", { name: "ghost" });
    await send("POST", "/api/license/upload", { license_data: "not-a-license secret-in-body" });
    await send("DELETE", `/api/pipelines/${saved.id}`);

    const page = await json(await send("GET", "/api/audit"));
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((entry: LooseJson) => [entry.action, entry.result])).toEqual([
      ["pipeline.delete", "success"],
      ["license.upload", "failure"],
      ["pipeline.update", "failure"],
      ["pipeline.update", "success"],
      ["pipeline.create", "success"],
    ]);
    expect(page.items[4]).toEqual({
      id: expect.any(String),
      time: expect.any(String),
      user: "local",
      action: "pipeline.create",
      resource: `pipeline/${saved.id}`,
      result: "success",
      ip: expect.stringContaining("127.0.0.1"),
      status: 201,
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(JSON.stringify(page)).not.toContain("secret-in-body");
  });

  it("pages newest first and filters by user and action", async () => {
    for (let index = 0; index < 4; index++) await send("POST", "/api/templates", { name: `t${index}`, toml_content: TOML });
    const first = await json(await send("GET", "/api/audit?limit=2&action=template.create"));
    expect(first.items).toHaveLength(2);
    expect(first.items.every((entry: LooseJson) => entry.action === "template.create")).toBe(true);
    const second = await json(await send("GET", `/api/audit?limit=2&action=template.create&cursor=${encodeURIComponent(first.next_cursor)}`));
    expect(second.items).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    expect(second.items[0].time <= first.items[1].time).toBe(true);
    expect((await json(await send("GET", "/api/audit?user=local"))).items.length).toBeGreaterThan(4);
    expect((await json(await send("GET", "/api/audit?user=someone-else"))).items).toEqual([]);
    expect(await json(await send("GET", "/api/audit?cursor=not-a-cursor"))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await json(await send("GET", "/api/audit?limit=0"))).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("the audit trail in team mode", () => {
  const PASSWORD = "first-password-alice";
  let team: TestService;
  let configDir: string;
  let admin: string;
  let aliceId: string;
  const as = (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${team.url}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const signIn = async (username: string, password: string) => json(await as(undefined, "POST", "/api/auth/login", { username, password }));
  /** Every row of the audit log, newest first, straight from the store (every column, not only the listed ones). */
  const allRows = async (): Promise<AuditEntry[]> => {
    const rows: AuditEntry[] = [];
    let cursor: string | null = null;
    do {
      const page = await team.store.listAudit({ limit: 500, cursor });
      rows.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return rows;
  };

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), "strand-audit-config-"));
    team = await startTestService({ mode: "team", rateLimit: 0, env: { SERVICE_CONFIG_DIR: configDir } });
    const auth = new AuthService(team.store);
    await auth.setAccount("root", "root-password-1", "admin");
    aliceId = (await auth.setAccount("alice", PASSWORD, "user")).user.id;
    await auth.setAccount("vera", "viewer-password-1", "viewer");
    admin = (await signIn("root", "root-password-1")).token;
  });
  afterAll(async () => {
    await team.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it("records refused requests on any method, reads included: anonymous 401s without a user, a viewer's 403 with theirs (predecessor 14.1 #16)", async () => {
    const vera = (await signIn("vera", "viewer-password-1")).token;
    const anonymous = await as(undefined, "GET", "/api/runs");
    expect(anonymous.status).toBe(401);
    const forged = await as("strand_pat_forged.token", "GET", "/api/pipelines");
    expect(forged.status).toBe(401);
    const viewerRead = await as(vera, "GET", "/api/audit");
    expect(viewerRead.status).toBe(403);
    const viewerWrite = await as(vera, "POST", "/api/pipelines", { toml_content: TOML });
    expect(viewerWrite.status).toBe(403);
    const veraId = (await json(await as(vera, "GET", "/api/auth/me"))).user.id;

    const denied = await json(await as(admin, "GET", "/api/audit?result=denied&limit=10"));
    expect(denied.items.slice(0, 4).map((entry: LooseJson) => [entry.action, entry.user, entry.status, entry.result])).toEqual([
      ["POST /api/pipelines", veraId, 403, "denied"],
      ["GET /api/audit", veraId, 403, "denied"],
      ["GET /api/pipelines", null, 401, "denied"],
      ["GET /api/runs", null, 401, "denied"],
    ]);
    // Each carries the client address and the request id the answer was sent with.
    expect(denied.items[3]).toMatchObject({ ip: "127.0.0.1", request_id: anonymous.headers.get("X-Request-Id") });
    expect(denied.items[0].request_id).toBe(viewerWrite.headers.get("X-Request-Id"));
    // Successful reads are not audited.
    expect((await json(await as(admin, "GET", "/api/audit?action=GET%20/api/auth/me"))).items).toEqual([]);
  });

  it("lists with filters on user (id or username), action, result, resource and an RFC 3339 time range, with cursors", async () => {
    const alice = (await signIn("alice", PASSWORD)).token;
    // The sign-in's own row may carry the very millisecond its answer arrived in: the range starts after it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = new Date(Date.now() - 1).toISOString();
    const created: string[] = [];
    for (let index = 0; index < 3; index++) created.push((await json(await as(alice, "POST", "/api/pipelines", { toml_content: TOML, name: `p${index}` }))).id);
    await as(alice, "DELETE", `/api/pipelines/${created[0]}`);
    const after = new Date(Date.now() + 1).toISOString();

    const byName = await json(await as(admin, "GET", `/api/audit?user=alice&action=pipeline.create&since=${before}&until=${after}&limit=2`));
    expect(byName.items.map((entry: LooseJson) => entry.resource)).toEqual([`pipeline/${created[2]}`, `pipeline/${created[1]}`]);
    expect(byName.items.every((entry: LooseJson) => entry.user === aliceId)).toBe(true);
    const rest = await json(await as(admin, "GET", `/api/audit?user=${aliceId}&action=pipeline.create&since=${before}&until=${after}&limit=2&cursor=${encodeURIComponent(byName.next_cursor)}`));
    expect(rest.items.map((entry: LooseJson) => entry.resource)).toEqual([`pipeline/${created[0]}`]);
    expect(rest.next_cursor).toBeNull();

    const aboutOne = await json(await as(admin, "GET", `/api/audit?resource=pipeline/${created[0]}`));
    expect(aboutOne.items.map((entry: LooseJson) => entry.action)).toEqual(["pipeline.delete", "pipeline.create"]);
    const successes = await json(await as(admin, "GET", `/api/audit?result=success&since=${before}&until=${after}`));
    expect(successes.items).toHaveLength(4);
    // A time with an offset is the same instant as its UTC form.
    const offset = new Date(Date.parse(before) + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect((await json(await as(admin, "GET", `/api/audit?result=success&since=${encodeURIComponent(offset)}&until=${after}`))).items).toHaveLength(4);
    expect((await json(await as(admin, "GET", `/api/audit?until=${before}&user=alice&action=pipeline.create`))).items).toEqual([]);
  });

  it("answers 400 naming the field for a since or until that is not an RFC 3339 time, and for an unknown result", async () => {
    for (const [query, field] of [
      ["since=yesterday", "since"],
      ["until=2025-13-01T00:00:00Z", "until"],
      ["since=2025-01-31", "since"],
      ["until=1738281600", "until"],
    ] as const) {
      const answer = await as(admin, "GET", `/api/audit?${query}`);
      expect(answer.status).toBe(400);
      const body = await json(answer);
      expect(body.code).toBe("BAD_REQUEST");
      expect(body.message).toContain(`${field} is not an RFC 3339 time`);
    }
    const reversed = await json(await as(admin, "GET", "/api/audit?since=2025-02-01T00:00:00Z&until=2025-01-01T00:00:00Z"));
    expect(reversed).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("since") });
    expect(await json(await as(admin, "GET", "/api/audit?result=maybe"))).toMatchObject({ code: "BAD_REQUEST", detail: expect.stringContaining("result") });
  });

  it("keeps passwords, tokens and license text out of every audit row and the service's log (predecessor 14.1 #9)", async () => {
    const NEW_PASSWORD = "second-password-alice-7Q";
    const LICENSE = JSON.stringify({ licensee: "Lab of Secrets", type: "commercial", payload: "LICENSE-TEXT-MARKER-81723", signature: "c2lnbmF0dXJlLW1hcmtlcg==" });
    const signedIn = await signIn("alice", PASSWORD);
    const session = signedIn.token as string;
    expect((await as(undefined, "POST", "/api/auth/login", { username: "alice", password: "mistyped-password-x" })).status).toBe(401);
    expect((await as(session, "POST", "/api/auth/password", { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(200);
    const created = await as(session, "POST", "/api/auth/tokens", { name: "ci" });
    expect(created.status).toBe(201);
    const token = (await json(created)).token as string;
    expect((await as(token, "GET", "/api/auth/me")).status).toBe(200);
    expect((await as(`${token}x`, "GET", "/api/runs")).status).toBe(401);
    const upload = await as(admin, "POST", "/api/license/upload", { license_data: LICENSE });
    expect([200, 400]).toContain(upload.status);
    const second = await signIn("alice", NEW_PASSWORD);
    expect(second.token).toBeTypeOf("string");

    const rows = await allRows();
    expect(rows.map((row) => row.action)).toEqual(expect.arrayContaining(["auth.login", "auth.password.change", "auth.token.create", "license.upload"]));
    const secrets = [PASSWORD, NEW_PASSWORD, "mistyped-password-x", session, session.split(".")[1]!, token, token.split(".").at(-1)!, second.token as string, admin, "LICENSE-TEXT-MARKER-81723", "Lab of Secrets", "c2lnbmF0dXJlLW1hcmtlcg"];
    const audit = JSON.stringify(rows);
    const logText = team.logText();
    for (const secret of secrets) {
      expect(audit, "an audit row holds a secret").not.toContain(secret);
      expect(logText, "the service's log holds a secret").not.toContain(secret);
    }
  });
});
