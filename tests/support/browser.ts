/**
 * A real browser for end-to-end tests: Debian's Chromium (`/usr/bin/chromium`, or `STRAND_CHROMIUM`) driven
 * by playwright-core, never a downloaded browser build. Tests skip when there is no Chromium, except under
 * STRICT_SERVICES=1, where that is a failure.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { describe, it } from "vitest";
import { STRICT_SERVICES } from "./postgres-server.js";

/** The Chromium executable the tests drive, if there is one. */
export const CHROMIUM_PATH = [process.env.STRAND_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => path !== undefined && path !== "" && existsSync(path));

/** Starts headless Chromium (no sandbox: tests run as root in containers). */
export function launchBrowser(): Promise<Browser> {
  if (CHROMIUM_PATH === undefined) throw new Error("no Chromium: install Debian's chromium package or set STRAND_CHROMIUM");
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}

/** Registers a failing test saying Chromium is missing, under STRICT_SERVICES=1 only. */
export function failWithoutChromiumWhenStrict(): void {
  if (CHROMIUM_PATH !== undefined || !STRICT_SERVICES) return;
  describe("Chromium under STRICT_SERVICES=1", () => {
    it("needs a Chromium", () => {
      throw new Error("no Chromium under STRICT_SERVICES=1: install Debian's chromium package (.ci/run does) or set STRAND_CHROMIUM");
    });
  });
}
