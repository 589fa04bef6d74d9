/**
 * Signing in with GitHub in a real browser (Debian's Chromium): the browser follows the service's redirect
 * to a local GitHub-shaped identity provider and back, so the state cookie's attributes (SameSite=Lax on the
 * provider's cross-site redirect back, Path the callback, HttpOnly) are tested as a browser applies them,
 * not as a test client imitates them. The service's public address http://strand.test is mapped to its
 * port by Chromium's host resolver, as DNS and a proxy would.
 */
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthSettingsOf } from "../../src/server/domains/auth/oauth-settings.js";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { startIdentityProvider, type IdentityProvider } from "../support/identity-provider.js";
import { startTestService, type TestService } from "../support/service-harness.js";

failWithoutChromiumWhenStrict();

const PUBLIC_URL = "http://strand.test";

describe.skipIf(CHROMIUM_PATH === undefined)("sign-in with GitHub in Chromium", () => {
  let github: IdentityProvider;
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    github = await startIdentityProvider("github", `${PUBLIC_URL}/api/auth/oauth/github/callback`);
    service = await startTestService({
      mode: "team",
      publicUrl: PUBLIC_URL,
      oauth: oauthSettingsOf({ SERVICE_PUBLIC_URL: PUBLIC_URL, SERVICE_OAUTH_GITHUB_CLIENT_ID: github.clientId, SERVICE_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret, SERVICE_OAUTH_GITHUB_BASE_URL: github.url }),
    });
    const port = new URL(service.url).port;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", `--host-resolver-rules=MAP strand.test:80 127.0.0.1:${port}`],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await github?.close();
  });

  it("the browser goes to the provider and back, lands on the return path signed in by an HttpOnly session cookie, and the state cookie is gone", async () => {
    github.signInAs({ id: 7007, login: "browser-octocat" });
    const context = await browser.newContext();
    const page = await context.newPage();
    const visited: string[] = [];
    page.on("request", (request) => request.isNavigationRequest() && visited.push(request.url().split("?")[0]!));
    await page.goto(`${PUBLIC_URL}/api/auth/oauth/github/authorize?return_to=${encodeURIComponent("/runs")}`);
    expect(page.url()).toBe(`${PUBLIC_URL}/runs`);
    expect(visited).toEqual([`${PUBLIC_URL}/api/auth/oauth/github/authorize`, `${github.url}/login/oauth/authorize`, `${PUBLIC_URL}/api/auth/oauth/github/callback`, `${PUBLIC_URL}/runs`]);
    const cookies = await context.cookies(PUBLIC_URL);
    expect(cookies.map((cookie) => cookie.name)).toEqual(["session"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    // The page's own requests carry the session (a script cannot read it).
    const me = await page.evaluate<{ user: { username: string; role: string }; via: string }>(`fetch("/api/auth/me").then((answer) => answer.json())`);
    expect(me.user).toMatchObject({ username: "browser-octocat", role: "user" });
    expect(me.via).toBe("session");
    expect(await page.evaluate<string>("document.cookie")).toBe("");
    await context.close();
  }, 60_000);

  it("a sign-in denied at the provider lands on the app's start page with auth_error, not signed in", async () => {
    github.denyNext();
    const context = await browser.newContext();
    const page = await context.newPage();
    // The document the redirects end on (the app then moves on to its sign-in page, keeping the reason).
    const landing = await page.goto(`${PUBLIC_URL}/api/auth/oauth/github/authorize`);
    expect(landing?.url()).toBe(`${PUBLIC_URL}/?auth_error=AUTH_FAILED&auth_reason=access_denied&auth_provider=github`);
    await page.waitForURL(/\/sign-in\?.*auth_error=AUTH_FAILED/);
    expect((await context.cookies(PUBLIC_URL)).map((cookie) => cookie.name)).toEqual([]);
    await context.close();
  }, 60_000);
});
