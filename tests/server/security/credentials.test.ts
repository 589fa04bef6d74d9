/**
 * Credentials in team mode, against a real service on a socket: what signs in as whom, what a viewer may do,
 * which tokens are refused (forged, expired, revoked, a real id with a wrong secret, a token in the URL),
 * that refusals are audited, and that no password or token ever reaches the log, the audit rows, a URL or
 * an error message. Items of the predecessor's section 14.1 are named by number. (No credentials on every
 * protected operation → 401 AUTH_REQUIRED is proved operation by operation in route-table.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret, mintToken, secretMatches } from "../../../src/server/domains/auth/credential-tokens.js";
import { ACCOUNTS, startTeamService, trivialPipeline, type TeamService } from "../../support/team-service.js";

describe("secretMatches (constant-time comparison of a presented secret with the stored hash)", () => {
  it("accepts only the exact secret, whatever position a wrong one differs at, and refuses a malformed stored hash", () => {
    const { token, secretHash } = mintToken("session");
    const secret = token.slice(token.indexOf(".") + 1);
    expect(secretMatches(secret, secretHash)).toBe(true);
    const flip = (index: number) => `${secret.slice(0, index)}${secret[index] === "a" ? "b" : "a"}${secret.slice(index + 1)}`;
    for (const index of [0, 15, secret.length - 1]) expect(secretMatches(flip(index), secretHash), `differs at ${index}`).toBe(false);
    expect(secretMatches("", secretHash)).toBe(false);
    expect(secretMatches(secret, secretHash.slice(2))).toBe(false);
    expect(secretMatches(secret, "zz".repeat(32))).toBe(false);
    expect(secretMatches(secret, hashSecret(`${secret}x`))).toBe(false);
  });
});

describe("credentials in team mode", () => {
  let team: TeamService;

  beforeAll(async () => {
    team = await startTeamService();
  });
  afterAll(async () => team?.close());

  it("14.1 #1: a shared password cannot sign in as another account (the user's password with the admin's name is AUTH_FAILED)", async () => {
    for (const username of [ACCOUNTS.admin.username, ACCOUNTS.other.username, "admin", "nobody"]) {
      const answer = await team.call("anonymous", "POST", "/api/auth/login", { body: { username, password: ACCOUNTS.user.password } });
      expect(answer.status, username).toBe(401);
      expect(answer.body.code, username).toBe("AUTH_FAILED");
    }
    const own = await team.call("anonymous", "POST", "/api/auth/login", { body: { username: ACCOUNTS.user.username, password: ACCOUNTS.user.password } });
    expect(own.body.user).toMatchObject({ username: ACCOUNTS.user.username, role: "user" });
    // The role the answer names is the one the service enforces.
    expect((await team.call("anonymous", "GET", "/api/users", { token: own.body.token as string })).status).toBe(403);
  });

  it("14.1 #3: deleting a user revokes its sessions and tokens; a role change takes effect on the next request", async () => {
    const made = await team.call("admin", "POST", "/api/users", { body: { username: "leaver", password: "leaver-password-123", role: "user" } });
    expect(made.status).toBe(201);
    const session = (await team.call("anonymous", "POST", "/api/auth/login", { body: { username: "leaver", password: "leaver-password-123" } })).body.token as string;
    const pat = (await team.call("anonymous", "POST", "/api/auth/tokens", { token: session, body: { name: "script" } })).body.token as string;
    expect((await team.call("anonymous", "POST", "/api/pipelines", { token: pat, body: { toml_content: trivialPipeline("by-leaver") } })).status).toBe(201);
    expect((await team.call("admin", "PATCH", `/api/users/${made.body.id as string}`, { body: { role: "viewer" } })).status).toBe(200);
    const demoted = await team.call("anonymous", "POST", "/api/pipelines", { token: session, body: { toml_content: trivialPipeline("after-demotion") } });
    expect(demoted.status).toBe(403);
    expect((await team.call("admin", "DELETE", `/api/users/${made.body.id as string}`)).status).toBe(200);
    for (const token of [session, pat]) {
      const answer = await team.call("anonymous", "GET", "/api/pipelines", { token });
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe("TOKEN_EXPIRED");
    }
    expect((await team.call("anonymous", "POST", "/api/auth/login", { body: { username: "leaver", password: "leaver-password-123" } })).status).toBe(401);
  });

  it("14.1 #4: a viewer cannot create runs, pipelines, templates, imports, shares or accounts (403 ACCESS_DENIED), but may make a personal access token for read-only scripts, which stays read-only", async () => {
    const writes: [string, string, unknown][] = [
      ["POST", "/api/runs", { toml_content: trivialPipeline("viewer-run") }],
      ["POST", "/api/pipelines", { toml_content: trivialPipeline("viewer-pipeline") }],
      ["POST", "/api/templates", { name: "viewer-template", toml_content: trivialPipeline("viewer-template") }],
      ["POST", "/api/pipelines/import", { url: "toml+https://example.org/pipeline.toml" }],
      ["POST", "/api/users", { username: "viewer-made", password: "viewer-made-password", role: "admin" }],
      ["POST", "/api/license/upload", { license_data: "x" }],
      ["POST", `/api/pipelines/${crypto.randomUUID()}/share`, {}],
      ["POST", `/api/pipelines/${crypto.randomUUID()}/fork`, {}],
    ];
    const pat = await team.call("viewer", "POST", "/api/auth/tokens", { body: { name: "read-only script" } });
    expect(pat.status).toBe(201);
    for (const token of [team.tokens.viewer, pat.body.token as string]) {
      for (const [method, path, body] of writes) {
        const answer = await team.call("viewer", method, path, { body, token });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.body.code, `${method} ${path}`).toBe("ACCESS_DENIED");
      }
      expect((await team.call("viewer", "GET", "/api/pipelines", { token })).status).toBe(200);
    }
    expect((await team.call("anonymous", "GET", "/api/pipelines")).status).toBe(401);
    const pipelines = await team.service.store.listPipelines({ limit: 500 });
    expect(pipelines.some((pipeline) => pipeline.owner === team.ids.viewer)).toBe(false);
  });

  it("forged, expired and revoked tokens, and a real token id with a wrong secret, answer 401 TOKEN_EXPIRED", async () => {
    const store = team.service.store;
    const expiredSession = mintToken("session");
    await store.createSession({ id: expiredSession.id, user_id: team.ids.user, secret_hash: expiredSession.secretHash, expires_at: new Date(Date.now() - 1000).toISOString(), ip: null, user_agent: null });
    const expiredPat = mintToken("access-token");
    await store.createAccessToken({ id: expiredPat.id, user_id: team.ids.user, name: "expired", secret_hash: expiredPat.secretHash, expires_at: new Date(Date.now() - 1000).toISOString() });
    const loggedOut = await team.signIn("user");
    expect((await team.call("user", "POST", "/api/auth/logout", { token: loggedOut })).status).toBe(200);
    const deleted = await team.call("user", "POST", "/api/auth/tokens", { body: { name: "to delete" } });
    expect((await team.call("user", "DELETE", `/api/auth/tokens/${deleted.body.id as string}`)).status).toBe(200);
    const live = await team.call("user", "POST", "/api/auth/tokens", { body: { name: "live" } });
    const liveToken = live.body.token as string;
    const session = team.tokens.user;
    const wrongSecret = (token: string) => `${token.slice(0, token.indexOf(".") + 1)}${"a".repeat(32)}`;
    const refused = {
      forged: `${crypto.randomUUID()}.${"b".repeat(32)}`,
      "forged access token": `strand_pat_${crypto.randomUUID()}.${"c".repeat(32)}`,
      "expired session": expiredSession.token,
      "expired access token": expiredPat.token,
      "logged-out session": loggedOut,
      "deleted access token": deleted.body.token as string,
      "session id, wrong secret": wrongSecret(session),
      "access token id, wrong secret": wrongSecret(liveToken),
      "session with its secret hash": `${session.slice(0, session.indexOf("."))}.${hashSecret(session.slice(session.indexOf(".") + 1)).slice(0, 32)}`,
    };
    for (const [what, token] of Object.entries(refused)) {
      const answer = await team.call("anonymous", "GET", "/api/runs", { token });
      expect(answer.status, what).toBe(401);
      expect(answer.body.code, what).toBe("TOKEN_EXPIRED");
    }
    expect((await team.call("anonymous", "GET", "/api/runs", { token: liveToken })).status).toBe(200);
    expect((await team.call("anonymous", "GET", "/api/runs", { token: session })).status).toBe(200);
  });

  it("14.1 #13: the event stream never takes a token in the URL: ?token= and the like are ignored (401 AUTH_REQUIRED)", async () => {
    const token = team.tokens.user;
    for (const query of [`token=${token}`, `access_token=${token}`, `session=${token}`, `authorization=Bearer%20${token}`]) {
      const answer = await team.call("anonymous", "GET", `/api/events?${query}`);
      expect(answer.status, query).toBe(401);
      expect(answer.body.code, query).toBe("AUTH_REQUIRED");
    }
    expect((await team.call("anonymous", "GET", "/api/events", { token })).status).toBe(200);
    expect((await team.call("anonymous", "GET", "/api/events", { headers: { cookie: `session=${token}` } })).status).toBe(200);
  });

  it("14.1 #16: refused requests are audited: no credentials, a bad token, a viewer's write and a wrong password, with the caller and the address", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await team.call("anonymous", "GET", "/api/runs");
    await team.call("anonymous", "DELETE", "/api/pipelines/anything", { token: `${crypto.randomUUID()}.${"d".repeat(32)}` });
    await team.call("viewer", "POST", "/api/pipelines", { body: { toml_content: trivialPipeline("denied") } });
    await team.call("user", "GET", "/api/audit");
    await team.call("anonymous", "POST", "/api/auth/login", { body: { username: ACCOUNTS.user.username, password: "a-wrong-password" } });
    const rows = (await team.service.store.listAudit({ limit: 200 })).items.filter((row) => row.time >= since);
    const find = (method: string, path: string) => rows.find((row) => row.method === method && row.path === path);
    expect(find("GET", "/api/runs")).toMatchObject({ status: 401, result: "denied", actor: null, ip: "127.0.0.1" });
    expect(find("DELETE", "/api/pipelines/anything")).toMatchObject({ status: 401, result: "denied" });
    expect(find("POST", "/api/pipelines")).toMatchObject({ status: 403, result: "denied", actor: team.ids.viewer });
    expect(find("GET", "/api/audit")).toMatchObject({ status: 403, result: "denied", actor: team.ids.user });
    expect(find("POST", "/api/auth/login")).toMatchObject({ status: 401, result: "failure" });
  });

  it("14.1 #12: installing a license is for administrators only; 14.1 #9: the license text never lands in the audit log", async () => {
    const text = "-----BEGIN LICENSE----- license-body-that-stays-out-of-the-audit";
    for (const who of ["user", "other", "viewer"] as const) {
      const answer = await team.call(who, "POST", "/api/license/upload", { body: { license_data: text } });
      expect(answer.status, who).toBe(403);
    }
    expect((await team.call("admin", "POST", "/api/license/upload", { body: { license_data: text } })).status).toBe(400);
    expect(JSON.stringify((await team.service.store.listAudit({ limit: 500 })).items)).not.toContain("license-body-that-stays-out-of-the-audit");
    expect(team.service.logText()).not.toContain("license-body-that-stays-out-of-the-audit");
  });

  it("tokens and passwords never reach the log, an audit row, a URL or an error message", async () => {
    const password = "a-password-nobody-should-see-9";
    const created = await team.call("admin", "POST", "/api/users", { body: { username: "secretive", password, role: "user" } });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(password);
    const login = await team.call("anonymous", "POST", "/api/auth/login", { body: { username: "secretive", password } });
    const session = login.body.token as string;
    const pat = await team.call("anonymous", "POST", "/api/auth/tokens", { token: session, body: { name: "ci" } });
    const patToken = pat.body.token as string;
    const listed = await team.call("anonymous", "GET", "/api/auth/tokens", { token: session });
    expect(listed.text).not.toContain(patToken.slice(patToken.indexOf(".") + 1));
    const errors = [
      await team.call("anonymous", "POST", "/api/auth/login", { body: { username: "secretive", password: `${password}-wrong` } }),
      await team.call("anonymous", "GET", "/api/pipelines", { token: `${patToken}x` }),
      // The last character of the secret changed (to one it is not: a fixed letter would match 1 time in 32).
      await team.call("anonymous", "GET", "/api/pipelines", { token: `${session.slice(0, -1)}${session.endsWith("a") ? "b" : "a"}` }),
      await team.call("anonymous", "POST", "/api/auth/password", { token: session, body: { current_password: `${password}-wrong`, new_password: `${password}-new` } }),
      await team.call("anonymous", "PUT", `/api/pipelines/${crypto.randomUUID()}`, { token: patToken, body: { name: password } }),
    ];
    for (const answer of errors) expect(answer.status).toBeGreaterThanOrEqual(400);
    await team.call("anonymous", "GET", "/api/pipelines", { token: patToken });
    await team.call("anonymous", "POST", "/api/auth/password", { token: session, body: { current_password: password, new_password: `${password}-new` } });
    await team.call("anonymous", "POST", "/api/auth/logout", { token: session });
    const secrets = [password, `${password}-wrong`, `${password}-new`, session, session.slice(session.indexOf(".") + 1), patToken, patToken.slice(patToken.indexOf(".") + 1)];
    const audit = JSON.stringify((await team.service.store.listAudit({ limit: 500 })).items);
    const log = team.service.logText();
    for (const secret of secrets) {
      expect(log.includes(secret), "the service log").toBe(false);
      expect(audit.includes(secret), "the audit rows").toBe(false);
      for (const answer of errors) expect(answer.text.includes(secret), `error ${answer.status} ${answer.body.code}`).toBe(false);
    }
    // Every URL the service logged is a path without a credential in its query.
    for (const entry of team.service.logs) {
      const url = String(entry.url ?? entry.path ?? "");
      expect(url).not.toMatch(/token=|password=/i);
    }
  });
});
