/**
 * Cross-site request forgery: a state-changing API request a browser sends for a page of another origin is
 * refused with 403 CROSS_ORIGIN before anything happens, in team and personal mode alike; the service's own
 * pages, configured CORS origins and scripts (no Origin, or a bearer token without a cookie) pass.
 * Requests go to the real service on a socket, with the headers a browser would send.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceMode } from "../../../src/server/app.js";
import { hashPassword } from "../../../src/server/domains/auth/passwords.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

const EVIL = "https://evil.example";
const LAB_APP = "https://app.lab.example";
const PIPELINE = JSON.stringify({ toml_content: '[workflow]\nname = "forged"\nversion = "1.0"\n' });

interface Signed {
  service: TestService;
  /** The session token, as the browser's cookie and as a bearer token. */
  token: string;
}

const services: TestService[] = [];
afterAll(() => Promise.all(services.map((service) => service.close())));

async function start(mode: ServiceMode, extra: { corsOrigins?: string[] } = {}): Promise<Signed> {
  const service = await startTestService({ mode, ...extra });
  services.push(service);
  if (mode === "personal") return { service, token: "" };
  const username = `alice-${randomUUID().slice(0, 8)}`;
  await service.store.createUser({ username, role: "user", password_hash: await hashPassword("a long enough password") });
  const login = await fetch(`${service.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username, password: "a long enough password" }) });
  expect(login.status).toBe(200);
  return { service, token: ((await login.json()) as { token: string }).token };
}

function post(signed: Signed, path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${signed.service.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: PIPELINE });
}

async function savedPipelines(signed: Signed): Promise<number> {
  const answer = await fetch(`${signed.service.url}/api/pipelines`, { headers: signed.token ? { Authorization: `Bearer ${signed.token}` } : {} });
  const body = (await answer.json()) as unknown[] | { items: unknown[] };
  return Array.isArray(body) ? body.length : body.items.length;
}

describe("origin check in team mode", () => {
  let team: Signed;
  let cookie: Record<string, string>;
  beforeAll(async () => {
    team = await start("team", { corsOrigins: [LAB_APP] });
    cookie = { Cookie: `session=${team.token}` };
  });

  it("a cookie-authenticated POST from another site is refused (predecessor 14.1 #13: CSP and CORS)", async () => {
    const before = await savedPipelines(team);
    const answer = await post(team, "/api/pipelines", { ...cookie, Origin: EVIL, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors" });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { code: string; message: string; suggestion: string };
    expect(body.code).toBe("CROSS_ORIGIN");
    expect(body.message).toContain("https://evil.example");
    expect(body.suggestion).toMatch(/own origin.*Authorization: Bearer/);
    expect(await savedPipelines(team)).toBe(before);
  });

  it("a cross-site form post without an Origin header is refused on Fetch Metadata alone", async () => {
    const answer = await post(team, "/api/pipelines", { ...cookie, "Sec-Fetch-Site": "cross-site" });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { code: string }).code).toBe("CROSS_ORIGIN");
  });

  it("a same-site request from a sibling origin is refused (SameSite=Lax lets its cookie through)", async () => {
    const answer = await post(team, "/api/pipelines", { ...cookie, Origin: "https://wiki.lab.example", "Sec-Fetch-Site": "same-site" });
    expect(answer.status).toBe(403);
  });

  it("a foreign Origin is refused from a browser that sends no Fetch Metadata", async () => {
    for (const origin of [EVIL, "null", `${team.service.url.replace("127.0.0.1", "localhost")}`]) {
      const answer = await fetch(`${team.service.url}/api/auth/logout`, { method: "POST", headers: { ...cookie, Origin: origin } });
      expect(answer.status, origin).toBe(403);
    }
  });

  it("DELETE, PUT and PATCH are checked like POST; GET is not", async () => {
    for (const method of ["DELETE", "PUT", "PATCH"]) {
      const answer = await fetch(`${team.service.url}/api/pipelines/${randomUUID()}`, { method, headers: { ...cookie, Origin: EVIL, "Content-Type": "application/json" }, body: method === "DELETE" ? undefined : "{}" });
      expect(answer.status, method).toBe(403);
    }
    expect((await fetch(`${team.service.url}/api/pipelines`, { headers: { ...cookie, Origin: EVIL, "Sec-Fetch-Site": "cross-site" } })).status).toBe(200);
  });

  it("the service's own pages may post with the cookie (Origin equal to its Host, or Sec-Fetch-Site same-origin)", async () => {
    expect((await post(team, "/api/pipelines", { ...cookie, Origin: team.service.url, "Sec-Fetch-Site": "same-origin" })).status).toBe(201);
    expect((await post(team, "/api/pipelines", { ...cookie, Origin: team.service.url })).status).toBe(201);
    expect((await post(team, "/api/pipelines", { ...cookie, "Sec-Fetch-Site": "same-origin" })).status).toBe(201);
  });

  it("an origin named in SERVICE_CORS_ORIGINS may post with the cookie", async () => {
    expect((await post(team, "/api/pipelines", { ...cookie, Origin: LAB_APP, "Sec-Fetch-Site": "cross-site" })).status).toBe(201);
  });

  it("scripts pass: no Origin nor Fetch Metadata (curl), or a bearer token without a cookie whatever the Origin", async () => {
    expect((await post(team, "/api/pipelines", cookie)).status).toBe(201);
    expect((await post(team, "/api/pipelines", { Authorization: `Bearer ${team.token}`, Origin: EVIL, "Sec-Fetch-Site": "cross-site" })).status).toBe(201);
  });

  it("a bearer token does not excuse a request that also carries the cookie", async () => {
    expect((await post(team, "/api/pipelines", { ...cookie, Authorization: `Bearer ${team.token}`, Origin: EVIL })).status).toBe(403);
  });

  it("a forged sign-in from another site is refused too (login CSRF)", async () => {
    const answer = await fetch(`${team.service.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json", Origin: EVIL, "Sec-Fetch-Site": "cross-site" }, body: JSON.stringify({ username: "x", password: "y".repeat(12) }) });
    expect(answer.status).toBe(403);
  });

  it("a refused request is recorded in the audit log as denied", async () => {
    await post(team, "/api/pipelines", { ...cookie, Origin: EVIL, "Sec-Fetch-Site": "cross-site" });
    const page = await team.service.store.listAudit({ limit: 50 });
    expect(page.items.some((item) => item.result === "denied" && item.status === 403 && item.method === "POST" && item.path === "/api/pipelines")).toBe(true);
  });
});

describe("origin check in personal mode", () => {
  it("a page on another site cannot drive a local service: its writes are refused, reads pass", async () => {
    const local = await start("personal");
    const before = await savedPipelines(local);
    expect((await post(local, "/api/pipelines", { Origin: EVIL, "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await post(local, "/api/runs", { Origin: "null" })).status).toBe(403);
    expect(await savedPipelines(local)).toBe(before);
    expect((await post(local, "/api/pipelines", { Origin: local.service.url, "Sec-Fetch-Site": "same-origin" })).status).toBe(201);
    expect((await post(local, "/api/pipelines", {})).status).toBe(201);
  });

  it("SERVICE_PUBLIC_URL's origin counts as the service's own behind a proxy", async () => {
    const service = await startTestService({ publicUrl: "https://strand.lab.example" });
    services.push(service);
    const answer = await fetch(`${service.url}/api/pipelines`, { method: "POST", headers: { "Content-Type": "application/json", Origin: "https://strand.lab.example", Host: "strand.lab.example" }, body: PIPELINE });
    expect(answer.status).toBe(201);
  });
});
