/**
 * Repeated failed sign-ins are slowed down per account and per client address (429 RATE_LIMITED with a
 * growing Retry-After, before any password is checked), a success clears the account's count, counts end
 * when their window passes and take bounded memory, every attempt is audited, and the client address is
 * the transport peer unless that peer is a trusted proxy (then the right-most untrusted X-Forwarded-For
 * entry) — for the sign-in throttle, the rate limiter, the audit log and the session listing alike.
 * Against a real team-mode service on a socket (the transport peer is 127.0.0.1).
 */
import { afterEach, describe, expect, it } from "vitest";
import { oauthSettingsOf } from "../../../../src/server/domains/auth/oauth-settings.js";
import { AuthService } from "../../../../src/server/domains/auth/service.js";
import { SignInThrottle } from "../../../../src/server/domains/auth/sign-in-throttle.js";
import type { AppOptions } from "../../../../src/server/app.js";
import type { AuditEntry } from "../../../../src/server/store/audit/contract.js";
import type { LooseJson } from "../../../support/loose-json.js";
import { startIdentityProvider } from "../../../support/identity-provider.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

const PASSWORD = "correct-horse-battery";
const services: TestService[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** A team-mode service with the account `alice` (user) and `root` (admin). */
async function teamService(options: Partial<AppOptions> = {}): Promise<TestService> {
  const service = await startTestService({ mode: "team", rateLimit: 0, ...options });
  services.push(service);
  const auth = new AuthService(service.store);
  await auth.setAccount("alice", PASSWORD, "user");
  await auth.setAccount("root", PASSWORD, "admin");
  return service;
}

/** POST /api/auth/login, optionally with an X-Forwarded-For header. */
async function login(service: TestService, username: string, password: string, forwardedFor?: string): Promise<{ status: number; retryAfter: string | null; body: LooseJson }> {
  const response = await fetch(`${service.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(forwardedFor === undefined ? {} : { "X-Forwarded-For": forwardedFor }) },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: (await response.json()) as LooseJson };
}

/** Every audit row of the service, oldest first. */
async function auditRows(service: TestService): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await service.store.listAudit({ limit: 500, cursor });
    rows.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows.reverse();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("failed sign-ins per account", () => {
  it("five wrong passwords delay the account's next attempts with 429 RATE_LIMITED and a Retry-After that doubles; the right password waits too", async () => {
    const service = await teamService();
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(service, "alice", "wrong-password")).status).toBe(401);
    const throttled = await login(service, "alice", PASSWORD);
    expect(throttled).toMatchObject({ status: 429, retryAfter: "1", body: { code: "RATE_LIMITED", detail: "retry in 1s" } });
    expect(throttled.body.message).toMatch(/too many failed sign-ins for this account/);
    // Case does not make another account.
    expect((await login(service, "ALICE", PASSWORD)).status).toBe(429);

    await sleep(1100);
    expect((await login(service, "alice", "wrong-password")).status).toBe(401);
    expect(await login(service, "alice", PASSWORD)).toMatchObject({ status: 429, retryAfter: "2" });
    await sleep(2100);
    expect((await login(service, "alice", "wrong-password")).status).toBe(401);
    expect(await login(service, "alice", PASSWORD)).toMatchObject({ status: 429, retryAfter: "4" });

    // Another account from the same address is not held up (the address allows more failures).
    expect((await login(service, "root", PASSWORD)).status).toBe(200);
  });

  it("a successful sign-in clears the account's count of failures", async () => {
    const service = await teamService();
    for (let attempt = 0; attempt < 4; attempt++) expect((await login(service, "alice", "wrong-password")).status).toBe(401);
    expect((await login(service, "alice", PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 4; attempt++) expect((await login(service, "alice", "wrong-password")).status).toBe(401);
    expect((await login(service, "alice", PASSWORD)).status).toBe(200);
  });

  it("an account that does not exist is throttled the same way (no hint whether it exists)", async () => {
    const service = await teamService();
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(service, "nobody", "wrong-password")).status).toBe(401);
    expect(await login(service, "nobody", "wrong-password")).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
  });

  it("a count is forgotten once its window has passed since the last failure, and the counts take bounded memory (predecessor 14.1 #7)", () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle({ maxFailures: 3, windowMs: 60_000, maxKeys: 100, now: () => now });
    for (let attempt = 0; attempt < 3; attempt++) throttle.afterSignIn("alice", "10.0.0.1", false);
    expect(() => throttle.beforeSignIn("alice", "10.0.0.2")).toThrow(/too many failed sign-ins for this account/);
    now += 60_000;
    expect(() => throttle.beforeSignIn("alice", "10.0.0.2")).not.toThrow();

    // A flood of made-up usernames from many addresses keeps at most maxKeys counts of each kind.
    for (let index = 0; index < 5000; index++) throttle.afterSignIn(`guess-${index}`, `10.1.${index >> 8}.${index & 255}`, false);
    expect(throttle.size.accounts).toBeLessThanOrEqual(100);
    expect(throttle.size.addresses).toBeLessThanOrEqual(100);
    // Once their window has passed, the counts go as the throttle is used.
    now += 60_000;
    for (let index = 0; index < 256; index++) throttle.afterSignIn("late", "10.2.0.1", false);
    expect(throttle.size).toEqual({ accounts: 1, addresses: 1 });
  });
});

describe("failed sign-ins per address", () => {
  it("twenty failures from one address delay its attempts for every account, and another address is not held up", async () => {
    const service = await teamService({ trustedProxies: ["127.0.0.1"] });
    for (let index = 0; index < 20; index++) expect((await login(service, `user${index}`, "wrong-password", "198.51.100.7")).status).toBe(401);
    const throttled = await login(service, "alice", PASSWORD, "198.51.100.7");
    expect(throttled).toMatchObject({ status: 429, retryAfter: "1", body: { code: "RATE_LIMITED" } });
    expect(throttled.body.message).toMatch(/this address/);
    expect((await login(service, "alice", PASSWORD, "198.51.100.8")).status).toBe(200);
    // A success does not clear the address's count: an account of one's own must not reset it.
    expect((await login(service, "alice", PASSWORD, "198.51.100.7")).status).toBe(429);
  });

  it("X-Forwarded-For from an untrusted client does not change its address for the sign-in throttle, the session or the audit log (predecessor 14.1 #7)", async () => {
    const service = await teamService();
    const signedIn = await login(service, "alice", PASSWORD, "203.0.113.50");
    const sessions = (await (await fetch(`${service.url}/api/auth/sessions`, { headers: { Authorization: `Bearer ${signedIn.body.token}`, "X-Forwarded-For": "203.0.113.51" } })).json()) as LooseJson[];
    expect(sessions.map((session) => session.ip)).toEqual(["127.0.0.1"]);
    for (let index = 0; index < 20; index++) expect((await login(service, `user${index}`, "wrong-password", `203.0.113.${index}`)).status).toBe(401);
    // Every failure counted against 127.0.0.1, whatever the header said.
    expect(await login(service, "alice", PASSWORD, "203.0.113.99")).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    const rows = (await auditRows(service)).filter((row) => row.action === "auth.login");
    expect(new Set(rows.map((row) => row.ip))).toEqual(new Set(["127.0.0.1"]));
  });
});

describe("sign-in attempts in the audit log", () => {
  it("records every attempt: a wrong password as failure with no user, a throttled one as denied, a success with the user's id", async () => {
    const service = await teamService({ signInFailures: 2 });
    await login(service, "alice", "wrong-password");
    await login(service, "alice", "wrong-password");
    await login(service, "alice", PASSWORD);
    await sleep(1100);
    const signedIn = await login(service, "alice", PASSWORD);
    expect(signedIn.status).toBe(200);
    const rows = (await auditRows(service)).filter((row) => row.action === "auth.login");
    expect(rows.map((row) => [row.result, row.status, row.actor, row.resource])).toEqual([
      ["failure", 401, null, "user/alice"],
      ["failure", 401, null, "user/alice"],
      ["denied", 429, null, "user/alice"],
      ["success", 200, signedIn.body.user.id, "user/alice"],
    ]);
    for (const row of rows) {
      expect(row.ip).toBe("127.0.0.1");
      expect(row.detail).toMatch(/^[0-9a-f-]{36}$/);
    }
    // The request id is the one the service answered with and logged.
    expect(service.logText()).toContain(rows[0]!.detail);
  });
});

describe("sign-ins through an identity provider in the audit log", () => {
  it("records a sign-in with GitHub (a GET callback answered with a redirect) as success with the account, and a refused callback as failure", async () => {
    const publicUrl = "http://strand.test";
    const github = await startIdentityProvider("github", `${publicUrl}/api/auth/oauth/github/callback`);
    try {
      const oauth = oauthSettingsOf({ SERVICE_PUBLIC_URL: publicUrl, SERVICE_OAUTH_GITHUB_CLIENT_ID: github.clientId, SERVICE_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret, SERVICE_OAUTH_GITHUB_BASE_URL: github.url });
      const service = await teamService({ publicUrl, oauth });
      github.signInAs({ id: 4242, login: "octo" });
      const authorize = await fetch(`${service.url}/api/auth/oauth/github/authorize`, { redirect: "manual" });
      const stateCookie = authorize.headers.getSetCookie().find((line) => line.startsWith("oauth_state="))!.split(";")[0]!;
      const atProvider = await fetch(authorize.headers.get("location")!, { redirect: "manual" });
      const back = new URL(atProvider.headers.get("location")!);
      const callback = await fetch(`${service.url}${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie: stateCookie } });
      expect(callback.status).toBe(302);
      expect(callback.headers.getSetCookie().some((line) => line.startsWith("session="))).toBe(true);
      // The same callback again has no state cookie any more: refused.
      expect((await fetch(`${service.url}${back.pathname}${back.search}`, { redirect: "manual" })).status).toBe(302);

      const rows = (await auditRows(service)).filter((row) => row.action.startsWith("auth.oauth"));
      const account = (await service.store.listUsers()).find((user) => user.username === "octo")!;
      expect(rows.map((row) => [row.action, row.result, row.actor, row.resource, row.ip])).toEqual([
        ["auth.oauth.signup", "success", account.id, `user/${account.id}`, "127.0.0.1"],
        ["auth.oauth.refused", "failure", null, "oauth/github", "127.0.0.1"],
      ]);
      expect(JSON.stringify(rows)).not.toContain(back.searchParams.get("code")!);
    } finally {
      await github.close();
    }
  });
});

describe("X-Forwarded-For from a trusted proxy", () => {
  it("gives the right-most untrusted address to the audit log, the session and the sign-in throttle", async () => {
    const service = await teamService({ trustedProxies: ["127.0.0.1", "10.0.0.5"], signInFailures: 1 });
    // The left-most entry is whatever the client claimed; 192.0.2.44 is what the outer proxy (10.0.0.5) saw.
    const signedIn = await login(service, "alice", PASSWORD, "6.6.6.6, 192.0.2.44, 10.0.0.5");
    expect(signedIn.status).toBe(200);
    const sessions = (await (await fetch(`${service.url}/api/auth/sessions`, { headers: { Authorization: `Bearer ${signedIn.body.token}` } })).json()) as LooseJson[];
    expect(sessions.map((session) => session.ip)).toEqual(["192.0.2.44"]);
    expect((await auditRows(service)).at(-1)).toMatchObject({ action: "auth.login", result: "success", ip: "192.0.2.44" });

    // Four failures (the address allows 4 × 1) throttle 192.0.2.44 only, whatever the client writes to the left of it.
    for (let index = 0; index < 4; index++) expect((await login(service, `nobody${index}`, "wrong-password", "192.0.2.44")).status).toBe(401);
    expect((await login(service, "alice", PASSWORD, "1.2.3.4, 192.0.2.44")).status).toBe(429);
    expect((await login(service, "alice", PASSWORD, "192.0.2.45")).status).toBe(200);
  });
});

describe("X-Forwarded-For and the rate limiter", () => {
  it("X-Forwarded-For from an untrusted client does not change its rate-limit bucket (predecessor 14.1 #7)", async () => {
    const service = await teamService({ rateLimit: 3 });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await fetch(`${service.url}/api/health`, { headers: { "X-Forwarded-For": `203.0.113.${index}`, "X-Real-IP": `203.0.113.${index}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a trusted proxy's X-Forwarded-For gives each client its own bucket, keyed on the right-most untrusted entry", async () => {
    const service = await teamService({ rateLimit: 2, trustedProxies: ["127.0.0.1"] });
    const status = async (forwardedFor: string) => (await fetch(`${service.url}/api/health`, { headers: { "X-Forwarded-For": forwardedFor } })).status;
    expect([await status("192.0.2.1"), await status("192.0.2.1"), await status("192.0.2.1")]).toEqual([200, 200, 429]);
    // A client cannot escape its bucket by writing another address to the left of its own.
    expect(await status("198.51.100.1, 192.0.2.1")).toBe(429);
    expect(await status("192.0.2.2")).toBe(200);
  });
});
