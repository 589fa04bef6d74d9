/**
 * The browser app in a real browser against a real service: the built app (dist/web) loads under its content
 * security policy with no console error, lists saved pipelines and runs through the API, filters them,
 * follows deep links on reload, switches theme, and can be used from the keyboard.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, failWithoutChromiumWhenStrict, launchBrowser } from "../support/browser.js";
import { serviceClient, waitForRun } from "../support/run-client.js";
import { startTestService, type TestService } from "../support/service-harness.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

failWithoutChromiumWhenStrict();

const SCREENSHOTS = join(PROJECT_ROOT, ".scratch");
const PIPELINE = (name: string) => `[workflow]\nname = "${name}"\ndescription = "says hello"\n\n[[rules]]\nname = "hi"\noutput = ["hi.txt"]\nshell = "echo hi > {output}"\n`;

describe.skipIf(CHROMIUM_PATH === undefined)("the browser app in Chromium", () => {
  let service: TestService;
  let browser: Browser;
  const problems: string[] = [];

  const open = async (path: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("console", (message) => message.type() === "error" && problems.push(`${path}: ${message.text()}`));
    page.on("pageerror", (error) => problems.push(`${path}: ${error.message}`));
    await page.goto(`${service.url}${path}`);
    return page;
  };

  beforeAll(async () => {
    [service, browser] = await Promise.all([startTestService(), launchBrowser()]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const client = serviceClient(service.url);
    for (const name of ["rnaseq-demo", "variant-calling-demo"]) await client.POST("/api/pipelines", { body: { name, toml_content: PIPELINE(name) } });
    const run = await client.POST("/api/runs", { body: { toml_content: PIPELINE("hello-run") } });
    await waitForRun(service.url, run.data!.id);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("opens on the pipelines, lists them from the API, and filters as you type", async () => {
    const page = await open("/");
    await page.getByRole("heading", { level: 1, name: /^Pipelines/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/pipelines");
    await page.getByText("rnaseq-demo").waitFor();
    expect(await page.getByText("variant-calling-demo").isVisible()).toBe(true);
    await page.getByRole("searchbox", { name: "Filter pipelines" }).fill("rnaseq");
    await expect.poll(() => page.getByText("variant-calling-demo").count()).toBe(0);
    expect(await page.getByRole("status").innerText()).toMatch(/v9\.9\.9-test · personal/);
    await page.screenshot({ path: join(SCREENSHOTS, "web-pipelines.png"), fullPage: true });
    await page.close();
  });

  it("shows the runs with their state, on a deep link that survives a reload", async () => {
    const page = await open("/runs");
    await page.getByText("hello-run").waitFor();
    expect(await page.locator(".badge-completed").count()).toBeGreaterThan(0);
    await page.reload();
    await page.getByText("hello-run").waitFor();
    await page.getByRole("combobox", { name: "State" }).selectOption("failed");
    await page.getByText("No runs in state failed yet.").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "web-runs.png"), fullPage: true });
    await page.close();
  });

  it("switches to the dark theme and back, and reaches the sections from the keyboard", async () => {
    const page = await open("/pipelines");
    await page.getByRole("heading", { level: 1, name: /^Pipelines/ }).waitFor();
    const theme = page.getByRole("button", { name: /^Theme:/ });
    await theme.click();
    await theme.click();
    expect(await page.evaluate("document.documentElement.dataset.theme")).toBe("dark");
    // Remembered in this browser: still dark after a reload (which also starts the keyboard from the top).
    await page.reload();
    await page.getByRole("heading", { level: 1, name: /^Pipelines/ }).waitFor();
    expect(await page.evaluate("document.documentElement.dataset.theme")).toBe("dark");
    await page.screenshot({ path: join(SCREENSHOTS, "web-dark.png"), fullPage: true });
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Runs");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: /^Runs/ }).waitFor();
    await page.close();
  });

  it("answers an unknown app path with a page that leads back, and raised no console error anywhere", async () => {
    const page = await open("/no/such/page");
    await page.getByRole("heading", { name: "Nothing here" }).waitFor();
    await page.close();
    expect(problems).toEqual([]);
  });
});
