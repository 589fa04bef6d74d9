/**
 * Issue 25, finding 1: access is decided on the route the router runs, not on a second reading of the path.
 * The authentication middleware once matched the raw path against the access table while the router decoded
 * it, so `GET /api/%75sers` listed every account to anyone and `POST /api/%75sers` made an administrator.
 * Every spelling of a path now reaches the same operation under the same policy (route-table.test.ts asks
 * every operation under every spelling); here: the reported reproductions, the middleware that also read
 * the raw path (the origin check, the rate limiter, the audit trail), and a handler nobody wrote a policy
 * for, which is refused to everyone. Requests go out as written, over a real socket.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type ServiceMode } from "../../../src/server/app.js";
import { createLogger } from "../../../src/server/logger.js";
import { startTestService } from "../../support/service-harness.js";
import { ACCOUNTS, send, startTeamService, type TeamService } from "../../support/team-service.js";
import { openTempStore } from "../../support/temp-store.js";

describe("percent-encoded paths in team mode", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService();
  });
  afterAll(() => team.close());

  it("GET /api/%75sers asks for sign-in anonymously and is refused to a viewer, as GET /api/users is", async () => {
    for (const path of ["/api/%75sers", "/api/%75%73%65%72%73", "/%61pi/users", "//api/users", "/api/users/", "/API/Users", "/api%2Fusers"]) {
      const anonymous = await team.call("anonymous", "GET", path, { raw: true });
      expect([path, anonymous.status, anonymous.body.code]).toEqual([path, 401, "AUTH_REQUIRED"]);
      expect(anonymous.text).not.toContain(ACCOUNTS.admin.username);
      const viewer = await team.call("viewer", "GET", path, { raw: true });
      expect([path, viewer.status, viewer.body.code]).toEqual([path, 403, "ACCESS_DENIED"]);
      const admin = await team.call("admin", "GET", path, { raw: true });
      expect([path, admin.status]).toEqual([path, 200]);
    }
  });

  it("POST /api/%75sers makes no administrator for anonymous callers, viewers or users", async () => {
    for (const who of ["anonymous", "viewer", "user"] as const) {
      const answer = await team.call(who, "POST", "/api/%75sers", { body: { username: `mallory-${who}`, password: "a-long-enough-password", role: "admin" }, raw: true });
      expect(answer.status).toBe(who === "anonymous" ? 401 : 403);
    }
    const users = await team.service.store.listUsers();
    expect(users.map((user) => user.username).filter((name) => name.startsWith("mallory"))).toEqual([]);
  });

  it("a viewer's write under another spelling is refused as a write (PATCH /api/%75sers/{id}, POST //api/pipelines)", async () => {
    const promote = await team.call("viewer", "PATCH", `/api/%75sers/${team.ids.viewer}`, { body: { role: "admin" }, raw: true });
    expect(promote.status).toBe(403);
    const create = await team.call("viewer", "POST", "//api/pipelines", { body: { toml_content: '[workflow]\nname = "sneaky"\n' }, raw: true });
    expect([create.status, create.body.code]).toEqual([403, "ACCESS_DENIED"]);
    const me = await team.call("viewer", "GET", "/api/auth/me");
    expect((me.body.user as { role: string }).role).toBe("viewer");
  });

  it("the audit trail records a refused request under the path the router matched", async () => {
    await team.call("viewer", "GET", "/api/%61udit", { raw: true });
    const audit = await team.call("admin", "GET", `/api/audit?user=${team.ids.viewer}&result=denied`);
    const rows = audit.body.items as { action: string; result: string }[];
    expect(rows.some((row) => row.action === "GET /api/audit" && row.result === "denied")).toBe(true);
  });
});

describe("middleware that read the raw path", () => {
  it("the origin check refuses a cross-site write under any spelling of an API path", async () => {
    const team = await startTeamService();
    try {
      const headers = { Cookie: `session=${team.tokens.user}`, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
      for (const path of ["/api/pipelines", "//api/pipelines", "/%61pi/pipelines", "/API/pipelines"]) {
        const answer = await send(team.url, "POST", path, { body: { toml_content: '[workflow]\nname = "forged"\n' }, headers, raw: true });
        expect([path, answer.status, answer.body.code]).toEqual([path, 403, "CROSS_ORIGIN"]);
      }
    } finally {
      await team.close();
    }
  });

  it("the rate limiter counts every spelling of API paths against the same client", async () => {
    const service = await startTestService({ rateLimit: 4 });
    try {
      const statuses: number[] = [];
      for (const path of ["/api/health", "/%61pi/health", "//api/health", "/API/health", "/api/./health", "/api/health/"]) statuses.push((await send(service.url, "GET", path, { raw: true })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await service.close();
    }
  });
});

describe("a handler without an access policy", () => {
  const servers: ServerType[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  /** A service with two routes nobody wrote a policy for: a plain Hono one and an OpenAPI operation. */
  async function unpolicedService(mode: ServiceMode): Promise<string> {
    const { store, dataDir } = await openTempStore();
    const { app } = createApp({ version: "test", store, dataDir, mode, rateLimit: 0, logger: createLogger({ level: "silent" }) });
    app.get("/api/unpoliced", (c) => c.json({ secret: "plain route" }));
    const route = createRoute({ method: "get", path: "/api/unlisted/{id}", operationId: "unlistedOperation", responses: { 200: { description: "a secret", content: { "application/json": { schema: z.object({ secret: z.string() }) } } } } });
    app.openapi(route, (c) => c.json({ secret: "openapi route" }, 200));
    const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
      const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve({ server: started, port: info.port }));
    });
    servers.push(server.server);
    return `http://127.0.0.1:${server.port}`;
  }

  for (const mode of ["team", "personal"] as const) {
    it(`is refused to everyone in ${mode} mode, under every spelling`, async () => {
      const url = await unpolicedService(mode);
      for (const path of ["/api/unpoliced", "/api/%75npoliced", "/api/unlisted/1", "//api/unlisted/1", "/API/UNLISTED/1"]) {
        const answer = await send(url, "GET", path, { raw: true });
        expect([path, answer.status, answer.body.code]).toEqual([path, 403, "ACCESS_DENIED"]);
        expect(answer.text).not.toContain("secret");
      }
    });
  }
});
