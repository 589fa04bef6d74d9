/**
 * The interactive API documentation in a real browser: `/api/docs` loads Swagger UI from the service itself
 * (no CDN, within the content security policy), reads `/api/openapi.json` and lists every operation.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict, launchBrowser } from "../support/browser.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

failWithoutChromiumWhenStrict();

describe.skipIf(CHROMIUM_PATH === undefined)("GET /api/docs in Chromium", () => {
  let service: TestService;
  let browser: Browser;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startTestService(), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("renders every operation of the document, loading nothing from elsewhere and breaking no policy", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("request", (request) => !request.url().startsWith(service.url) && !request.url().startsWith("data:") && foreign.push(request.url()));

    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));

    await page.goto(`${service.url}/api/docs`);
    await page.locator(".swagger-ui .info .title").waitFor({ timeout: 20_000 });
    expect(await page.locator(".swagger-ui .info .title").innerText()).toContain("strand service");
    await page.locator(".opblock").first().waitFor();
    const shown = await page.locator(".opblock .opblock-summary-operation-id").allInnerTexts();
    expect(new Set(shown)).toEqual(new Set(operationIds));

    // An operation opens to show its error answers, with the shared error schema.
    await page.locator("#operations-pipelines-getPipeline .opblock-summary").click();
    await expect.poll(() => page.locator("#operations-pipelines-getPipeline .responses-table .response-col_status").allInnerTexts()).toEqual(expect.arrayContaining(["200", "404", "429", "500"]));

    mkdirSync(join(PROJECT_ROOT, ".scratch"), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, ".scratch", "api-docs.png") });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
