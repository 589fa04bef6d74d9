/**
 * The generated reference pages (configuration, error codes, finding codes, command line, events) are what
 * `npm run docs:generate` writes from the code's tables today: a change to a table without regenerating
 * fails here, naming the page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedPages } from "../../scripts/docs-reference.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

function onDisk(path: string): string {
  try {
    return readFileSync(join(PROJECT_ROOT, path), "utf8");
  } catch {
    return "";
  }
}

describe("the generated references", async () => {
  const pages = await generatedPages();

  it("are the five pages under docs/reference/", () => {
    expect(pages.map((page) => page.path).sort()).toEqual(["cli", "configuration", "error-codes", "events", "finding-codes"].map((name) => `docs/reference/${name}.md`));
  });

  for (const page of pages) {
    it(`${page.path} is current`, () => {
      expect(onDisk(page.path) === page.text, `${page.path} is out of date: run npm run docs:generate`).toBe(true);
    });
  }
});
