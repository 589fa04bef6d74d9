/**
 * Signing in with GitHub and ORCID, end to end: the real service in team mode on a socket, local GitHub- and
 * ORCID-shaped identity providers on 127.0.0.1 (tests/support/identity-provider.ts) reached through
 * SERVICE_OAUTH_<PROVIDER>_BASE_URL, and a small cookie-keeping client that follows the redirects as a
 * browser would. The public address is http://strand.test (SERVICE_PUBLIC_URL): the client sends requests
 * for it to the service, as a reverse proxy would, which also shows the redirect URI comes from the
 * configuration and never from the Host the service was reached at.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthSettingsOf } from "../../../../src/server/domains/auth/oauth-settings.js";
import { AuthService } from "../../../../src/server/domains/auth/service.js";
import { serviceConfig } from "../../../../src/server/config.js";
import { startIdentityProvider, type IdentityProvider } from "../../../support/identity-provider.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { runStrand } from "../../../support/strand-cli.js";
import { serve } from "../../../support/strand-serve.js";

const PUBLIC_URL = "http://strand.test";
const ADMIN_PASSWORD = "admin-password-for-oauth-tests";

interface Hop {
  status: number;
  location: string | null;
  setCookies: string[];
  body: Record<string, unknown>;
}

/** A client that keeps cookies (name, value, path) and sends requests for the public address to the service. */
class Browser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(
    private readonly service: string,
    private readonly publicBase = `${PUBLIC_URL}/`,
  ) {}

  /** GET a URL (absolute, or a path on the public site) without following redirects. */
  async get(url: string, headers: Record<string, string> = {}): Promise<Hop> {
    const absolute = new URL(url, this.publicBase).href;
    const toService = absolute.startsWith(this.publicBase);
    const target = toService ? `${this.service}/${absolute.slice(this.publicBase.length)}` : absolute;
    // Cookies are matched against the path the browser sees (under the public base path).
    const publicPath = new URL(absolute).pathname;
    const cookie = toService
      ? [...this.cookies].filter(([, entry]) => publicPath === entry.path || publicPath.startsWith(entry.path.endsWith("/") ? entry.path : `${entry.path}/`)).map(([name, entry]) => `${name}=${entry.value}`).join("; ")
      : "";
    const response = await fetch(target, { redirect: "manual", headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    const setCookies = response.headers.getSetCookie();
    if (toService) for (const line of setCookies) this.keep(line);
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = { text };
    }
    return { status: response.status, location: response.headers.get("location"), setCookies, body };
  }

  /** The value of a kept cookie. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** Replaces a kept cookie's value (a test forging or carrying one over). */
  setCookie(name: string, value: string, path: string): void {
    this.cookies.set(name, { value, path });
  }

  private keep(line: string): void {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? "/";
    if (attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || value === "") this.cookies.delete(name);
    else this.cookies.set(name, { value, path });
  }
}

/** The attributes of the Set-Cookie line for `name`. */
function cookieLine(hop: Hop, name: string): string {
  const line = hop.setCookies.find((entry) => entry.startsWith(`${name}=`));
  expect(line, `Set-Cookie ${name}`).toBeDefined();
  return line!;
}

/** Authorize, the provider's redirect back, and the callback, as a browser follows them. */
async function signIn(browser: Browser, provider: "github" | "orcid", returnTo?: string): Promise<{ authorize: Hop; atProvider: Hop; callback: Hop }> {
  const authorize = await browser.get(`/api/auth/oauth/${provider}/authorize${returnTo === undefined ? "" : `?return_to=${encodeURIComponent(returnTo)}`}`);
  expect(authorize.status, JSON.stringify(authorize.body)).toBe(302);
  const atProvider = await browser.get(authorize.location!);
  expect(atProvider.status, JSON.stringify(atProvider.body)).toBe(302);
  const callback = await browser.get(atProvider.location!);
  return { authorize, atProvider, callback };
}

/** Who the browser's session cookie signs in as. */
async function me(browser: Browser): Promise<{ status: number; user?: { id: string; username: string; role: string }; via?: string }> {
  const answer = await browser.get("/api/auth/me");
  return { status: answer.status, ...(answer.body as { user?: { id: string; username: string; role: string }; via?: string }) };
}

describe("sign-in with GitHub and ORCID (team mode, local identity providers)", () => {
  let github: IdentityProvider;
  let orcid: IdentityProvider;
  let service: TestService;
  let adminToken: string;
  let adminId: string;

  const oauthEnv = () => ({
    SERVICE_PUBLIC_URL: PUBLIC_URL,
    SERVICE_OAUTH_GITHUB_CLIENT_ID: github.clientId,
    SERVICE_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
    SERVICE_OAUTH_GITHUB_BASE_URL: github.url,
    SERVICE_OAUTH_ORCID_CLIENT_ID: orcid.clientId,
    SERVICE_OAUTH_ORCID_CLIENT_SECRET: orcid.clientSecret,
    SERVICE_OAUTH_ORCID_BASE_URL: orcid.url,
  });

  beforeAll(async () => {
    github = await startIdentityProvider("github", `${PUBLIC_URL}/api/auth/oauth/github/callback`);
    orcid = await startIdentityProvider("orcid", `${PUBLIC_URL}/api/auth/oauth/orcid/callback`);
    service = await startTestService({ mode: "team", publicUrl: PUBLIC_URL, trustedProxies: ["127.0.0.1"], oauth: oauthSettingsOf(oauthEnv()) });
    const { user } = await new AuthService(service.store).setAccount("admin", ADMIN_PASSWORD, "admin");
    adminId = user.id;
    const login = await fetch(`${service.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }) });
    adminToken = ((await login.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await service?.close();
    await github?.close();
    await orcid?.close();
  });

  it("GET /api/auth/providers lists password sign-in and the configured providers, without credentials", async () => {
    const answer = await new Browser(service.url).get("/api/auth/providers");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      password: true,
      oauth: [
        { id: "github", name: "GitHub", authorize_url: "/api/auth/oauth/github/authorize" },
        { id: "orcid", name: "ORCID", authorize_url: "/api/auth/oauth/orcid/authorize" },
      ],
    });
  });

  it("authorize redirects to the provider with state, a PKCE S256 challenge and the configured redirect URI, and keeps them in a 10-minute HttpOnly SameSite=Lax cookie for the callback only", async () => {
    const browser = new Browser(service.url);
    const answer = await browser.get("/api/auth/oauth/github/authorize");
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(location.searchParams.get("client_id")).toBe(github.clientId);
    expect(location.searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/auth/oauth/github/callback`);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.has("client_secret")).toBe(false);
    const cookie = cookieLine(answer, "oauth_state");
    expect(cookie).toMatch(/; Path=\/api\/auth\/oauth\/github\/callback;/);
    expect(cookie).toMatch(/; Max-Age=600;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    // Behind a trusted https proxy the cookie is Secure.
    const https = await browser.get("/api/auth/oauth/github/authorize", { "x-forwarded-proto": "https" });
    expect(cookieLine(https, "oauth_state")).toMatch(/; Secure$/);
  });

  it("a first GitHub sign-in creates a user account without a password, opens a session by cookie and lands on the app", async () => {
    github.signInAs({ id: 1001, login: "octocat" });
    const browser = new Browser(service.url);
    const { callback } = await signIn(browser, "github");
    expect(callback.status).toBe(302);
    expect(callback.location).toBe("/");
    const session = cookieLine(callback, "session");
    expect(session).toMatch(/; HttpOnly; SameSite=Lax$/);
    // The state is good for one callback: its cookie is cleared.
    expect(cookieLine(callback, "oauth_state")).toMatch(/Max-Age=0/);
    const who = await me(browser);
    expect(who.status).toBe(200);
    expect(who.user).toMatchObject({ username: "octocat", role: "user" });
    expect(who.via).toBe("session");
    const users = (await (await fetch(`${service.url}/api/users`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { username: string; has_password: boolean; role: string }[];
    expect(users.find((user) => user.username === "octocat")).toMatchObject({ role: "user", has_password: false });
    expect(await service.store.findIdentity("github", "1001")).toMatchObject({ user_id: who.user!.id, login: "octocat" });

    // The code exchange sent the PKCE verifier, the same redirect URI as the authorization, and Basic credentials.
    const exchange = github.requests.filter((entry) => entry.path === "/login/oauth/access_token").at(-1)!;
    expect(exchange.form.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(exchange.form.redirect_uri).toBe(`${PUBLIC_URL}/api/auth/oauth/github/callback`);
    expect(exchange.authorization).toMatch(/^Basic /);
    // GitHub Enterprise's API path is derived from the base URL.
    expect(github.requests.some((entry) => entry.path === "/api/v3/user")).toBe(true);
  });

  it("a second sign-in of the same GitHub account signs into the same account", async () => {
    github.signInAs({ id: 1002, login: "hubot" });
    const first = new Browser(service.url);
    await signIn(first, "github");
    const before = await me(first);
    const countBefore = (await service.store.listUsers()).length;
    const second = new Browser(service.url);
    const { callback } = await signIn(second, "github");
    expect(callback.status).toBe(302);
    const after = await me(second);
    expect(after.user!.id).toBe(before.user!.id);
    expect((await service.store.listUsers()).length).toBe(countBefore);
  });

  it("predecessor 14.1 #2: a provider account whose login is an existing username ('admin') gets a NEW user account, never the administrator's", async () => {
    github.signInAs({ id: 6666, login: "admin" });
    const browser = new Browser(service.url);
    const { callback } = await signIn(browser, "github");
    expect(callback.status).toBe(302);
    const who = await me(browser);
    expect(who.user!.id).not.toBe(adminId);
    expect(who.user).toMatchObject({ username: "admin-2", role: "user" });
    // The administrator's account is untouched and still the only admin.
    const admins = (await service.store.listUsers()).filter((user) => user.role === "admin");
    expect(admins.map((user) => user.id)).toEqual([adminId]);
    // The new account cannot do what only administrators may.
    expect((await browser.get("/api/users")).status).toBe(403);

    // Another GitHub account with a login already taken (case aside) gets the next free name, not that account.
    const octocat = (await service.store.findIdentity("github", "1001"))!;
    github.signInAs({ id: 1003, login: "OctoCat" });
    const other = new Browser(service.url);
    await signIn(other, "github");
    const second = await me(other);
    expect(second.user!.id).not.toBe(octocat.user_id);
    expect(second.user!.username).toBe("OctoCat-2");
  });

  it("an ORCID sign-in links the ORCID iD from the token answer, names the account after the record's name, and sends the client secret in the form", async () => {
    orcid.signInAs({ id: "0000-0002-1825-0097", login: "Josiah Carberry" });
    const browser = new Browser(service.url);
    const { authorize, callback } = await signIn(browser, "orcid", "/runs?tab=mine");
    expect(new URL(authorize.location!).searchParams.get("scope")).toBe("/authenticate");
    expect(callback.status).toBe(302);
    expect(callback.location).toBe("/runs?tab=mine");
    const who = await me(browser);
    expect(who.user).toMatchObject({ username: "Josiah-Carberry", role: "user" });
    expect(await service.store.findIdentity("orcid", "0000-0002-1825-0097")).toMatchObject({ user_id: who.user!.id, login: "Josiah Carberry" });
    const exchange = orcid.requests.filter((entry) => entry.path === "/oauth/token").at(-1)!;
    expect(exchange.form.client_secret).toBe(orcid.clientSecret);
    expect(exchange.authorization).toBeUndefined();
    expect(exchange.form.code_verifier).toBeDefined();
  });

  it("a callback whose state does not match the cookie, or without the cookie, is refused (auth_error=BAD_REQUEST) and signs nobody in", async () => {
    const browser = new Browser(service.url);
    const authorize = await browser.get("/api/auth/oauth/github/authorize");
    const atProvider = await browser.get(authorize.location!);
    const forged = new URL(atProvider.location!);
    forged.searchParams.set("state", "x".repeat(forged.searchParams.get("state")!.length));
    const mismatch = await browser.get(forged.href);
    expect(mismatch.status).toBe(302);
    expect(mismatch.location).toBe("/?auth_error=BAD_REQUEST&auth_reason=state_mismatch&auth_provider=github");
    expect(mismatch.setCookies.some((line) => line.startsWith("session="))).toBe(false);
    expect((await me(browser)).status).toBe(401);

    // Login CSRF: an attacker's callback link opened in a browser that never started a sign-in.
    const authorize2 = await browser.get("/api/auth/oauth/github/authorize");
    const atProvider2 = await browser.get(authorize2.location!);
    const victim = new Browser(service.url);
    const missing = await victim.get(atProvider2.location!);
    expect(missing.location).toBe("/?auth_error=BAD_REQUEST&auth_reason=state_missing&auth_provider=github");
    expect((await me(victim)).status).toBe(401);

    // A cookie altered by hand (here: its return path) is refused as tampered with.
    const authorize3 = await browser.get("/api/auth/oauth/github/authorize");
    const atProvider3 = await browser.get(authorize3.location!);
    const sealed = browser.cookie("oauth_state")!;
    browser.setCookie("oauth_state", `A${sealed.slice(1)}`, "/api/auth/oauth/github/callback");
    const tampered = await browser.get(atProvider3.location!);
    expect(tampered.location).toBe("/?auth_error=BAD_REQUEST&auth_reason=state_tampered&auth_provider=github");
  });

  it.each(["github", "orcid"] as const)("a code presented with another sign-in's PKCE verifier is refused by %s and answers AUTH_FAILED", async (provider) => {
    // The attacker starts a sign-in and obtains a code bound to their own challenge...
    const attacker = new Browser(service.url);
    const attackerAuthorize = await attacker.get(`/api/auth/oauth/${provider}/authorize`);
    const attackerCode = new URL((await attacker.get(attackerAuthorize.location!)).location!).searchParams.get("code")!;
    // ...and injects it into the victim's callback (whose state and cookie are the victim's own).
    const victim = new Browser(service.url);
    const victimAuthorize = await victim.get(`/api/auth/oauth/${provider}/authorize`);
    const victimState = new URL(victimAuthorize.location!).searchParams.get("state")!;
    const injected = await victim.get(`/api/auth/oauth/${provider}/callback?code=${attackerCode}&state=${victimState}`);
    expect(injected.status).toBe(302);
    // GitHub answers the refusal with 200 and an error field, ORCID with 400: both are AUTH_FAILED.
    expect(injected.location).toBe(`/?auth_error=AUTH_FAILED&auth_reason=invalid_grant&auth_provider=${provider}`);
    expect(injected.setCookies.some((line) => line.startsWith("session="))).toBe(false);
    expect((await me(victim)).status).toBe(401);
    expect(service.lines).toContain("warn identity provider refused the code");
  });

  it("a user who denies access at the provider lands on the app with auth_error=AUTH_FAILED", async () => {
    orcid.denyNext();
    const browser = new Browser(service.url);
    const { callback } = await signIn(browser, "orcid");
    expect(callback.location).toBe("/?auth_error=AUTH_FAILED&auth_reason=access_denied&auth_provider=orcid");
    expect((await me(browser)).status).toBe(401);
  });

  it("return_to must be a path inside the app: another site is refused with 400 BAD_REQUEST (no open redirect)", async () => {
    const browser = new Browser(service.url);
    for (const target of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "evil.example/path"]) {
      const answer = await browser.get(`/api/auth/oauth/github/authorize?return_to=${encodeURIComponent(target)}`);
      expect(answer.status, target).toBe(400);
      expect(answer.body.code, target).toBe("BAD_REQUEST");
      expect(answer.location, target).toBeNull();
      expect(answer.setCookies, target).toEqual([]);
    }
  });

  it("an unknown provider is 404; the service names no client secret in its answers, its log or /api/system", async () => {
    const browser = new Browser(service.url);
    const unknown = await browser.get("/api/auth/oauth/gitlab/authorize");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
    const callback = await browser.get("/api/auth/oauth/gitlab/callback?code=x&state=y");
    expect(callback.status).toBe(404);
    const system = await fetch(`${service.url}/api/system`, { headers: { authorization: `Bearer ${adminToken}` } });
    const everything = [await system.text(), JSON.stringify((await browser.get("/api/auth/providers")).body), service.logText()].join("\n");
    for (const secret of [github.clientSecret, orcid.clientSecret]) expect(everything).not.toContain(secret);
    // The settings themselves print the secret as [redacted].
    expect(JSON.stringify(oauthSettingsOf(oauthEnv()))).not.toContain(github.clientSecret);
  });

  it("predecessor 14.1 #2: a state cookie past its 10 minutes (here: 1 s) is refused", async () => {
    const shortLived = await startTestService({ mode: "team", publicUrl: PUBLIC_URL, oauth: oauthSettingsOf(oauthEnv()), oauthStateTtlMs: 1000 });
    try {
      const browser = new Browser(shortLived.url);
      const authorize = await browser.get("/api/auth/oauth/github/authorize");
      expect(cookieLine(authorize, "oauth_state")).toMatch(/Max-Age=1;/);
      const atProvider = await browser.get(authorize.location!);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // The client still sends the cookie (a browser would have dropped it): the service checks the expiry itself.
      const late = await browser.get(atProvider.location!);
      expect(late.location).toBe("/?auth_error=BAD_REQUEST&auth_reason=state_expired&auth_provider=github");
      expect((await me(browser)).status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });
});

describe("sign-in with a provider: configuration", () => {
  it("a provider without SERVICE_PUBLIC_URL refuses to start, naming the variable and never the secret", () => {
    const env = { SERVICE_MODE: "team", SERVICE_OAUTH_GITHUB_CLIENT_ID: "id", SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "very-secret-value" };
    expect(() => serviceConfig(env)).toThrow(/SERVICE_PUBLIC_URL/);
    try {
      serviceConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain("very-secret-value");
    }
    expect(() => serviceConfig({ SERVICE_MODE: "team", SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_OAUTH_ORCID_CLIENT_ID: "id" })).toThrow(/SERVICE_OAUTH_ORCID_CLIENT_SECRET/);
    const config = serviceConfig({ ...env, SERVICE_PUBLIC_URL: PUBLIC_URL });
    expect(config.oauth.github).toMatchObject({ clientId: "id", baseUrl: "https://github.com", apiUrl: "https://api.github.com" });
    expect(config.oauth.orcid).toBeUndefined();
    expect(JSON.stringify(config)).not.toContain("very-secret-value");
    // Personal mode has no sign-in: the same settings neither apply nor stop it.
    expect(serviceConfig({ ...env, SERVICE_MODE: "personal" }).oauth).toEqual({});
  });

  it("a provider that is not configured answers 404 naming its variables; personal mode has no OAuth routes", async () => {
    const team = await startTestService({ mode: "team", publicUrl: PUBLIC_URL });
    const personal = await startTestService({ mode: "personal" });
    try {
      const notConfigured = await new Browser(team.url).get("/api/auth/oauth/orcid/authorize");
      expect(notConfigured.status).toBe(404);
      expect(notConfigured.body.suggestion).toMatch(/SERVICE_OAUTH_ORCID_CLIENT_ID and SERVICE_OAUTH_ORCID_CLIENT_SECRET/);
      expect((await new Browser(team.url).get("/api/auth/providers")).body).toEqual({ password: true, oauth: [] });
      for (const path of ["/api/auth/providers", "/api/auth/oauth/github/authorize", "/api/auth/oauth/github/callback?code=x&state=y"]) {
        const answer = await new Browser(personal.url).get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.body.code, path).toBe("NOT_FOUND");
      }
    } finally {
      await team.close();
      await personal.close();
    }
  });

  it("under SERVICE_BASE_PATH the redirect URI, the state cookie's path, the sign-in links and the landing page sit under the base path", async () => {
    const redirectUri = `${PUBLIC_URL}/strand/api/auth/oauth/github/callback`;
    const github = await startIdentityProvider("github", redirectUri);
    const service = await startTestService({
      mode: "team",
      publicUrl: PUBLIC_URL,
      basePath: "/strand/",
      oauth: oauthSettingsOf({ SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_OAUTH_GITHUB_CLIENT_ID: github.clientId, SERVICE_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret, SERVICE_OAUTH_GITHUB_BASE_URL: github.url, SERVICE_OAUTH_GITHUB_API_URL: github.url }),
    });
    try {
      // The proxy strips /strand/ before the service sees the request.
      const browser = new Browser(service.url, `${PUBLIC_URL}/strand/`);
      const providers = await browser.get("/strand/api/auth/providers");
      expect(providers.body.oauth).toEqual([{ id: "github", name: "GitHub", authorize_url: "/strand/api/auth/oauth/github/authorize" }]);
      const authorize = await browser.get("/strand/api/auth/oauth/github/authorize?return_to=/runs");
      expect(new URL(authorize.location!).searchParams.get("redirect_uri")).toBe(redirectUri);
      expect(cookieLine(authorize, "oauth_state")).toMatch(/; Path=\/strand\/api\/auth\/oauth\/github\/callback;/);
      const atProvider = await browser.get(authorize.location!);
      const callback = await browser.get(atProvider.location!);
      expect(callback.location).toBe("/strand/runs");
      expect((await browser.get("/strand/api/auth/me")).body.user).toMatchObject({ username: "octocat", role: "user" });
      // SERVICE_OAUTH_GITHUB_API_URL replaces the derived API address.
      expect(github.requests.some((entry) => entry.path === "/user")).toBe(true);
    } finally {
      await service.close();
      await github.close();
    }
  });
});

describe("sign-in with GitHub through `strand serve` and its environment", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "strand-oauth-serve-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("SERVICE_OAUTH_GITHUB_* and SERVICE_PUBLIC_URL switch GitHub sign-in on; the client secret is nowhere in the output", async () => {
    const github = await startIdentityProvider("github", `${PUBLIC_URL}/api/auth/oauth/github/callback`);
    const served = await serve({
      SERVICE_MODE: "team",
      SERVICE_SANDBOX: "off",
      SERVICE_DATA_DIR: join(folder, "data"),
      SERVICE_CONFIG_DIR: join(folder, "config"),
      SERVICE_LOG_LEVEL: "debug",
      SERVICE_PUBLIC_URL: PUBLIC_URL,
      SERVICE_OAUTH_GITHUB_CLIENT_ID: github.clientId,
      SERVICE_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
      SERVICE_OAUTH_GITHUB_BASE_URL: github.url,
    });
    try {
      const browser = new Browser(served.url);
      expect((await browser.get("/api/auth/providers")).body).toEqual({ password: true, oauth: [{ id: "github", name: "GitHub", authorize_url: "/api/auth/oauth/github/authorize" }] });
      github.signInAs({ id: 4242, login: "serve-octocat" });
      const { callback } = await signIn(browser, "github");
      expect(callback.location).toBe("/");
      expect((await me(browser)).user).toMatchObject({ username: "serve-octocat", role: "user" });
    } finally {
      await served.stop();
      await github.close();
    }
    const output = await served.process;
    expect(`${String(output.stdout)}${String(output.stderr)}`).not.toContain(github.clientSecret);
  });

  it("a client id without SERVICE_PUBLIC_URL stops the start with a message naming it, never the secret", async () => {
    const result = await runStrand(["serve", "-p", "0"], {
      env: {
        SERVICE_MODE: "team",
        SERVICE_SANDBOX: "off",
        SERVICE_DATA_DIR: join(folder, "refused"),
        SERVICE_PUBLIC_URL: "",
        SERVICE_OAUTH_GITHUB_CLIENT_ID: "some-client",
        SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "never-print-this-secret",
      },
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/SERVICE_PUBLIC_URL/);
    expect(`${result.stdout}${result.stderr}`).not.toContain("never-print-this-secret");
  });
});
