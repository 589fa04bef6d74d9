/**
 * A browser session on the app for end-to-end tests: pages opened at a path of a running service, with every
 * console error and page error collected (a test ends by expecting none), screenshots saved as test
 * artefacts under `.scratch/screenshots/`, and an axe-core accessibility check that reports serious and
 * critical violations.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./browser.js";
import { PROJECT_ROOT } from "./strand-cli.js";

/**
 * The whole text of the pipeline editor on `page`. CodeMirror draws only the lines in view, so it is read from
 * the editor's view (what EditorView.findFromDOM reads), not from the page.
 */
export function editorText(page: Page): Promise<string> {
  return page.evaluate(`document.querySelector(".cm-content").cmTile.root.view.state.doc.toString()`) as Promise<string>;
}

/** Where the browser tests save their screenshots (kept by CI as artefacts; not committed). */
export const SCREENSHOTS = join(PROJECT_ROOT, ".scratch", "screenshots");

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe-core finding the tests refuse: its rule, impact, and where. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export interface WebSession {
  browser: Browser;
  context: BrowserContext;
  /** Console and page errors seen on any page so far, each prefixed with the path it was opened at. */
  problems: string[];
  /** Opens `path` (for example `/pipelines`) of the service in a new tab of this session. */
  open(path: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** Saves a full-page screenshot as `<name>.png` among the artefacts and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  /** Serious and critical axe-core violations on the page as it is now. */
  accessibilityViolations(page: Page): Promise<AccessibilityViolation[]>;
  close(): Promise<void>;
}

/** Starts Chromium with one context (cookies shared by its pages) on the service at `baseUrl`. */
export async function openWebSession(baseUrl: string, options: { browser?: Browser } = {}): Promise<WebSession> {
  const browser = options.browser ?? (await launchBrowser());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const problems: string[] = [];
  const root = baseUrl.replace(/\/$/, "");
  return {
    browser,
    context,
    problems,
    async open(path, viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`${path}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`${path}: ${error.message}`));
      await page.goto(`${root}${path}`);
      return page;
    },
    async screenshot(page, name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async accessibilityViolations(page) {
      // Evaluated through the DevTools protocol, so the app's content security policy (no inline scripts) stays on.
      await page.evaluate(AXE_SOURCE);
      const found = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations.map((violation) => ({
        id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(" ")),
      })))`)) as AccessibilityViolation[];
      return found.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    },
    async close() {
      await context.close();
      if (!options.browser) await browser.close();
    },
  };
}
