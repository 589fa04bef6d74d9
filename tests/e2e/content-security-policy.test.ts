/**
 * The content security policy in a real browser (Debian's Chromium): the app's index page and the API
 * documentation load without a single policy violation, and a script injected into either page (an inline
 * script element, or an inline event handler) does not run.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict, launchBrowser } from "../support/browser.js";
import { startTestService, type TestService } from "../support/service-harness.js";

failWithoutChromiumWhenStrict();

/** A page that records every policy violation and script error, as the browser reports them. */
async function watchedPage(browser: Browser): Promise<{ page: Page; violations: () => Promise<string[]>; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  // Init scripts come through the debugging protocol, which the page's policy does not govern.
  // (Scripts in the page are given as text: these tests are compiled without the DOM's types.)
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(event.effectiveDirective + " " + event.blockedURI));
  `);
  return { page, problems, violations: () => page.evaluate<string[]>("window.__violations") };
}

describe.skipIf(CHROMIUM_PATH === undefined)("content security policy in Chromium", () => {
  let service: TestService;
  let browser: Browser;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startTestService(), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("the index page and the API documentation work under the policy, with no violation", async () => {
    const { page, violations, problems } = await watchedPage(browser);
    await page.goto(`${service.url}/`);
    // The browser app (built into dist/web by npm run build) starts and asks the API under the policy.
    await page.getByRole("heading", { level: 1, name: /^Pipelines/ }).waitFor();
    expect(await violations()).toEqual([]);
    await page.goto(`${service.url}/api/docs`);
    await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 20_000 });
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it("an injected inline script and an inline event handler do not run (predecessor 14.1 #13: CSP and CORS)", async () => {
    for (const path of ["/", "/api/docs"]) {
      const { page, violations } = await watchedPage(browser);
      await page.goto(`${service.url}${path}`);
      // As an injection through some unescaped text would add it: a <script> element with a body.
      await page.evaluate(`{
        const script = document.createElement("script");
        script.textContent = "window.__inlineRan = true;";
        document.body.append(script);
      }`);
      // The classic injection: an element with an inline event handler.
      await page.evaluate(`{
        const image = document.createElement("img");
        image.setAttribute("onerror", "window.__handlerRan = true;");
        image.src = "data:,not-an-image";
        document.body.append(image);
      }`);
      await expect
        .poll(violations)
        .toEqual(expect.arrayContaining([expect.stringMatching(/^script-src(-elem)? inline$/), expect.stringMatching(/^script-src(-attr)? inline$/)]));
      const ran = await page.evaluate<{ inline: boolean; handler: boolean }>("({ inline: window.__inlineRan === true, handler: window.__handlerRan === true })");
      expect(ran, path).toEqual({ inline: false, handler: false });
      await page.close();
    }
  }, 60_000);
});
