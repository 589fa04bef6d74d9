/**
 * Signing in and the account pages in Chromium against a real team-mode service: a signed-out visitor lands
 * on the sign-in page and comes back to the page asked for, wrong passwords say so, the user menu, access
 * tokens shown once and revoked, sessions with this one marked, an administrator creating an account that
 * cannot open the administrators' pages, the audit log and its filters, signing out; personal mode has no
 * sign-in at all. Every page passes axe-core and no console error is left unexplained.
 *
 * Chromium logs every answer of 400 and above as a console error ("Failed to load resource: the server
 * responded with a status of 401 (Unauthorized)"), even when the app expects it: a signed-out browser's
 * `GET /api/auth/me` is how the app learns it must sign in (the session cookie is HttpOnly, so nothing else
 * tells), a wrong password is a 401 by design, and refusing to demote the last administrator is a 409. The
 * tests record every failed answer the browser received, check each one is one of those expected, and
 * remove exactly one such console line per expected answer; anything else is a failure.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { oauthSettingsOf } from "../../src/server/domains/auth/oauth-settings.js";
import { AuthService } from "../../src/server/domains/auth/service.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { ACCOUNTS, startTeamService, type TeamService } from "../support/team-service.js";
import { openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

const ADMIN = ACCOUNTS.admin;
const NEWCOMER = { username: "newbie", password: "newbie-first-password-42" };
/** The failed answers the app meets on purpose, as `<status> <path>`: signed out, a wrong password, the last administrator kept. */
const EXPECTED_FAILURES = ["401 /api/auth/me", "401 /api/auth/login", "401 /api/auth/password", "409 /api/users/{id}"];
const STATUS_TEXT: Record<number, string> = { 401: "Unauthorized", 409: "Conflict", 429: "Too Many Requests" };

/** A web session that records every failed answer its pages got, to tell expected console errors from others. */
async function trackedSession(url: string, expected: readonly string[] = EXPECTED_FAILURES, browser?: WebSession["browser"]) {
  const web = await openWebSession(url, browser ? { browser } : {});
  const failures: string[] = [];
  web.context.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname.replace(/\/api\/users\/[^/]+$/, "/api/users/{id}")}`);
  });
  /** The console problems left once each expected failed answer has taken away its one "Failed to load resource" line. */
  const unexplained = () => {
    const left = [...web.problems];
    for (const failure of failures) {
      if (!expected.includes(failure)) continue;
      const status = Number(failure.split(" ")[0]);
      const line = left.findIndex((problem) => problem.endsWith(`: Failed to load resource: the server responded with a status of ${status} (${STATUS_TEXT[status]})`));
      if (line >= 0) left.splice(line, 1);
    }
    return { unexpectedFailures: failures.filter((failure) => !expected.includes(failure)), problems: left };
  };
  return { web, failures, unexplained };
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe.skipIf(CHROMIUM_PATH === undefined)("signing in and the account pages in Chromium (team mode)", () => {
  let team: TeamService;
  let admin: Awaited<ReturnType<typeof trackedSession>>;
  let page: Page;
  const violations: Record<string, unknown> = {};

  const checkAccessibility = async (name: string) => {
    const found = await admin.web.accessibilityViolations(page);
    if (found.length > 0) violations[name] = found;
  };

  beforeAll(async () => {
    team = await startTeamService();
    admin = await trackedSession(team.url);
  }, 60_000);
  afterAll(async () => {
    await admin?.web.close();
    await team?.close();
  });

  it("sends a signed-out visitor of /pipelines to the sign-in page", async () => {
    const first = await admin.web.open("/pipelines");
    await first.getByRole("heading", { name: "Sign in to strand" }).waitFor();
    const url = new URL(first.url());
    expect(url.pathname).toBe("/sign-in");
    expect(url.searchParams.get("return_to")).toBe("/pipelines");
    // No user menu while signed out.
    expect(await first.getByRole("button", { name: /account menu$/ }).count()).toBe(0);
    await first.close();
  });

  it("says a wrong password is wrong, then signs in and returns to the page asked for", async () => {
    page = await admin.web.open("/account/tokens");
    await page.getByRole("heading", { name: "Sign in to strand" }).waitFor();
    await admin.web.screenshot(page, "sign-in");
    await checkAccessibility("sign-in");
    await signIn(page, ADMIN.username, "not-the-password");
    expect(await page.getByRole("alert").innerText()).toBe("Wrong username or password.");
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.getByRole("heading", { name: "Access tokens" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/account/tokens");
  });

  it("shows the user's name and role in a menu that works from the keyboard", async () => {
    const menuButton = page.getByRole("button", { name: `${ADMIN.username} (admin), account menu` });
    await menuButton.waitFor();
    expect(await menuButton.innerText()).toContain(ADMIN.username);
    await menuButton.focus();
    await page.keyboard.press("Enter");
    expect(await menuButton.getAttribute("aria-expanded")).toBe("true");
    const accountNav = page.getByRole("navigation", { name: "Account" });
    for (const name of ["Sessions", "Access tokens", "Users", "Audit log"]) expect(await accountNav.getByRole("link", { name }).isVisible()).toBe(true);
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Sessions");
    await admin.web.screenshot(page, "user-menu");
    await page.keyboard.press("Escape");
    expect(await menuButton.getAttribute("aria-expanded")).toBe("false");
    expect(await accountNav.isVisible()).toBe(false);
    expect(await page.evaluate("document.activeElement.className")).toBe("user-menu-button");
  });

  it("creates an access token, shows it once, and revokes it after a confirmation", async () => {
    await page.getByLabel("Name").fill("nightly-ci");
    await page.getByRole("button", { name: "Create token" }).click();
    const secretBox = page.getByRole("textbox", { name: "The new token" });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^strand_pat_/);
    expect(await page.getByText("it is shown only this once").isVisible()).toBe(true);
    await page.getByRole("row", { name: /nightly-ci/ }).waitFor();
    expect((await team.call("anonymous", "GET", "/api/auth/me", { token: secret })).status).toBe(200);
    await admin.web.screenshot(page, "tokens");
    await checkAccessibility("tokens");

    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.content()).not.toContain(secret);
    // Revoking asks first; Escape cancels (the token stays, focus back on its button).
    const revoke = page.getByRole("button", { name: "Revoke token nightly-ci" });
    await revoke.click();
    const dialog = page.getByRole("dialog", { name: "Revoke nightly-ci?" });
    await dialog.waitFor();
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Cancel");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByRole("row", { name: /nightly-ci/ }).count()).toBe(1);
    expect(await page.evaluate("document.activeElement.getAttribute('aria-label')")).toBe("Revoke token nightly-ci");
    await revoke.click();
    await dialog.getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("No access tokens yet.").waitFor();
    // The row and its button are gone: the focus goes to the main region, not lost to the page's body.
    expect(await page.evaluate("document.activeElement.id")).toBe("main");
    expect((await team.call("anonymous", "GET", "/api/auth/me", { token: secret })).status).toBe(401);
  });

  it("lists the sessions with this one marked, and ends another after a confirmation", async () => {
    await page.getByRole("button", { name: /account menu$/ }).click();
    await page.getByRole("link", { name: "Sessions" }).click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    const current = page.getByRole("row").filter({ has: page.getByText("This session") });
    await current.waitFor();
    expect(await current.count()).toBe(1);
    expect(await current.innerText()).toMatch(/Chrom/);
    // The harness signed the administrator in once more through the API: that session can be ended.
    const ends = page.getByRole("button", { name: /^End session from/ });
    const before = await ends.count();
    expect(before).toBeGreaterThan(0);
    await ends.first().click();
    await page.getByRole("dialog", { name: "End this session?" }).getByRole("button", { name: "End session" }).click();
    await expect.poll(() => ends.count()).toBe(before - 1);
    await admin.web.screenshot(page, "sessions");
    await checkAccessibility("sessions");
  });

  it("lets the administrator create an account that signs in elsewhere and cannot open the users page", async () => {
    await page.getByRole("button", { name: /account menu$/ }).click();
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users", exact: true }).waitFor();
    const form = page.getByRole("form", { name: "New account" });
    await form.getByLabel("Username").fill(NEWCOMER.username);
    await form.getByLabel("Password").fill(NEWCOMER.password);
    await form.getByLabel("Role").selectOption("user");
    await form.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("row", { name: new RegExp(NEWCOMER.username) }).waitFor();
    // The service keeps its last administrator, and its message shows.
    await page.getByRole("combobox", { name: `Role of ${ADMIN.username}` }).selectOption("user");
    await page.getByRole("alert").filter({ hasText: /the last administrator/ }).waitFor();
    expect(await page.getByRole("combobox", { name: `Role of ${ADMIN.username}` }).inputValue()).toBe("admin");
    // Resetting another account's password, in a dialog.
    await page.getByRole("button", { name: `Reset password of ${ACCOUNTS.user.username}` }).click();
    const reset = page.getByRole("dialog", { name: `Reset the password of ${ACCOUNTS.user.username}` });
    await reset.getByLabel("New password").fill("bo-reset-by-the-admin-7");
    await reset.getByRole("button", { name: "Reset password" }).click();
    await reset.getByText("The password is reset").waitFor();
    await reset.getByRole("button", { name: "Done" }).click();
    expect((await team.call("anonymous", "POST", "/api/auth/login", { body: { username: ACCOUNTS.user.username, password: "bo-reset-by-the-admin-7" } })).status).toBe(200);
    // Deleting one asks first.
    await page.getByRole("button", { name: `Delete ${ACCOUNTS.other.username}` }).click();
    await page.getByRole("dialog", { name: `Delete ${ACCOUNTS.other.username}?` }).getByRole("button", { name: "Delete account" }).click();
    await expect.poll(() => page.getByRole("row", { name: new RegExp(`^${ACCOUNTS.other.username}\\b`) }).count()).toBe(0);
    expect(await page.getByRole("row").count()).toBe(1 + 4);
    await admin.web.screenshot(page, "users");
    await checkAccessibility("users");

    const newcomer = await trackedSession(team.url, EXPECTED_FAILURES, admin.web.browser);
    try {
      const other = await newcomer.web.open("/admin/users");
      await other.getByRole("heading", { name: "Sign in to strand" }).waitFor();
      await signIn(other, NEWCOMER.username, NEWCOMER.password);
      await other.getByText("Administrators only.").waitFor();
      expect(new URL(other.url()).pathname).toBe("/admin/users");
      expect(await other.getByRole("table").count()).toBe(0);
      await other.getByRole("button", { name: `${NEWCOMER.username} (user), account menu` }).click();
      expect(await other.getByRole("link", { name: "Access tokens" }).isVisible()).toBe(true);
      expect(await other.getByRole("link", { name: "Users" }).count()).toBe(0);
      // Changing the password: a wrong current one is said so (and does not sign out), then the change.
      await other.getByRole("button", { name: "Change password" }).click();
      const dialog = other.getByRole("dialog", { name: "Change password" });
      await dialog.getByLabel("Current password").fill("not-my-password");
      await dialog.getByLabel("New password", { exact: true }).fill("newbie-second-password-43");
      await dialog.getByLabel("Repeat the new password").fill("newbie-second-password-43");
      await dialog.getByRole("button", { name: "Change password" }).click();
      await dialog.getByRole("alert").filter({ hasText: "The current password is wrong." }).waitFor();
      await dialog.getByLabel("Current password").fill(NEWCOMER.password);
      await dialog.getByRole("button", { name: "Change password" }).click();
      await dialog.getByText("Your password is changed.").waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      expect(await dialog.isVisible()).toBe(false);
      expect(new URL(other.url()).pathname).toBe("/admin/users");
      expect((await team.call("anonymous", "POST", "/api/auth/login", { body: { username: NEWCOMER.username, password: "newbie-second-password-43" } })).status).toBe(200);
      expect(newcomer.failures.filter((failure) => failure.startsWith("403"))).toEqual([]);
      expect(newcomer.unexplained()).toEqual({ unexpectedFailures: [], problems: [] });
    } finally {
      await newcomer.web.close();
    }
  });

  it("shows the audit log with the sign-ins and filters it by user", async () => {
    await page.getByRole("button", { name: /account menu$/ }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    const rows = page.getByRole("table").getByRole("row");
    await page.getByRole("cell", { name: "auth.login" }).first().waitFor();
    expect(await page.getByRole("row", { name: /auth\.login.*failure/ }).count()).toBeGreaterThan(0);
    await page.getByLabel("User", { exact: true }).fill(NEWCOMER.username);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(async () => (await rows.allInnerTexts()).slice(1).every((text) => text.includes(NEWCOMER.username))).toBe(true);
    expect(await page.getByRole("row", { name: new RegExp(`${NEWCOMER.username}.*auth\\.login`) }).count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("row", { name: new RegExp(ADMIN.username) }).first().waitFor();
    await admin.web.screenshot(page, "audit");
    await checkAccessibility("audit");
    // The dark theme (remembered for the next pages) passes too.
    const theme = page.getByRole("button", { name: /^Theme:/ });
    while ((await page.evaluate("document.documentElement.dataset.theme ?? ''")) !== "dark") await theme.click();
    await checkAccessibility("audit, dark");
    await admin.web.screenshot(page, "audit-dark");
  });

  it("sends a user whose session ends while using the app to the sign-in page, and back afterwards", async () => {
    const viewer = await trackedSession(team.url, ["401 /api/auth/tokens", "401 /api/auth/me"], admin.web.browser);
    try {
      const other = await viewer.web.open("/account/sessions");
      await signIn(other, ACCOUNTS.viewer.username, ACCOUNTS.viewer.password);
      await other.getByText("This session").waitFor();
      // The session ends elsewhere (here: the same account ends it from a script).
      const sessions = (await team.call("viewer", "GET", "/api/auth/sessions")).body as unknown as { id: string; current: boolean }[];
      for (const session of sessions.filter((each) => !each.current)) expect((await team.call("viewer", "DELETE", `/api/auth/sessions/${session.id}`)).status).toBe(200);
      // The next request of the page answers 401 TOKEN_EXPIRED: the app goes to the sign-in page, keeping the way back.
      await other.getByRole("button", { name: /account menu$/ }).click();
      await other.getByRole("link", { name: "Access tokens" }).click();
      await other.getByRole("heading", { name: "Sign in to strand" }).waitFor();
      expect(new URL(other.url()).searchParams.get("return_to")).toBe("/account/tokens");
      await signIn(other, ACCOUNTS.viewer.username, ACCOUNTS.viewer.password);
      await other.getByRole("heading", { name: "Access tokens" }).waitFor();
      expect(viewer.failures).toContain("401 /api/auth/tokens");
      expect(viewer.unexplained()).toEqual({ unexpectedFailures: [], problems: [] });
    } finally {
      await viewer.web.close();
    }
  });

  it("signs out to the sign-in page, after which /pipelines needs signing in again", async () => {
    await page.getByRole("button", { name: /account menu$/ }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to strand" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await admin.web.screenshot(page, "sign-in-dark");
    await checkAccessibility("sign-in, dark");
    await page.goto(`${team.url}/pipelines`);
    await page.getByRole("heading", { name: "Sign in to strand" }).waitFor();
    expect(new URL(page.url()).searchParams.get("return_to")).toBe("/pipelines");
  });

  it("passes the accessibility check on every page, with no unexplained console error", () => {
    expect(violations).toEqual({});
    expect(admin.unexplained()).toEqual({ unexpectedFailures: [], problems: [] });
  });
});

describe.skipIf(CHROMIUM_PATH === undefined)("the sign-in page's providers, OAuth failures and throttle in Chromium", () => {
  let service: TestService;
  let session: Awaited<ReturnType<typeof trackedSession>>;

  beforeAll(async () => {
    // GitHub configured (never reached: the test only follows links in the app); two failures lock an account.
    service = await startTestService({
      mode: "team",
      rateLimit: 0,
      signInFailures: 2,
      publicUrl: "http://strand.test",
      oauth: oauthSettingsOf({ SERVICE_PUBLIC_URL: "http://strand.test", SERVICE_OAUTH_GITHUB_CLIENT_ID: "app-id", SERVICE_OAUTH_GITHUB_CLIENT_SECRET: "app-secret" }),
    });
    await new AuthService(service.store).setAccount("zed", "zed-correct-password-1", "user");
    session = await trackedSession(service.url, ["401 /api/auth/me", "401 /api/auth/login", "429 /api/auth/login"]);
  }, 60_000);
  afterAll(async () => {
    await session?.web.close();
    await service?.close();
  });

  it("offers the configured provider with the return path, and explains a refused provider sign-in", async () => {
    const page = await session.web.open("/runs");
    const github = page.getByRole("link", { name: "Sign in with GitHub" });
    await github.waitFor();
    expect(await github.getAttribute("href")).toBe(`${service.url}/api/auth/oauth/github/authorize?return_to=%2Fruns`);
    await expect.poll(() => page.getByRole("link", { name: "Sign in with ORCID" }).count()).toBe(0);
    // Where the callback sends a refused sign-in: the app's start page with auth_error.
    await page.goto(`${service.url}/?auth_error=AUTH_FAILED&auth_reason=access_denied&auth_provider=github`);
    await page.getByRole("alert").filter({ hasText: "GitHub did not let strand sign you in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(await session.web.accessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it("shows the throttle's wait after too many wrong passwords", async () => {
    const page = await session.web.open("/sign-in");
    for (let attempt = 0; attempt < 2; attempt++) {
      await signIn(page, "zed", `wrong-${attempt}`);
      await page.getByRole("alert").filter({ hasText: "Wrong username or password." }).waitFor();
      await page.getByRole("button", { name: "Sign in", exact: true }).and(page.locator(":enabled")).waitFor();
    }
    await signIn(page, "zed", "zed-correct-password-1");
    const alert = page.getByRole("alert").filter({ hasText: "Too many failed sign-ins." });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Try again in \d+ s\./);
    expect(await page.getByRole("button", { name: "Sign in", exact: true }).isDisabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await session.web.screenshot(page, "sign-in-throttled");
    expect(session.unexplained()).toEqual({ unexpectedFailures: [], problems: [] });
    await page.close();
  });
});

describe.skipIf(CHROMIUM_PATH === undefined)("personal mode in Chromium", () => {
  let service: TestService;
  let web: WebSession;

  beforeAll(async () => {
    service = await startTestService();
    web = await openWebSession(service.url);
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
  });

  it("shows no sign-in and no user menu; the sign-in page says none is needed", async () => {
    const page = await web.open("/pipelines");
    await page.getByRole("heading", { name: "Pipelines", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.getByRole("button", { name: /account menu$/ }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/pipelines");
    await page.goto(`${service.url}/sign-in`);
    await page.getByRole("heading", { name: "No sign-in needed" }).waitFor();
    await expect.poll(() => page.getByLabel("Password").count()).toBe(0);
    await page.getByRole("link", { name: "Go to the app" }).click();
    await page.getByRole("heading", { name: "Pipelines", level: 1 }).waitFor();
    // The account pages say there is nothing to manage, without asking the service.
    for (const path of ["/account/tokens", "/admin/users"]) {
      await page.goto(`${service.url}${path}`);
      await page.getByText("Nothing to manage in personal mode.").waitFor();
    }
    expect(web.problems).toEqual([]);
  });
});
