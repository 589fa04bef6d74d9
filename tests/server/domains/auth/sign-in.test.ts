/**
 * Sign-in in team mode against a real service on a socket: passwords, sessions (Bearer and cookie, expiry,
 * sliding renewal, logout, listing and revocation), password change, personal access tokens, accounts
 * managed by administrators, and personal mode without sign-in.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret, parseToken } from "../../../../src/server/domains/auth/credential-tokens.js";
import { AuthService } from "../../../../src/server/domains/auth/service.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

const PASSWORDS = { ada: "ada-admin-password", bo: "bo-user-password", vi: "vi-viewer-password" } as const;

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; token?: string };
  headers: Headers;
}

async function request(base: string, method: string, path: string, options: { token?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), redirect: "manual" });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer["body"]) : {}, headers: response.headers };
}

async function login(base: string, username: string, password: string): Promise<Answer> {
  return request(base, "POST", "/api/auth/login", { body: { username, password } });
}

async function tokenOf(base: string, username: keyof typeof PASSWORDS): Promise<string> {
  const answer = await login(base, username, PASSWORDS[username]);
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

const PIPELINE = { name: "hello", toml_content: '[workflow]\nname = "hello"\n\n[[rules]]\nname = "hi"\noutput = ["hi.txt"]\nshell = "echo hi > {output}"\n' };

describe("sign-in in team mode", () => {
  let service: TestService;
  let base: string;

  beforeAll(async () => {
    service = await startTestService({ mode: "team", trustedProxies: ["127.0.0.1"] });
    base = service.url;
    const auth = new AuthService(service.store);
    await auth.setAccount("ada", PASSWORDS.ada, "admin");
    await auth.setAccount("bo", PASSWORDS.bo, "user");
    await auth.setAccount("vi", PASSWORDS.vi, "viewer");
  });
  afterAll(async () => service.close());

  it("a protected route without credentials answers 401 AUTH_REQUIRED naming how to sign in; public routes answer", async () => {
    const answer = await request(base, "GET", "/api/pipelines");
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe("AUTH_REQUIRED");
    expect(answer.body.suggestion).toMatch(/POST \/api\/auth\/login/);
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    for (const path of ["/api/health", "/api/openapi.json", "/api/license"]) expect((await request(base, "GET", path)).status, path).toBe(200);
  });

  it("a wrong password and an unknown user answer the same AUTH_FAILED", async () => {
    const wrong = await login(base, "bo", "not-the-password");
    const unknown = await login(base, "nobody", "not-the-password");
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("AUTH_FAILED");
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it("sign-in answers a token and an HttpOnly SameSite=Lax session cookie; Bearer and cookie both identify the user", async () => {
    const answer = await login(base, "bo", PASSWORDS.bo);
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ username: "bo", role: "user" });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const cookie = answer.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Secure/);
    const viaBearer = await request(base, "GET", "/api/auth/me", { token: answer.body.token });
    const viaCookie = await request(base, "GET", "/api/auth/me", { cookie: cookie.split(";")[0] });
    expect(viaBearer.body).toMatchObject({ user: { username: "bo", role: "user" }, mode: "team", via: "session" });
    expect(viaCookie.body).toEqual(viaBearer.body);
  });

  it("the session cookie is Secure when a trusted proxy says the client came over https", async () => {
    const answer = await request(base, "POST", "/api/auth/login", { body: { username: "bo", password: PASSWORDS.bo }, headers: { "x-forwarded-proto": "https" } });
    expect(answer.headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it("the store keeps only a SHA-256 of the session secret, never the token", async () => {
    const token = await tokenOf(base, "bo");
    const parts = parseToken(token)!;
    const session = await service.store.getSession(parts.id);
    expect(session?.secret_hash).toBe(hashSecret(parts.secret));
    expect(readFileSync(join(service.dataDir!, "strand.db")).includes(Buffer.from(parts.secret))).toBe(false);
  });

  it("logout ends the session: the token then answers 401 TOKEN_EXPIRED and the cookie is cleared", async () => {
    const token = await tokenOf(base, "bo");
    const out = await request(base, "POST", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    const after = await request(base, "GET", "/api/pipelines", { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("TOKEN_EXPIRED");
    const viaCookie = await request(base, "GET", "/api/pipelines", { cookie: `session=${token}` });
    expect(viaCookie.body.code).toBe("TOKEN_EXPIRED");
    expect(viaCookie.headers.get("set-cookie")).toMatch(/^session=; .*Max-Age=0/);
  });

  it("a forged token, a real session id with a wrong secret and a malformed Authorization header answer TOKEN_EXPIRED", async () => {
    const real = parseToken(await tokenOf(base, "bo"))!;
    const forged = [`${real.id}.${"a".repeat(32)}`, "not-a-token", `${crypto.randomUUID()}.${real.secret}`, "strand_pat_x.y"];
    for (const token of forged) {
      const answer = await request(base, "GET", "/api/runs", { token });
      expect(answer.status, token).toBe(401);
      expect(answer.body.code, token).toBe("TOKEN_EXPIRED");
    }
    const basic = await request(base, "GET", "/api/runs", { headers: { authorization: "Basic Ym86cGFzc3dvcmQ=" } });
    expect(basic.body.code).toBe("TOKEN_EXPIRED");
  });

  it("a stale cookie does not stop public routes (health, sign-in)", async () => {
    expect((await request(base, "GET", "/api/health", { cookie: "session=stale" })).status).toBe(200);
    expect((await request(base, "POST", "/api/auth/login", { cookie: "session=stale", body: { username: "bo", password: PASSWORDS.bo } })).status).toBe(200);
  });

  it("a user lists their sessions with the current one marked, and ends another one; someone else's session is 404", async () => {
    const first = await tokenOf(base, "bo");
    const second = await tokenOf(base, "bo");
    const listed = await request(base, "GET", "/api/auth/sessions", { token: first });
    const sessions = listed.body as unknown as { id: string; current: boolean; ip: string }[];
    expect(sessions.filter((session) => session.current).map((session) => session.id)).toEqual([parseToken(first)!.id]);
    expect(sessions.map((session) => session.id)).toContain(parseToken(second)!.id);
    expect(sessions[0]!.ip).toBe("127.0.0.1");
    const adminToken = await tokenOf(base, "ada");
    expect((await request(base, "DELETE", `/api/auth/sessions/${parseToken(second)!.id}`, { token: adminToken })).status).toBe(404);
    expect((await request(base, "DELETE", `/api/auth/sessions/${parseToken(second)!.id}`, { token: first })).status).toBe(200);
    expect((await request(base, "GET", "/api/auth/me", { token: second })).body.code).toBe("TOKEN_EXPIRED");
    expect((await request(base, "GET", "/api/auth/me", { token: first })).status).toBe(200);
  });

  it("changing the password needs the current one, ends the other sessions and keeps this one", async () => {
    const auth = new AuthService(service.store);
    await auth.setAccount("cy", "cy-first-password", "user");
    const current = (await login(base, "cy", "cy-first-password")).body.token as string;
    const other = (await login(base, "cy", "cy-first-password")).body.token as string;
    const wrong = await request(base, "POST", "/api/auth/password", { token: current, body: { current_password: "nope-nope", new_password: "cy-second-password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("AUTH_FAILED");
    const short = await request(base, "POST", "/api/auth/password", { token: current, body: { current_password: "cy-first-password", new_password: "short" } });
    expect(short.status).toBe(400);
    const changed = await request(base, "POST", "/api/auth/password", { token: current, body: { current_password: "cy-first-password", new_password: "cy-second-password" } });
    expect(changed.body).toEqual({ changed: true, sessions_ended: 1 });
    expect((await request(base, "GET", "/api/auth/me", { token: other })).body.code).toBe("TOKEN_EXPIRED");
    expect((await request(base, "GET", "/api/auth/me", { token: current })).status).toBe(200);
    expect((await login(base, "cy", "cy-first-password")).status).toBe(401);
    expect((await login(base, "cy", "cy-second-password")).status).toBe(200);
  });

  it("guessing the current password at POST /api/auth/password is throttled like sign-ins", async () => {
    const throttled = await startTestService({ mode: "team", signInFailures: 2 });
    try {
      await new AuthService(throttled.store).setAccount("gus", "gus-password-1", "user");
      const token = (await login(throttled.url, "gus", "gus-password-1")).body.token as string;
      const guess = (n: number) => request(throttled.url, "POST", "/api/auth/password", { token, body: { current_password: `guess-${n}`, new_password: "gus-password-2" } });
      expect((await guess(1)).body.code).toBe("AUTH_FAILED");
      expect((await guess(2)).body.code).toBe("AUTH_FAILED");
      const third = await guess(3);
      expect(third.status).toBe(429);
      expect(third.body.code).toBe("RATE_LIMITED");
      expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
      // Locked out: an administrator's password reset lets the account in again at once.
      expect((await login(throttled.url, "gus", "gus-password-1")).status).toBe(429);
      await new AuthService(throttled.store).setAccount("root", "root-password-1", "admin");
      const admin = (await login(throttled.url, "root", "root-password-1")).body.token as string;
      const gus = (await request(throttled.url, "GET", "/api/users", { token: admin })).body as unknown as { id: string; username: string }[];
      await request(throttled.url, "PATCH", `/api/users/${gus.find((user) => user.username === "gus")!.id}`, { token: admin, body: { password: "gus-password-9" } });
      expect((await login(throttled.url, "gus", "gus-password-9")).status).toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it("personal access tokens are shown once, kept hashed, work as Bearer, record their last use and can be revoked", async () => {
    const session = await tokenOf(base, "bo");
    const created = await request(base, "POST", "/api/auth/tokens", { token: session, body: { name: "nightly-ci", expires_in_days: 30 } });
    expect(created.status).toBe(201);
    const pat = created.body.token as string;
    expect(pat).toMatch(/^strand_pat_[0-9a-f-]{36}\.[a-z2-7]{32}$/);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const listed = (await request(base, "GET", "/api/auth/tokens", { token: session })).body as unknown as Record<string, unknown>[];
    const entry = listed.find((token) => token.id === created.body.id)!;
    expect(entry).toMatchObject({ name: "nightly-ci", last_used_at: null });
    expect(entry).not.toHaveProperty("token");
    expect(JSON.stringify(listed)).not.toContain(pat.split(".")[1]);
    const me = await request(base, "GET", "/api/auth/me", { token: pat });
    expect(me.body).toMatchObject({ user: { username: "bo" }, via: "access-token" });
    expect((await service.store.getAccessToken(created.body.id as string))?.last_used_at).not.toBeNull();
    expect((await request(base, "DELETE", `/api/auth/tokens/${created.body.id as string}`, { token: session })).status).toBe(200);
    expect((await request(base, "GET", "/api/auth/me", { token: pat })).body.code).toBe("TOKEN_EXPIRED");
  });

  it("a personal access token neither mints more tokens nor pretends to sign out", async () => {
    const session = await tokenOf(base, "bo");
    const pat = (await request(base, "POST", "/api/auth/tokens", { token: session, body: { name: "ci" } })).body.token as string;
    const minted = await request(base, "POST", "/api/auth/tokens", { token: pat, body: { name: "another" } });
    expect(minted.status).toBe(403);
    expect(minted.body.suggestion).toMatch(/POST \/api\/auth\/login/);
    const out = await request(base, "POST", "/api/auth/logout", { token: pat });
    expect(out.status).toBe(400);
    expect(out.body.suggestion).toMatch(/DELETE \/api\/auth\/tokens\//);
    expect((await request(base, "GET", "/api/auth/me", { token: pat })).status).toBe(200);
  });

  it("accounts made or reset outside a request (strand user add, SERVICE_ADMIN_PASSWORD) are in the audit log", async () => {
    const auth = new AuthService(service.store);
    const { user } = await auth.setAccount("fay", "fay-password-1", "viewer", "strand user add");
    await auth.setAccount("fay", "fay-password-2", undefined, "SERVICE_ADMIN_PASSWORD");
    const rows = (await service.store.listAudit({ resource: `user/${user.id}` })).items;
    expect(rows.map((row) => [row.action, row.path])).toEqual([
      ["user.update", "SERVICE_ADMIN_PASSWORD"],
      ["user.create", "strand user add"],
    ]);
    // Without a role the account keeps its own.
    expect((await service.store.getUser(user.id)).role).toBe("viewer");
  });

  it("an expired personal access token answers TOKEN_EXPIRED", async () => {
    const session = await tokenOf(base, "bo");
    const created = await request(base, "POST", "/api/auth/tokens", { token: session, body: { name: "short-lived", expires_in_days: 1 } });
    const id = created.body.id as string;
    const stored = (await service.store.getAccessToken(id))!;
    // Move it into the past the way time would.
    await service.store.deleteAccessToken(id);
    await service.store.createAccessToken({ id, user_id: stored.user_id, name: stored.name, secret_hash: stored.secret_hash, expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await request(base, "GET", "/api/auth/me", { token: created.body.token as string })).body.code).toBe("TOKEN_EXPIRED");
  });

  it("administrators create, list, change the role of and delete accounts; a demotion and a deletion take effect on the next request", async () => {
    const admin = await tokenOf(base, "ada");
    const made = await request(base, "POST", "/api/users", { token: admin, body: { username: "dee", password: "dee-password-1", role: "user" } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ username: "dee", role: "user", has_password: true });
    expect(made.body).not.toHaveProperty("password_hash");
    const taken = await request(base, "POST", "/api/users", { token: admin, body: { username: "DEE", password: "dee-password-1" } });
    expect(taken.status).toBe(409);
    const listed = (await request(base, "GET", "/api/users", { token: admin })).body as unknown as { username: string }[];
    expect(listed.map((user) => user.username)).toEqual(expect.arrayContaining(["ada", "bo", "dee", "vi"]));

    const dee = (await login(base, "dee", "dee-password-1")).body.token as string;
    const deePat = (await request(base, "POST", "/api/auth/tokens", { token: dee, body: { name: "script" } })).body.token as string;
    expect((await request(base, "POST", "/api/pipelines", { token: dee, body: PIPELINE })).status).toBe(201);
    const demoted = await request(base, "PATCH", `/api/users/${made.body.id as string}`, { token: admin, body: { role: "viewer" } });
    expect(demoted.body).toMatchObject({ role: "viewer" });
    const refused = await request(base, "POST", "/api/pipelines", { token: dee, body: PIPELINE });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ACCESS_DENIED");
    expect((await request(base, "GET", "/api/pipelines", { token: dee })).status).toBe(200);

    expect((await request(base, "DELETE", `/api/users/${made.body.id as string}`, { token: admin })).status).toBe(200);
    for (const token of [dee, deePat]) expect((await request(base, "GET", "/api/pipelines", { token })).body.code).toBe("TOKEN_EXPIRED");
    expect((await login(base, "dee", "dee-password-1")).status).toBe(401);
  });

  it("an administrator's password reset ends the account's sessions and revokes its personal access tokens", async () => {
    const admin = await tokenOf(base, "ada");
    const made = await request(base, "POST", "/api/users", { token: admin, body: { username: "eve", password: "eve-password-1" } });
    const eve = (await login(base, "eve", "eve-password-1")).body.token as string;
    const evePat = (await request(base, "POST", "/api/auth/tokens", { token: eve, body: { name: "laptop" } })).body.token as string;
    await request(base, "PATCH", `/api/users/${made.body.id as string}`, { token: admin, body: { password: "eve-password-2" } });
    expect((await request(base, "GET", "/api/auth/me", { token: eve })).body.code).toBe("TOKEN_EXPIRED");
    expect((await request(base, "GET", "/api/auth/me", { token: evePat })).body.code).toBe("TOKEN_EXPIRED");
    expect((await login(base, "eve", "eve-password-2")).status).toBe(200);
  });

  it("the last administrator can be neither demoted nor deleted", async () => {
    const admin = await tokenOf(base, "ada");
    const me = (await request(base, "GET", "/api/auth/me", { token: admin })).body.user as { id: string };
    const demote = await request(base, "PATCH", `/api/users/${me.id}`, { token: admin, body: { role: "user" } });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toMatch(/last administrator/);
    expect((await request(base, "DELETE", `/api/users/${me.id}`, { token: admin })).status).toBe(409);
  });

  it("users and viewers cannot manage accounts (403); viewers read but cannot write (403)", async () => {
    const bo = await tokenOf(base, "bo");
    const vi = await tokenOf(base, "vi");
    for (const token of [bo, vi]) {
      const answer = await request(base, "GET", "/api/users", { token });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("ACCESS_DENIED");
    }
    expect((await request(base, "GET", "/api/pipelines", { token: vi })).status).toBe(200);
    expect((await request(base, "POST", "/api/pipelines/validate", { token: vi, body: { toml_content: PIPELINE.toml_content } })).status).toBe(200);
    const write = await request(base, "POST", "/api/pipelines", { token: vi, body: PIPELINE });
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/viewer/);
  });

  it("passwords and tokens never reach the service's log", async () => {
    const token = await tokenOf(base, "bo");
    await request(base, "GET", "/api/auth/me", { token });
    await request(base, "GET", "/api/auth/me", { cookie: `session=${token}` });
    const text = service.logText();
    for (const secret of [...Object.values(PASSWORDS), token, parseToken(token)!.secret]) expect(text).not.toContain(secret);
  });
});

describe("session expiry", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ mode: "team", sessionTtlMs: 3000 });
    await new AuthService(service.store).setAccount("bo", PASSWORDS.bo, "user");
  });
  afterAll(async () => service.close());

  it("a session is renewed while it is used and expires when it is not", async () => {
    const signedIn = await login(service.url, "bo", PASSWORDS.bo);
    const token = signedIn.body.token as string;
    const firstExpiry = Date.parse(signedIn.body.expires_at as string);
    // Past half its life: the next request renews it, and the cookie is sent again.
    await new Promise((resolve) => setTimeout(resolve, 1800));
    const renewed = await request(service.url, "GET", "/api/auth/me", { cookie: `session=${token}` });
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expires_at as string)).toBeGreaterThan(firstExpiry);
    expect(renewed.headers.get("set-cookie")).toMatch(/^session=.*HttpOnly/);
    // After the first expiry, still valid thanks to the renewal.
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect((await request(service.url, "GET", "/api/auth/me", { token })).status).toBe(200);
    // Unused for longer than its lifetime: gone.
    await new Promise((resolve) => setTimeout(resolve, 3600));
    const expired = await request(service.url, "GET", "/api/auth/me", { token });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("TOKEN_EXPIRED");
  });
});

describe("personal mode", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ mode: "personal" });
  });
  afterAll(async () => service.close());

  it("has no sign-in: the auth routes answer 404 and /api/auth/me names the local administrator", async () => {
    const me = await request(service.url, "GET", "/api/auth/me");
    expect(me.body).toEqual({ user: { id: "local", username: "local", role: "admin" }, expires_at: null, mode: "personal", via: "personal" });
    const signIn = await login(service.url, "anyone", "any-password");
    expect(signIn.status).toBe(404);
    expect(signIn.body.suggestion).toMatch(/SERVICE_MODE=team/);
    expect((await request(service.url, "GET", "/api/users")).status).toBe(404);
    expect((await request(service.url, "GET", "/api/pipelines")).status).toBe(200);
  });
});
