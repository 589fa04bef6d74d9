/**
 * The app's main pages pass an axe-core accessibility check in Chromium with no serious or critical
 * violation, in the light and the dark theme.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict } from "../support/browser.js";
import { serviceClient, waitForRun } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { openWebSession, type WebSession } from "../support/web-session.js";

failWithoutChromiumWhenStrict();

const PIPELINE = `[workflow]\nname = "hello"\ndescription = "says hello"\n\n[[rules]]\nname = "hi"\noutput = ["hi.txt"]\nshell = "echo hi > {output}"\n`;

describe.skipIf(CHROMIUM_PATH === undefined)("accessibility of the main pages (axe-core)", () => {
  let service: TestService;
  let web: WebSession;
  const paths: string[] = ["/pipelines", "/runs"];

  beforeAll(async () => {
    // Many pages in both themes in a minute: more requests than one person's default budget of 100 a minute.
    service = await startTestService({ rateLimit: 0 });
    web = await openWebSession(service.url);
    const client = serviceClient(service.url);
    const pipeline = await client.POST("/api/pipelines", { body: { name: "hello", toml_content: PIPELINE } });
    const run = await client.POST("/api/runs", { body: { pipeline_id: pipeline.data!.id } });
    await waitForRun(service.url, run.data!.id);
    paths.push(`/pipelines/${pipeline.data!.id}`, `/pipelines/${pipeline.data!.id}/run`, `/runs/${run.data!.id}`, "/pipelines/new");
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await service?.close();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`has no serious violation on the main pages in the ${theme} theme`, async () => {
      const found: Record<string, unknown> = {};
      for (const path of paths) {
        const page = await web.open(path);
        await page.evaluate(`localStorage.setItem("strand-theme", "${theme}")`);
        await page.reload();
        await page.locator("h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        const violations = await web.accessibilityViolations(page);
        if (violations.length > 0) found[path] = violations;
        await page.close();
      }
      expect(found).toEqual({});
      expect(web.problems).toEqual([]);
    }, 120_000);
  }
});
